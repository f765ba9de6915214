// SPDX-License-Identifier: GPL-2.0
/*
 * write-once [--fail-nth N] FILE: reads stdin whole, writes it to FILE in a
 * single write(), and prints "accepted" or the errno's name. Shells cannot
 * do either: they split writes and do not say why one failed. With
 * --fail-nth, the Nth fault-injectable allocation of the write fails
 * (/proc/thread-self/fail-nth, set after the file is opened), and
 * " reached" follows if the write got that far.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INPUT_BYTES (4 << 20)

static int set_fail_nth(const char *n)
{
	int fd = open("/proc/thread-self/fail-nth", O_WRONLY);
	int ok = fd >= 0 && write(fd, n, strlen(n)) == (ssize_t)strlen(n);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* What is left of the countdown: 0 once the Nth allocation has failed. */
static int fail_nth_left(void)
{
	int fd = open("/proc/thread-self/fail-nth", O_RDONLY);
	char n[16] = "";
	ssize_t got;

	if (fd < 0)
		return -1;
	got = read(fd, n, sizeof(n) - 1);
	close(fd);
	return got < 0 ? -1 : atoi(n);
}

int main(int argc, char **argv)
{
	char *buf = malloc(MAX_INPUT_BYTES);
	const char *fail_nth = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, err = 0;

	if (argc == 4 && !strcmp(argv[1], "--fail-nth")) {
		fail_nth = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: write-once [--fail-nth N] FILE < data\n");
		return 2;
	}
	while (len < MAX_INPUT_BYTES &&
	       (n = read(0, buf + len, MAX_INPUT_BYTES - len)) > 0)
		len += n;
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	if (fail_nth && set_fail_nth(fail_nth)) {
		printf("fail-nth: %s\n", strerrorname_np(errno));
		return 1;
	}
	if (write(fd, buf, len) < 0)
		err = errno;
	printf("%s", err ? strerrorname_np(err) : "accepted");
	if (fail_nth) {
		if (fail_nth_left() == 0)
			printf(" reached");
		set_fail_nth("0");
	}
	printf("\n");
	return err ? 1 : 0;
}
