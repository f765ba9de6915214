/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Making the Nth allocation of one call of this task fail, for the helpers
 * that load, write or read under fault injection (debug kernel only):
 *
 * --fail-nth N     the Nth fault-injectable allocation of this task
 *                  (/proc/thread-self/fail-nth): slab and page allocations
 *                  as failslab and fail_page_alloc let through, and the
 *                  core's per-CPU allocations once fail_function injects
 *                  tpstat_percpu_alloc() (t-90 arms it): the kernel counts
 *                  every fault point it passes, whatever else it is set to;
 * --fail-percpu N  the Nth call of tpstat_percpu_alloc() alone, by
 *                  fail_function's own countdown: its space is N and its
 *                  times 1, and its task filter passes only this task.
 *
 * Either way the kernel says whether the point was reached: fail-nth counts
 * down to 0, times to 0. What forced the failure is in the kernel log when
 * the attributes are verbose (t-90 sets them to 1), unless the allocation
 * asked for __GFP_NOWARN, which the kernel keeps quiet: its caller copes
 * with a failure. Which caller, t-90's kretprobe event on should_failslab()
 * tells, with a stack trace of each failure (fail_why()).
 */
#ifndef FAIL_POINT_H
#define FAIL_POINT_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAIL_FUNCTION "/sys/kernel/debug/fail_function/"
#define TRACE "/sys/kernel/tracing/trace"

enum fail_mode { FAIL_NONE, FAIL_NTH, FAIL_PERCPU };

/*
 * fail-nth is opened once, before the first point is set: opening it while
 * its countdown runs would allocate, and so move the countdown. The other
 * attributes can be opened any time (only calls of tpstat_percpu_alloc()
 * count for them), and must be: debugfs's cannot seek.
 */
static int nth_fd = -1;
static int kmsg_fd = -1;

static int put_int(int fd, int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -1;
}

static int get_int(int fd)
{
	char buf[16] = "";

	return pread(fd, buf, sizeof(buf) - 1, 0) <= 0 ? -1 : atoi(buf);
}

/* A fault attribute, or make-it-fail: opened for each use. */
static int put_path(const char *path, int n)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && dprintf(fd, "%d", n) > 0;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int put_attr(const char *name, int n)
{
	char path[128];

	snprintf(path, sizeof(path), FAIL_FUNCTION "%s", name);
	return put_path(path, n);
}

static int get_attr(const char *name)
{
	char path[128], buf[16] = "";
	int fd, got;

	snprintf(path, sizeof(path), FAIL_FUNCTION "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return got <= 0 ? -1 : atoi(buf);
}

static int fail_open(void)
{
	if (kmsg_fd >= 0)
		return nth_fd < 0 ? -1 : 0;
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	return nth_fd < 0 || kmsg_fd < 0 ? -1 : 0;
}

/* Sets the Nth point of MODE to fail; 0, or -1 with errno set. */
static int fail_arm(int mode, int n)
{
	int trace = open(TRACE, O_WRONLY | O_TRUNC);

	/* Emptied before the countdown starts; absent without tracefs. */
	if (trace >= 0)
		close(trace);
	if (fail_open())
		return -1;
	lseek(kmsg_fd, 0, SEEK_END);
	if (mode == FAIL_NTH)
		return put_int(nth_fd, n);
	if (put_attr("space", n) || put_attr("times", 1) ||
	    put_path("/proc/thread-self/make-it-fail", 1))
		return -1;
	return 0;
}

/* 1 if the Nth point failed, 0 if the call ended before it, -1: unknown. */
static int fail_reached(int mode)
{
	int left = mode == FAIL_NTH ? get_int(nth_fd) : get_attr("times");

	return left < 0 ? -1 : left == 0;
}

static void fail_disarm(int mode)
{
	if (mode == FAIL_NTH) {
		put_int(nth_fd, 0);
		return;
	}
	put_path("/proc/thread-self/make-it-fail", 0);
	put_attr("times", 0);
}

/*
 * How many probes the core logged it could not attach since fail_arm(),
 * out of memory: the kernel refused them (their state is "failed").
 */
static int fail_refused_probes;

/*
 * The attribute the kernel logged a forced failure of since fail_arm()
 * ("failslab", "fail_page_alloc", "fail_function"), or "" if it logged
 * none: the allocation asked for __GFP_NOWARN.
 */
static const char *fail_forced(void)
{
	static char name[32];
	char rec[1024];
	int pending = 0;

	name[0] = '\0';
	fail_refused_probes = 0;
	for (;;) {
		ssize_t got = read(kmsg_fd, rec, sizeof(rec) - 1);
		char *at;

		if (got < 0 && errno == EPIPE)
			continue;	/* records lost; read on */
		if (got <= 0)
			return name;
		rec[got] = '\0';
		at = strstr(rec, ": cannot attach to ");
		if (at && strstr(at, ": -12\n"))
			fail_refused_probes++;
		at = strstr(rec, "FAULT_INJECTION: forcing a failure");
		if (!at && !pending)
			continue;
		/* "name ..." is its second line: in this record or the next. */
		pending = !!at;
		at = strstr(at ?: rec, "name ");
		if (at) {
			pending = 0;
			if (!name[0])
				sscanf(at + 5, "%31[a-z_]", name);
		}
	}
}

/*
 * A caller that copes with a failed allocation, from the stack trace of the
 * failure in the trace buffer, within its nearest frames: "kvmalloc" (it
 * tries vmalloc() next), "kmemleak" (its own record of an allocation: it
 * takes one from its reserve pool instead), "debugobjects" (refilling its
 * pool, which goes on with what it has), "vmap_preload" (the spare
 * vmap_area vmalloc() keeps per CPU, preload_this_cpu_lock(): it goes on
 * without, and allocates one then if it must split a free area),
 * "radix_tree_preload" (a radix tree's node asked for without sleeping,
 * as idr_alloc_cyclic() does for a kernfs node: it takes one its caller
 * preloaded, lib/radix-tree.c); or "" for any other. All but vmap_preload
 * are quiet (__GFP_NOWARN).
 */
/* The failed allocation's nearest frames, "a < b < ...", for reports. */
static char fail_frames[1024];
/* Whether a function of ours (tpstat_*) is on its stack. */
static int fail_ours;

static const char *fail_site(void)
{
	static char buf[65536];
	const char *site = "";
	char *line, *save;
	ssize_t got, len = 0;
	int fd = open(TRACE, O_RDONLY), frames = 0;

	fail_frames[0] = '\0';
	fail_ours = 0;
	if (fd < 0)
		return site;
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (got = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += got;
	close(fd);
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, " => ", 4))
			continue;
		if (strstr(line, "tpstat"))
			fail_ours = 1;
		if (frames++ < 12) {
			size_t at = strlen(fail_frames);

			snprintf(fail_frames + at, sizeof(fail_frames) - at,
				 "%s%s", at ? " < " : "", line + 4);
		}
		if (site[0] || frames > 4)
			continue;
		if (strstr(line, "kmemleak"))
			site = "kmemleak";
		else if (strstr(line, "kvmalloc"))
			site = "kvmalloc";
		else if (strstr(line, "fill_pool"))
			site = "debugobjects";
		else if (strstr(line, "alloc_vmap_area"))
			site = "vmap_preload";
		else if (strstr(line, "radix_tree_node_alloc"))
			site = "radix_tree_preload";
	}
	return site;
}

/*
 * What failed: a caller fail_site() knows, else the attribute that forced
 * it (fail_forced()), else "quiet".
 */
static const char *fail_why(void)
{
	const char *forced = fail_forced(), *site = fail_site();

	if (site[0])
		return site;
	return forced[0] ? forced : "quiet";
}

#endif /* FAIL_POINT_H */
