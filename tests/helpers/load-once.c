// SPDX-License-Identifier: GPL-2.0
/*
 * load-once MODULE.ko [PARAMS]
 *	One finit_module() call, printing "loaded" or the errno's name.
 *	busybox insmod retries a failed load with init_module(), which would
 *	log every refusal twice.
 *
 * load-once --fail-all [--percpu] MODULE.ko [PARAMS]
 *	Loads with the 1st, 2nd, 3rd... fault point of this task failing
 *	(fail-point.h: any fault-injectable allocation, or with --percpu the
 *	core's per-CPU allocations alone), until a load ends before its Nth
 *	point. Each load the Nth failure reached must fail with ENOMEM and
 *	leave nothing behind. One that succeeds anyway is unloaded, and must
 *	be explained by what the kernel does when that allocation fails:
 *	- a caller that copes with it did (fail-point.h), and the load did
 *	  all that one with nothing failing does: kvmalloc() got vmalloc()
 *	  instead, and a tpstat module has one more vmalloc() area; kmemleak
 *	  or debugobjects took from their reserve what they keep for it;
 *	  vmalloc() went on without its spare vmap_area; a radix tree took
 *	  the node its caller preloaded (a sysfs file's kernfs id);
 *	- it refused to register one probe (tracepoint_probe_register()),
 *	  which the core logged and shows as failed, the rest as it would be;
 *	- the allocation was the module loader's, no function of ours on its
 *	  stack, and it went on without (a modinfo string, ftrace's records
 *	  of the module's functions): everything of ours is as it would be.
 *	Anything else is reported, and fails.
 *	Prints "points N fallbacks F refused R loader L", or what went wrong.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fail-point.h"

/* Every load path must give up long before this many allocations. */
#define MAX_POINTS 5000

static int load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	return err;
}

/*
 * What a load did, to compare one that made up for a failed allocation
 * with one where nothing failed: each probe's set, tracepoint and state,
 * the core's files and every file of every set, the memory the core
 * accounts, and the areas vmalloc() gave the tpstat modules (vmallocinfo
 * names the caller).
 */
struct outcome {
	char text[32768];
	size_t len;
	int vmalloc_areas;
};

static void outcome_add(struct outcome *o, const char *s)
{
	int n = snprintf(o->text + o->len, sizeof(o->text) - o->len, "%s\n", s);

	if (n > 0)
		o->len = o->len + n < sizeof(o->text) ? o->len + n : sizeof(o->text) - 1;
}

static void outcome_take(struct outcome *o)
{
	char line[1024], a[160], b[160], c[32];
	struct dirent *set, *file;
	DIR *top, *dir;
	FILE *f;

	o->len = 0;
	o->text[0] = '\0';
	o->vmalloc_areas = 0;
	f = fopen("/sys/kernel/debug/tpstat/probes", "r");
	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '#' && sscanf(line, "%159s %159s %31s", a, b, c) == 3) {
			snprintf(line, sizeof(line), "probe %s %s %s", a, b, c);
			outcome_add(o, line);
		}
	if (f)
		fclose(f);
	top = opendir("/sys/kernel/debug/tpstat");
	while (top && (set = readdir(top))) {
		if (set->d_name[0] == '.')
			continue;
		if (set->d_type != DT_DIR) {
			snprintf(line, sizeof(line), "file %s", set->d_name);
			outcome_add(o, line);
			continue;
		}
		snprintf(line, sizeof(line), "/sys/kernel/debug/tpstat/%s", set->d_name);
		dir = opendir(line);
		while (dir && (file = readdir(dir))) {
			if (file->d_name[0] == '.')
				continue;
			snprintf(line, sizeof(line), "file %s/%s", set->d_name,
				 file->d_name);
			outcome_add(o, line);
		}
		if (dir)
			closedir(dir);
	}
	if (top)
		closedir(top);
	f = fopen("/sys/kernel/debug/tpstat/memory", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "total ", 6))
			outcome_add(o, strtok(line, "\n"));
	if (f)
		fclose(f);
	f = fopen("/proc/vmallocinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		o->vmalloc_areas += !!strstr(line, " [tpstat");
	if (f)
		fclose(f);
}

/*
 * Whether @now is @whole with one probe's state "failed" where it was
 * "attached": the kernel refused to register it, which the core shows and
 * logs (README), and the load goes on without it.
 */
static int one_probe_failed(const struct outcome *whole,
			    const struct outcome *now)
{
	const char *w = whole->text, *g = now->text;
	int changed = 0;

	if (now->vmalloc_areas != whole->vmalloc_areas)
		return 0;
	while (*w && *g) {
		size_t wl = strcspn(w, "\n"), gl = strcspn(g, "\n");

		if (wl != gl || strncmp(w, g, wl)) {
			/* "probe SET NAME attached" against "... failed". */
			if (wl < 9 || gl < 7 || strncmp(w, "probe ", 6) ||
			    wl - 8 != gl - 6 || strncmp(w, g, gl - 6) ||
			    strncmp(w + wl - 8, "attached", 8) ||
			    strncmp(g + gl - 6, "failed", 6))
				return 0;
			changed++;
		}
		w += wl + (w[wl] == '\n');
		g += gl + (g[gl] == '\n');
	}
	return !*w && !*g && changed == 1;
}

static int unload(const char *name, int n)
{
	if (!syscall(SYS_delete_module, name, O_NONBLOCK))
		return 0;
	printf("loaded with point %d failing, then would not go: %s\n", n,
	       strerrorname_np(errno));
	return -1;
}

static int fail_all(int mode, const char *path, const char *params)
{
	static struct outcome whole, now;
	char name[256], *dot;
	int n, fd, err, extra, fallbacks = 0, refused = 0, loader = 0;

	snprintf(name, sizeof(name), "%s", basename((char *)path));
	dot = strstr(name, ".ko");
	if (dot)
		*dot = '\0';

	/* What a load with nothing failing does. */
	err = load(path, params);
	if (err) {
		printf("does not load with nothing failing: %s\n",
		       strerrorname_np(-err));
		return 1;
	}
	outcome_take(&whole);
	if (unload(name, 0))
		return 1;

	for (n = 1; n <= MAX_POINTS; n++) {
		const char *why;
		int reached;

		/* The file is opened first: only the load itself counts. */
		fd = open(path, O_RDONLY);
		if (fd < 0 || fail_arm(mode, n)) {
			printf("cannot set fault point %d: %s\n", n,
			       strerrorname_np(errno));
			return 1;
		}
		err = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
		reached = fail_reached(mode);
		fail_disarm(mode);
		close(fd);
		why = fail_why();
		if (!err)
			outcome_take(&now);
		if (!err && unload(name, n))
			return 1;
		if (reached < 0) {
			printf("cannot read fault point %d: %s\n", n,
			       strerrorname_np(errno));
			return 1;
		}
		if (!reached) {
			if (!err) {
				printf("points %d fallbacks %d refused %d loader %d\n",
				       n - 1, fallbacks, refused, loader);
				return 0;
			}
			printf("failed with %s before reaching point %d\n",
			       strerrorname_np(-err), n);
			return 1;
		}
		if (err == -ENOMEM)
			continue;
		if (err) {
			printf("failed with %s, not ENOMEM, at point %d (%s)\n",
			       strerrorname_np(-err), n, why);
			return 1;
		}
		/* Loaded all the same: only what the kernel does may explain it. */
		if (mode == FAIL_NTH && !strcmp(why, "failslab") &&
		    fail_refused_probes == 1 && one_probe_failed(&whole, &now)) {
			refused++;
			continue;
		}
		/*
		 * The module loader's own: it went on without what it could
		 * do without (a modinfo string, ftrace's records of the
		 * module's functions), and nothing of ours changed.
		 */
		if (mode == FAIL_NTH && !fail_ours && fail_frames[0] &&
		    !strcmp(now.text, whole.text) &&
		    now.vmalloc_areas == whole.vmalloc_areas) {
			loader++;
			continue;
		}
		if (mode == FAIL_PERCPU ||
		    (strcmp(why, "kvmalloc") && strcmp(why, "kmemleak") &&
		     strcmp(why, "debugobjects") && strcmp(why, "vmap_preload") &&
		     strcmp(why, "radix_tree_preload"))) {
			printf("loaded with point %d failing (%s), %s, at %s\n", n,
			       mode == FAIL_PERCPU ? "tpstat_percpu_alloc()" : why,
			       "which nothing makes up for", fail_frames);
			return 1;
		}
		/* kvmalloc() got vmalloc() instead; the others change nothing. */
		extra = !strcmp(why, "kvmalloc");
		if (strcmp(now.text, whole.text) ||
		    now.vmalloc_areas != whole.vmalloc_areas + extra) {
			printf("loaded with point %d failing (%s), %s: %s, %d %s (%d whole)\n",
			       n, why, "but not as a whole load does",
			       strcmp(now.text, whole.text) ?
			       "other probes, files or memory" :
			       "the same probes, files and memory",
			       now.vmalloc_areas, "vmalloc areas", whole.vmalloc_areas);
			return 1;
		}
		fallbacks++;
	}
	printf("more than %d fault points\n", MAX_POINTS);
	return 1;
}

int main(int argc, char **argv)
{
	int err;

	if (argc >= 4 && !strcmp(argv[1], "--fail-all") &&
	    !strcmp(argv[2], "--percpu"))
		return fail_all(FAIL_PERCPU, argv[3], argc > 4 ? argv[4] : "");
	if (argc >= 3 && !strcmp(argv[1], "--fail-all"))
		return fail_all(FAIL_NTH, argv[2], argc > 3 ? argv[3] : "");
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: load-once [--fail-all [--percpu]] MODULE.ko [PARAMS]\n");
		return 2;
	}
	err = load(argv[1], argc == 3 ? argv[2] : "");
	printf("%s\n", err ? strerrorname_np(-err) : "loaded");
	return !!err;
}
