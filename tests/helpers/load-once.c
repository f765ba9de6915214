// SPDX-License-Identifier: GPL-2.0
/*
 * load-once MODULE.ko [PARAMS]
 *	One finit_module() call, printing "loaded" or the errno's name.
 *	busybox insmod retries a failed load with init_module(), which would
 *	log every refusal twice.
 *
 * load-once --fail-all MODULE.ko [PARAMS]
 *	Loads with the 1st, 2nd, 3rd... fault-injectable allocation of this
 *	task failing (/proc/thread-self/fail-nth), unloading after each load
 *	that succeeds anyway, until a load ends before its Nth allocation.
 *	Prints "points N", or what went wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

static int set_fail_nth(int n)
{
	int fd = open("/proc/thread-self/fail-nth", O_RDWR);
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	if (fd < 0 || write(fd, buf, len) != len)
		return -1;
	close(fd);
	return 0;
}

/* What is left of the countdown: 0 once the Nth allocation has failed. */
static int fail_nth_left(void)
{
	int fd = open("/proc/thread-self/fail-nth", O_RDONLY);
	char buf[16] = "";

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
		return -1;
	close(fd);
	return atoi(buf);
}

static int fail_all(const char *path, const char *params)
{
	char name[256], *dot;
	int n;

	snprintf(name, sizeof(name), "%s", basename((char *)path));
	dot = strstr(name, ".ko");
	if (dot)
		*dot = '\0';

	for (n = 1; n <= MAX_POINTS; n++) {
		int err, left;

		if (set_fail_nth(n)) {
			printf("cannot use /proc/thread-self/fail-nth: %s\n",
			       strerrorname_np(errno));
			return 1;
		}
		err = load(path, params);
		left = fail_nth_left();
		set_fail_nth(0);
		if (!err && syscall(SYS_delete_module, name, O_NONBLOCK)) {
			printf("loaded with allocation %d failing, then would not unload: %s\n",
			       n, strerrorname_np(errno));
			return 1;
		}
		if (left > 0) {
			if (err) {
				printf("failed with %s before reaching allocation %d\n",
				       strerrorname_np(-err), n);
				return 1;
			}
			printf("points %d\n", n - 1);
			return 0;
		}
	}
	printf("more than %d allocation points\n", MAX_POINTS);
	return 1;
}

int main(int argc, char **argv)
{
	int err;

	if (argc >= 3 && !strcmp(argv[1], "--fail-all"))
		return fail_all(argv[2], argc > 3 ? argv[3] : "");
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: load-once [--fail-all] MODULE.ko [PARAMS]\n");
		return 2;
	}
	err = load(argv[1], argc == 3 ? argv[2] : "");
	printf("%s\n", err ? strerrorname_np(-err) : "loaded");
	return !!err;
}
