// SPDX-License-Identifier: GPL-2.0
/*
 * write-once FILE: reads stdin whole, writes it to FILE in a single write(),
 * and prints "accepted" or the errno's name. Shells cannot do either: they
 * split writes and do not say why one failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INPUT_BYTES (4 << 20)

int main(int argc, char **argv)
{
	char *buf = malloc(MAX_INPUT_BYTES);
	size_t len = 0;
	ssize_t n;
	int fd;

	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: write-once FILE < data\n");
		return 2;
	}
	while (len < MAX_INPUT_BYTES &&
	       (n = read(0, buf + len, MAX_INPUT_BYTES - len)) > 0)
		len += n;
	fd = open(argv[1], O_WRONLY);
	if (fd < 0 || write(fd, buf, len) < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("accepted\n");
	return 0;
}
