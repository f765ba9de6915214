// SPDX-License-Identifier: GPL-2.0
/*
 * workload: a fixed amount of ordinary system work, timed, for measuring
 * what loaded probe sets cost a whole system rather than one event. It
 * never sleeps on a timer, so under qemu -icount its time is the
 * instructions the guest ran for it.
 *
 *   workload [ROUNDS]      prints "ns N" for all rounds together
 *
 * Each round: fork+exec of a trivial program, a stream through a pipe, a
 * TCP exchange over loopback (short request/response, then a stream), and
 * anonymous memory mapped, touched and unmapped.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXECS		20
#define PIPE_BYTES	(2 * 1024 * 1024)
#define PING_PONGS	200
#define TCP_BYTES	(1024 * 1024)
#define MAPS		50
#define MAP_BYTES	(256 * 1024)
#define CHUNK		4096

static char buf[CHUNK];

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("child");
}

static pid_t fork_or_die(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	return pid;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t done = write(fd, p, n);

		if (done <= 0)
			die("write");
		p += done;
		n -= done;
	}
}

static void read_all(int fd, char *p, size_t n)
{
	while (n) {
		ssize_t done = read(fd, p, n);

		if (done <= 0)
			die("read");
		p += done;
		n -= done;
	}
}

static void fork_exec(void)
{
	int i;

	for (i = 0; i < EXECS; i++) {
		pid_t pid = fork_or_die();

		if (!pid) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		wait_child(pid);
	}
}

static void pipe_stream(void)
{
	int fds[2], i;
	pid_t pid;

	if (pipe(fds))
		die("pipe");
	pid = fork_or_die();
	if (!pid) {
		close(fds[1]);
		read_all(fds[0], malloc(PIPE_BYTES), PIPE_BYTES);
		_exit(0);
	}
	close(fds[0]);
	for (i = 0; i < PIPE_BYTES / CHUNK; i++)
		write_all(fds[1], buf, CHUNK);
	close(fds[1]);
	wait_child(pid);
}

/* The child connects and drives; the parent echoes, then drains. */
static void tcp_loopback(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int server, conn, i;
	char msg[64];
	pid_t pid;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	server = socket(AF_INET, SOCK_STREAM, 0);
	if (server < 0 || bind(server, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(server, 1) ||
	    getsockname(server, (struct sockaddr *)&addr, &len))
		die("listen");
	pid = fork_or_die();
	if (!pid) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
			die("connect");
		for (i = 0; i < PING_PONGS; i++) {
			write_all(fd, msg, sizeof(msg));
			read_all(fd, msg, sizeof(msg));
		}
		for (i = 0; i < TCP_BYTES / CHUNK; i++)
			write_all(fd, buf, CHUNK);
		_exit(0);
	}
	conn = accept(server, NULL, NULL);
	if (conn < 0)
		die("accept");
	for (i = 0; i < PING_PONGS; i++) {
		read_all(conn, msg, sizeof(msg));
		write_all(conn, msg, sizeof(msg));
	}
	for (i = 0; i < TCP_BYTES / CHUNK; i++)
		read_all(conn, buf, CHUNK);
	close(conn);
	close(server);
	wait_child(pid);
}

static void map_touch_unmap(void)
{
	int i;

	for (i = 0; i < MAPS; i++) {
		char *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t off;

		if (p == MAP_FAILED)
			die("mmap");
		for (off = 0; off < MAP_BYTES; off += CHUNK)
			p[off] = 1;
		munmap(p, MAP_BYTES);
	}
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long long start = now_ns();
	int i;

	for (i = 0; i < rounds; i++) {
		fork_exec();
		pipe_stream();
		tcp_loopback();
		map_touch_unmap();
	}
	printf("ns %llu\n", now_ns() - start);
	return 0;
}
