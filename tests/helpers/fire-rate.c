// SPDX-License-Identifier: GPL-2.0
/*
 * fire-rate FILE N PERIOD_MS COUNT: writes "N" to FILE (the test module's
 * fire file, which fires N events per write) COUNT times, one write every
 * PERIOD_MS milliseconds of CLOCK_MONOTONIC from its start. The deadlines
 * are fixed: a write made late does not move the next, and writes whose
 * deadline passed while the task waited are made at once, so that over
 * any stretch of time the events fired are N per period, give or take the
 * writes at its edges. Prints "fired WRITES" at its end; its comm is
 * "fire-rate", the key the test set's comm tables show it under.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec next;
	long period_ms, count, done;
	char line[32];
	int fd, len;

	if (argc != 5) {
		fprintf(stderr, "usage: fire-rate FILE N PERIOD_MS COUNT\n");
		return 2;
	}
	period_ms = atol(argv[3]);
	count = atol(argv[4]);
	len = snprintf(line, sizeof(line), "%s\n", argv[2]);
	fd = open(argv[1], O_WRONLY);
	if (fd < 0 || period_ms <= 0) {
		perror(argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (done = 0; done < count; done++) {
		if (write(fd, line, len) != len) {
			perror("write");
			return 1;
		}
		next.tv_nsec += period_ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	printf("fired %ld\n", done);
	return 0;
}
