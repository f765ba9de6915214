// SPDX-License-Identifier: GPL-2.0
/*
 * perf-record: take trace events the way perf kmem record does (perf record
 * -a -R -c 1): every event one sample with its raw fields, into a ring
 * buffer per CPU, which this program drains while a command runs.
 *
 *   perf-record kmem/kmalloc,kmem/kfree CMD [ARG...]
 *
 * Prints "events N", the samples read, and "lost N", those the buffers
 * had no room for. perf itself also writes each sample to a file; this
 * only walks them, so perf's own cost is higher still.
 */
#include <linux/perf_event.h>
#include <linux/types.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "run.h"

#define MAX_EVENTS	8
/* Enough for the samples of a loop between two of its cond_resched(). */
#define DATA_PAGES	4096

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t size;
};

static __u64 samples, lost;

/* @len bytes at @offset of the ring, which may wrap around its end. */
static void ring_copy(const struct ring *r, __u64 offset, void *to, size_t len)
{
	size_t at = offset % r->size, first = len;

	if (first > r->size - at)
		first = r->size - at;
	memcpy(to, r->data + at, first);
	memcpy((char *)to + first, r->data, len - first);
}

static void ring_drain(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->meta->data_tail;

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(r, tail, &h, sizeof(h));
		if (h.type == PERF_RECORD_SAMPLE) {
			samples++;
		} else if (h.type == PERF_RECORD_LOST) {
			__u64 id_lost[2];

			ring_copy(r, tail + sizeof(h), id_lost, sizeof(id_lost));
			lost += id_lost[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * The first event of each CPU owns its ring, mapped before the others are
 * pointed at it: the kernel refuses a ring not mapped yet.
 */
static int ring_open(struct ring *r, long *ids, int nr_ids, int cpu)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	void *map;
	int i;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	attr.watermark = 1;
	r->size = DATA_PAGES * page;
	attr.wakeup_watermark = r->size / 4;
	for (i = 0; i < nr_ids; i++) {
		int fd;

		attr.config = ids[i];
		fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fd < 0) {
			perror("perf_event_open");
			return -1;
		}
		if (i) {
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd)) {
				perror("PERF_EVENT_IOC_SET_OUTPUT");
				return -1;
			}
			continue;
		}
		r->fd = fd;
		map = mmap(NULL, page + r->size, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			perror("mmap");
			return -1;
		}
		r->meta = map;
		r->data = (unsigned char *)map + page;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long ids[MAX_EVENTS], cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct pollfd *polls;
	struct ring *rings;
	int nr_ids = 0, cpu, status;
	char *event;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: perf-record SYSTEM/EVENT[,...] CMD [ARG...]\n");
		return 2;
	}
	for (event = strtok(argv[1], ","); event; event = strtok(NULL, ",")) {
		if (nr_ids == MAX_EVENTS)
			return 2;
		ids[nr_ids] = tracepoint_id(event);
		if (ids[nr_ids++] < 0)
			return 1;
	}
	rings = calloc(cpus, sizeof(*rings));
	polls = calloc(cpus, sizeof(*polls));
	if (!rings || !polls)
		return 1;
	for (cpu = 0; cpu < cpus; cpu++) {
		if (ring_open(&rings[cpu], ids, nr_ids, cpu))
			return 1;
		polls[cpu].fd = rings[cpu].fd;
		polls[cpu].events = POLLIN;
	}

	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	/* Drain as the buffers fill, until the command ends; then once more. */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		poll(polls, cpus, 100);
		for (cpu = 0; cpu < cpus; cpu++)
			ring_drain(&rings[cpu]);
	}
	for (cpu = 0; cpu < cpus; cpu++)
		ring_drain(&rings[cpu]);
	printf("events %llu\nlost %llu\n", (unsigned long long)samples,
	       (unsigned long long)lost);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
