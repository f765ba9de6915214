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
 *	PID NVCSW NIVCSW NVCSW NIVCSW": its voluntary and involuntary
 *	switches as the kernel counted them just before it took its name and
 *	just after, and "COMM done NV NIV" after the round trips, then waits
 *	for the end of its input, so a
 *	test can compare what was counted since with /proc/PID/status while
 *	both are blocked. "elapsed NS", the round trips' time, follows, for
 *	the benchmark.
 * sched-load spin SECONDS
 *	As "tpshog": keeps a CPU busy for SECONDS.
 * sched-load hogs SECONDS
 *	As "tpshogs": two tasks on one CPU (CPU 1, or 0 with one CPU), each
 *	keeping it busy for SECONDS, so that each waits on the run queue
 *	while the other runs. Each prints "COMM PID EXEC DELAY RUNS EXEC
 *	DELAY RUNS": its /proc/self/schedstat (ns on a CPU, ns on a run
 *	queue, times run) just before it took its name and just after, a
 *	sleep before them ending the slice it was in; the second, made
 *	under that name, prints zeros for the first. Then "COMM done" once
 *	it has spun, and it waits for the end of its input.
 * sched-load sleep N MS
 *	As "tpssleep": sleeps N times MS milliseconds with nanosleep(), each
 *	one block in TASK_INTERRUPTIBLE and one wakeup, and nothing else
 *	under that name; then prints "tpssleep PID NS", NS the time the
 *	sleeps took on CLOCK_MONOTONIC, from before the first to after the
 *	last.
 * sched-load rings N
 *	As "tpsring": sets up N io_uring rings, each with a polling thread
 *	of its own, which the kernel makes with create_io_thread(): a new
 *	task that sched_process_fork never sees. With the rings open, prints
 *	"threads T", the threads of this process beside itself as
 *	/proc/self/task lists them, then closes the rings. "unsupported"
 *	if the kernel refuses io_uring (its io_uring_disabled sysctl).
 * Run as "tpsexecd" (a link to it): exits at once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void name_task(const char *comm)
{
	if (prctl(PR_SET_NAME, comm))
		die("prctl");
}

/* Pins this task to @cpu, or to CPU 0 with one CPU. */
static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu >= sysconf(_SC_NPROCESSORS_ONLN))
		cpu = 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* The kernel's count of this task's voluntary and involuntary switches. */
static void read_switches(long *nv, long *niv)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	if (!f)
		die("/proc/self/status");
	*nv = *niv = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "voluntary_ctxt_switches: %ld", nv) == 1)
			continue;
		if (sscanf(line, "nonvoluntary_ctxt_switches: %ld", niv) == 1)
			continue;
	}
	fclose(f);
}

/*
 * Prints "COMM PID NVCSW NIVCSW NVCSW NIVCSW": the counts just before it
 * names this task and just after. Reading them takes long on a debug
 * kernel, and a busy host preempts the task meanwhile: the switches under
 * the new name lie between what was counted since each.
 */
static void become_counted(const char *comm, int cpu)
{
	long nv, niv, nv_named, niv_named;

	read_switches(&nv, &niv);
	name_task(comm);
	read_switches(&nv_named, &niv_named);
	pin(cpu);
	printf("%s %d %ld %ld %ld %ld\n", comm, getpid(), nv, niv, nv_named,
	       niv_named);
	fflush(stdout);
}

/* "COMM done NVCSW NIVCSW": the kernel's counts after the round trips. */
static void print_done(const char *comm)
{
	long nv, niv;

	read_switches(&nv, &niv);
	printf("%s done %ld %ld\n", comm, nv, niv);
	fflush(stdout);
}

static int fork_children(long n, char *program)
{
	long i;

	name_task("tpsfork");
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

/* Blocks until standard input ends: at once when it is /dev/null. */
static void wait_for_eof(void)
{
	char c;

	while (read(0, &c, 1) > 0)
		;
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
	long long start = now_ns(), elapsed;
	int there[2], back[2], status;
	pid_t pid;

	if (pipe(there) || pipe(back))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		become_counted("tpspong", 1);
		bounce(there[0], back[1], k, 0);
		print_done("tpspong");
		wait_for_eof();
		_exit(0);
	}
	become_counted("tpsping", 0);
	bounce(back[0], there[1], k, 1);
	elapsed = now_ns() - start;
	print_done("tpsping");
	wait_for_eof();
	if (waitpid(pid, &status, 0) != pid || status)
		die("pong");
	printf("elapsed %lld\n", elapsed);
	return 0;
}

/* "EXEC DELAY RUNS" of this task, from /proc/self/schedstat. */
static void read_schedstat(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/schedstat", "r");

	if (!f || !fgets(buf, size, f))
		die("/proc/self/schedstat");
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void spin_for(long seconds)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < seconds);
}

static int spin(long seconds)
{
	name_task("tpshog");
	spin_for(seconds);
	return 0;
}

static int hogs(long seconds)
{
	char before[128], named[128];
	int status;
	pid_t pid;

	pin(1);
	/* A slice that begins here: the time before the name is a read's. */
	usleep(1000);
	read_schedstat(before, sizeof(before));
	name_task("tpshogs");
	read_schedstat(named, sizeof(named));
	printf("tpshogs %d %s %s\n", getpid(), before, named);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		printf("tpshogs %d 0 0 0 0 0 0\n", getpid());
		fflush(stdout);
	}
	spin_for(seconds);
	printf("tpshogs done\n");
	fflush(stdout);
	wait_for_eof();
	if (!pid)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || status)
		die("hog");
	return 0;
}

static int sleeper(long n, long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000 };
	long long start;
	long i;

	name_task("tpssleep");
	start = now_ns();
	for (i = 0; i < n; i++)
		if (nanosleep(&t, NULL))
			die("nanosleep");
	printf("tpssleep %d %lld\n", getpid(), now_ns() - start);
	return 0;
}

/* The threads of this process but the calling one. */
static int other_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		die("/proc/self/task");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;
}

static int rings(long n)
{
	int fds[64];
	long i;

	if (n < 1 || n > 64) {
		fprintf(stderr, "sched-load: N is 1 to 64\n");
		return 2;
	}
	name_task("tpsring");
	for (i = 0; i < n; i++) {
		/* A polling thread that sleeps after 1 ms idle, not 1 s. */
		struct io_uring_params p = {
			.flags = IORING_SETUP_SQPOLL,
			.sq_thread_idle = 1,
		};

		fds[i] = syscall(__NR_io_uring_setup, 4, &p);
		if (fds[i] < 0) {
			if (!i && errno == EPERM) {
				printf("unsupported\n");
				return 0;
			}
			die("io_uring_setup");
		}
	}
	printf("threads %d\n", other_threads());
	for (i = 0; i < n; i++)
		close(fds[i]);
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
	if (argc == 3 && !strcmp(argv[1], "hogs"))
		return hogs(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "sleep"))
		return sleeper(atol(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "rings"))
		return rings(atol(argv[2]));
	fprintf(stderr, "usage: sched-load %s\n",
		"fork N [PROGRAM] | pingpong K | spin S | hogs S | sleep N MS | rings N");
	return 2;
}
