// SPDX-License-Identifier: GPL-2.0
/*
 * load-once MODULE.ko [PARAMS]: one finit_module() call, printing "loaded" or
 * the errno's name. busybox insmod retries a failed load with init_module(),
 * which would log every refusal twice.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: load-once MODULE.ko [PARAMS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || syscall(SYS_finit_module, fd, argc == 3 ? argv[2] : "", 0)) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("loaded\n");
	return 0;
}
