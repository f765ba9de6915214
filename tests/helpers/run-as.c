// SPDX-License-Identifier: GPL-2.0
/*
 * run-as UID COMMAND [ARG]...: runs COMMAND as user and group UID, with no
 * supplementary group: a user that is not root, which busybox cannot make
 * without a passwd file.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t id;

	if (argc < 3) {
		fprintf(stderr, "usage: run-as UID COMMAND [ARG]...\n");
		return 2;
	}
	id = atoi(argv[1]);
	if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
		perror("run-as");
		return 1;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
