// SPDX-License-Identifier: GPL-2.0
/*
 * thread-fire FILE N M: one process, two threads: the first writes "N" to
 * FILE (the test module's fire file: N events), then a second thread
 * writes "M". Prints "PID TID": the process's pid, which is also the first
 * thread's id, and the second thread's id, the kernel's own numbers to
 * check counts by pid and by tgid against.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *file;
static const char *second_n;
static long second_tid;

static int fire(const char *n)
{
	int fd = open(file, O_WRONLY);
	ssize_t len = (ssize_t)strlen(n);
	int ok;

	if (fd < 0) {
		perror(file);
		return 0;
	}
	ok = write(fd, n, len) == len;
	if (!ok)
		perror(file);
	close(fd);
	return ok;
}

static void *second(void *unused)
{
	(void)unused;
	second_tid = syscall(SYS_gettid);
	return fire(second_n) ? NULL : (void *)1;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *failed;

	if (argc != 4) {
		fprintf(stderr, "usage: thread-fire FILE N M\n");
		return 2;
	}
	file = argv[1];
	second_n = argv[3];
	if (!fire(argv[2]))
		return 1;
	if (pthread_create(&t, NULL, second, NULL) || pthread_join(t, &failed) ||
	    failed)
		return 1;
	printf("%ld %ld\n", (long)getpid(), second_tid);
	return 0;
}
