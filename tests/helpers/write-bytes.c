// SPDX-License-Identifier: GPL-2.0
/*
 * write-bytes FILE: reads stdin whole and writes it to FILE one byte per
 * write(), on one open file, as a slow writer would, and prints what each
 * write got: "accepted" or the errno's name, separated by spaces. A shell
 * cannot: dd's status is that of the last write only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_INPUT_BYTES 4096

int main(int argc, char **argv)
{
	char buf[MAX_INPUT_BYTES];
	size_t len = 0, i;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: write-bytes FILE < data\n");
		return 2;
	}
	while (len < sizeof(buf) && (n = read(0, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open: %s\n", strerrorname_np(errno));
		return 1;
	}
	for (i = 0; i < len; i++) {
		n = write(fd, buf + i, 1);
		printf("%s%s", i ? " " : "",
		       n == 1 ? "accepted" : n ? strerrorname_np(errno) : "none");
	}
	printf("\n");
	close(fd);
	return 0;
}
