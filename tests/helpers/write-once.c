// SPDX-License-Identifier: GPL-2.0
/*
 * write-once [--fail-nth N | --fail-percpu N [--why]] FILE: reads stdin
 * whole, writes it to FILE in a single write(), and prints "accepted" or the
 * errno's name. Shells cannot do either: they split writes and do not say
 * why one failed. With --fail-nth or --fail-percpu, the Nth fault point of
 * the write fails (fail-point.h; set after the file is opened), and
 * " reached" follows if the write got that far; with --why, then what the
 * kernel logged it as: " (failslab)", " (fail_page_alloc)",
 * " (fail_function)", or for an allocation made with __GFP_NOWARN, whose
 * caller copes with a failure, that caller: " (kvmalloc)", " (kmemleak)",
 * " (debugobjects)", else " (quiet)" (fail-point.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fail-point.h"

#define MAX_INPUT_BYTES (4 << 20)

int main(int argc, char **argv)
{
	char *buf = malloc(MAX_INPUT_BYTES);
	int mode = FAIL_NONE, nth = 0, why = 0, reached = 0;
	size_t len = 0;
	ssize_t n;
	int fd, err = 0;

	if (argc >= 4 && (!strcmp(argv[1], "--fail-nth") ||
			  !strcmp(argv[1], "--fail-percpu"))) {
		mode = strcmp(argv[1], "--fail-nth") ? FAIL_PERCPU : FAIL_NTH;
		nth = atoi(argv[2]);
		argv += 2;
		argc -= 2;
		if (argc == 3 && !strcmp(argv[1], "--why")) {
			why = 1;
			argv++;
			argc--;
		}
	}
	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: write-once [%s N [--why]] FILE < data\n",
			"--fail-nth N | --fail-percpu");
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
	if (mode != FAIL_NONE && fail_arm(mode, nth)) {
		printf("fault point: %s\n", strerrorname_np(errno));
		return 1;
	}
	if (write(fd, buf, len) < 0)
		err = errno;
	/* Before stdio allocates anything: that would count too. */
	if (mode != FAIL_NONE) {
		reached = fail_reached(mode);
		fail_disarm(mode);
	}
	printf("%s", err ? strerrorname_np(err) : "accepted");
	if (reached > 0)
		printf(" reached");
	if (reached > 0 && why)
		printf(" (%s)", fail_why());
	printf("\n");
	return err ? 1 : 0;
}
