// SPDX-License-Identifier: GPL-2.0
/*
 * thread-exec PROGRAM [ARG...]: reads one byte from stdin (the gate: the
 * test scopes this process first), then starts a second thread, and that
 * thread, not the first, execs PROGRAM with ARGs. The kernel's de_thread()
 * then kills the first thread (the leader) and hands its pid to the one
 * that execs: the process keeps its pid, carried by another task. So one
 * clone and one exec come from this process before PROGRAM's own events.
 * PROGRAM inherits stdin, with whatever the gate left in it.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static char **program;

static void *exec_program(void *unused)
{
	(void)unused;
	execv(program[0], program);
	perror("thread-exec: exec");
	_exit(127);
}

int main(int argc, char **argv)
{
	pthread_t thread;
	char gate;

	if (argc < 2) {
		fprintf(stderr, "usage: thread-exec PROGRAM [ARG...]\n");
		return 2;
	}
	if (read(0, &gate, 1) != 1) {
		fprintf(stderr, "thread-exec: no gate byte on stdin\n");
		return 1;
	}
	program = argv + 1;
	if (pthread_create(&thread, NULL, exec_program, NULL)) {
		fprintf(stderr, "thread-exec: cannot start a thread\n");
		return 1;
	}
	/* The exec ends this thread; joining only waits for it. */
	pthread_join(thread, NULL);
	return 1;
}
