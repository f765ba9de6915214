// SPDX-License-Identifier: GPL-2.0
/*
 * perf-run: count a trace event the way perf stat -a -e does, with one
 * counting perf event per CPU (no sampling, no ring buffer), while a
 * command runs.
 *
 *   perf-run tpstat_bench/tpstat_bench_fire CMD [ARG...]
 */
#include <linux/perf_event.h>
#include <linux/types.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "run.h"

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long id, cpus = sysconf(_SC_NPROCESSORS_CONF);
	__u64 total = 0;
	int *fds, cpu, rc;

	if (argc < 3) {
		fprintf(stderr, "usage: perf-run SYSTEM/EVENT CMD [ARG...]\n");
		return 2;
	}
	id = tracepoint_id(argv[1]);
	fds = calloc(cpus, sizeof(*fds));
	if (id < 0 || !fds)
		return 1;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	for (cpu = 0; cpu < cpus; cpu++) {
		fds[cpu] = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fds[cpu] < 0) {
			perror("perf_event_open");
			return 1;
		}
	}

	rc = run_command(argv + 2);

	for (cpu = 0; cpu < cpus; cpu++) {
		__u64 n;

		if (read(fds[cpu], &n, sizeof(n)) != sizeof(n)) {
			perror("read");
			return 1;
		}
		total += n;
		close(fds[cpu]);
	}
	printf("events %llu\n", (unsigned long long)total);
	return rc;
}
