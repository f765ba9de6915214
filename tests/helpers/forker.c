// SPDX-License-Identifier: GPL-2.0
/*
 * forker N M: reads one byte from stdin (the gate: the test scopes this
 * process first), then forks N children, each of which execs forker again
 * as "forker - M", which forks M grandchildren that exit at once. Every
 * one is waited for. So N + N*M forks and N execs come from this process
 * tree, exactly; exits 0 if all went as planned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Forks @n children, each of which execs @self with @arg (grandchildren
 * are given none, and exit at once); waits for all. 0 if all exited 0.
 */
static int fork_n(int n, const char *self, const char *arg)
{
	int i, status, bad = 0;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("forker: fork");
			return 1;
		}
		if (pid)
			continue;
		if (!arg)
			_exit(0);
		execl(self, self, "-", arg, (char *)NULL);
		perror("forker: exec");
		_exit(1);
	}
	for (i = 0; i < n; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	return bad;
}

int main(int argc, char **argv)
{
	char gate;

	if (argc != 3) {
		fprintf(stderr, "usage: forker N M\n");
		return 2;
	}
	if (!strcmp(argv[1], "-"))
		return fork_n(atoi(argv[2]), argv[0], NULL);
	if (read(0, &gate, 1) != 1) {
		fprintf(stderr, "forker: no gate byte on stdin\n");
		return 1;
	}
	return fork_n(atoi(argv[1]), argv[0], argv[2]);
}
