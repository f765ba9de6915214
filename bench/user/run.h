/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's counting helpers set up their counter, run a command
 * while it counts, and print "events N" after it ends.
 */
#ifndef _TPSTAT_BENCH_RUN_H
#define _TPSTAT_BENCH_RUN_H

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACEFS_EVENTS	"/sys/kernel/tracing/events/"

/* The id perf knows trace event @event ("system/name") by; -1 if none. */
static inline long tracepoint_id(const char *event)
{
	char path[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS_EVENTS "%s/id", event);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &id) != 1)
		perror(path);
	if (f)
		fclose(f);
	return id;
}

/* Return: the command's exit status, or 127 when it could not be run. */
static inline int run_command(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		return 127;
	}
	if (!pid) {
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 127;
	return WEXITSTATUS(status);
}

#endif /* _TPSTAT_BENCH_RUN_H */
