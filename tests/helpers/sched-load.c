// SPDX-License-Identifier: GPL-2.0
/*
 * sched-load: scheduler workloads with names the sched set's tests count.
 *
 * sched-load fork N [PROGRAM]
 *	As "tpsfork": forks N children one after another, each of which
 *	execs PROGRAM (or exits at once), and waits for each.
 * sched-load pingpong K
 *	As "tpsping" on CPU 0 and "tpspong" on CPU 1 (both on CPU 0 with one
 *	CPU): K round trips of one byte over two pipes. Each prints "COMM
 *	NVCSW NIVCSW", its voluntary and involuntary switches as the kernel
 *	counts them, and then "elapsed NS" follows, for the benchmark.
 * sched-load spin SECONDS
 *	As "tpshog": keeps a CPU busy for SECONDS.
 * Run as "tpsexecd" (a link to it): exits at once.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void become(const char *comm, int cpu)
{
	cpu_set_t set;

	if (prctl(PR_SET_NAME, comm))
		die("prctl");
	if (cpu < 0)
		return;
	if (cpu >= sysconf(_SC_NPROCESSORS_ONLN))
		cpu = 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* "COMM NVCSW NIVCSW" from /proc/self/status. */
static void print_switches(const char *comm)
{
	FILE *f = fopen("/proc/self/status", "r");
	long nv = -1, niv = -1;
	char line[256];

	if (!f)
		die("/proc/self/status");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &nv) == 1)
			continue;
		if (sscanf(line, "nonvoluntary_ctxt_switches: %ld", &niv) == 1)
			continue;
	}
	fclose(f);
	printf("%s %ld %ld\n", comm, nv, niv);
	fflush(stdout);
}

static int fork_children(long n, char *program)
{
	long i;

	become("tpsfork", -1);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			die("fork");
		if (!pid) {
			if (program)
				execl(program, program, (char *)NULL);
			_exit(program ? 127 : 0);
		}
		if (waitpid(pid, &status, 0) != pid || status)
			die("child");
	}
	return 0;
}

static void bounce(int in, int out, long k, int first)
{
	char c = 'x';
	long i;

	for (i = 0; i < k; i++) {
		if (first && write(out, &c, 1) != 1)
			die("write");
		if (read(in, &c, 1) != 1)
			die("read");
		if (!first && write(out, &c, 1) != 1)
			die("write");
	}
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int pingpong(long k)
{
	long long start = now_ns();
	int there[2], back[2], status;
	pid_t pid;

	if (pipe(there) || pipe(back))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		become("tpspong", 1);
		bounce(there[0], back[1], k, 0);
		print_switches("tpspong");
		_exit(0);
	}
	become("tpsping", 0);
	bounce(back[0], there[1], k, 1);
	if (waitpid(pid, &status, 0) != pid || status)
		die("pong");
	print_switches("tpsping");
	printf("elapsed %lld\n", now_ns() - start);
	return 0;
}

static int spin(long seconds)
{
	struct timespec start, now;

	become("tpshog", -1);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < seconds);
	return 0;
}

int main(int argc, char **argv)
{
	if (!strcmp(basename(argv[0]), "tpsexecd"))
		return 0;
	if (argc >= 3 && !strcmp(argv[1], "fork"))
		return fork_children(atol(argv[2]), argc > 3 ? argv[3] : NULL);
	if (argc == 3 && !strcmp(argv[1], "pingpong"))
		return pingpong(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atol(argv[2]));
	fprintf(stderr, "usage: sched-load fork N [PROGRAM] | pingpong K | spin SECONDS\n");
	return 2;
}
