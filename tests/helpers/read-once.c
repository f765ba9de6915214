// SPDX-License-Identifier: GPL-2.0
/*
 * read-once [--fail-nth N | --fail-percpu N] FILE: opens FILE and reads it
 * to its end, then prints "read" or the errno's name of the open or read
 * that failed, and after that line what it read, if it read it all. With
 * --fail-nth or --fail-percpu, the Nth fault point from the open on fails
 * (fail-point.h), and the first line goes on as write-once --why does:
 * " reached" if the read got that far, then what failed, in brackets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fail-point.h"

#define MAX_OUTPUT_BYTES (16 << 20)

int main(int argc, char **argv)
{
	char *buf = malloc(MAX_OUTPUT_BYTES);
	int mode = FAIL_NONE, nth = 0, fd, err = 0, reached = 0;
	size_t len = 0;
	ssize_t n = 0;

	if (argc == 4 && (!strcmp(argv[1], "--fail-nth") ||
			  !strcmp(argv[1], "--fail-percpu"))) {
		mode = strcmp(argv[1], "--fail-nth") ? FAIL_PERCPU : FAIL_NTH;
		nth = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: read-once [--fail-nth N | --fail-percpu N] FILE\n");
		return 2;
	}
	if (mode != FAIL_NONE && fail_arm(mode, nth)) {
		printf("fault point: %s\n", strerrorname_np(errno));
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		err = errno;
	while (!err && len < MAX_OUTPUT_BYTES &&
	       (n = read(fd, buf + len, MAX_OUTPUT_BYTES - len)) > 0)
		len += n;
	if (!err && n < 0)
		err = errno;
	/* Before stdio allocates anything: that would count too. */
	if (mode != FAIL_NONE) {
		reached = fail_reached(mode);
		fail_disarm(mode);
	}
	if (fd >= 0)
		close(fd);
	printf("%s", err ? strerrorname_np(err) : "read");
	if (reached > 0)
		printf(" reached (%s)", fail_why());
	printf("\n");
	if (!err)
		fwrite(buf, 1, len, stdout);
	return err ? 1 : 0;
}
