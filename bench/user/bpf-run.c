// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-run: load programs of bench.bpf.o, attach them, run a command, then
 * print how many events they recorded, summed over their per-CPU maps.
 *
 *   bpf-run bench.bpf.o raw_count CMD [ARG...]
 *   bpf-run bench.bpf.o runqlat_wakeup,runqlat_wakeup_new,runqlat_switch CMD
 *   bpf-run bench.bpf.o offcpu_switch CMD
 *   bpf-run bench.bpf.o leak_stack_kmalloc,leak_stack_kfree CMD
 *
 * The stack program's run also prints how many stacks it kept ("stacks N")
 * and the frames of the deepest ("frames N"); memleak's by stack, the
 * allocations whose save or stack walk failed ("lost N").
 *
 * The network's programs count what tpstat_net counts: for each packet
 * that crosses lo, an event queued, sent, received and dropped, one timed
 * in its queue and one received through the backlog; devices alone counts
 * it sent and received.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include <stdlib.h>
#include <string.h>

#include "../bpf/bench.h"
#include "run.h"

static int cpus;

static __u64 count_events(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "counts");
	__u64 *counts = calloc(cpus, sizeof(*counts));
	__u32 zero = 0;
	__u64 total = 0;
	int cpu;

	if (counts && !bpf_map__lookup_elem(map, &zero, sizeof(zero), counts,
					    cpus * sizeof(*counts), 0))
		for (cpu = 0; cpu < cpus; cpu++)
			total += counts[cpu];
	free(counts);
	return total;
}

static struct bpf_map *hist_map(struct bpf_object *obj)
{
	return bpf_object__find_map_by_name(obj, "hist");
}

/* A histogram's min starts above any value, as tpstat's does. */
static int hist_init(struct bpf_object *obj)
{
	struct bench_hist *h = calloc(cpus, sizeof(*h));
	__u32 zero = 0;
	int cpu, err;

	if (!h)
		return -1;
	for (cpu = 0; cpu < cpus; cpu++)
		h[cpu].min = ~0ULL;
	err = bpf_map__update_elem(hist_map(obj), &zero, sizeof(zero), h,
				   cpus * sizeof(*h), 0);
	free(h);
	return err;
}

static __u64 hist_events(struct bpf_object *obj)
{
	struct bench_hist *h = calloc(cpus, sizeof(*h));
	__u32 zero = 0;
	__u64 total = 0;
	int cpu, i;

	if (h && !bpf_map__lookup_elem(hist_map(obj), &zero, sizeof(zero), h,
				       cpus * sizeof(*h), 0))
		for (cpu = 0; cpu < cpus; cpu++)
			for (i = 0; i < BENCH_BUCKETS; i++)
				total += h[cpu].buckets[i];
	free(h);
	return total;
}

/* Events in a per-CPU hash of bench_row values keyed by KEY_SIZE bytes. */
static __u64 rows_events(struct bpf_object *obj, const char *name,
			 size_t key_size)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);
	struct bench_row *rows = calloc(cpus, sizeof(*rows));
	char key[sizeof(struct bench_wide_key)], prev[sizeof(key)];
	__u64 total = 0;
	void *last = NULL;
	int cpu;

	while (rows && !bpf_map__get_next_key(map, last, key, key_size)) {
		if (!bpf_map__lookup_elem(map, key, key_size, rows,
					  cpus * sizeof(*rows), 0))
			for (cpu = 0; cpu < cpus; cpu++)
				total += rows[cpu].count;
		memcpy(prev, key, key_size);
		last = prev;
	}
	free(rows);
	return total;
}

static __u64 table_events(struct bpf_object *obj)
{
	return rows_events(obj, "table", sizeof(__u64)) +
	       rows_events(obj, "wide", sizeof(struct bench_wide_key));
}

/* Events in the per-key histograms: their buckets, over every key and CPU. */
static __u64 keyed_events(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "keyed");
	struct bench_hist *h = calloc(cpus, sizeof(*h));
	__u64 key, *prev = NULL, total = 0;
	int cpu, i;

	while (h && !bpf_map__get_next_key(map, prev, &key, sizeof(key))) {
		if (!bpf_map__lookup_elem(map, &key, sizeof(key), h,
					  cpus * sizeof(*h), 0))
			for (cpu = 0; cpu < cpus; cpu++)
				for (i = 0; i < BENCH_BUCKETS; i++)
					total += h[cpu].buckets[i];
		prev = &key;
	}
	free(h);
	return total;
}

/* Every event of the pairing program is counted once, by what it did. */
static __u64 pair_events(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "pair_counts");
	__u64 *counts = calloc(cpus, sizeof(*counts));
	__u64 total = 0;
	__u32 what;
	int cpu;

	for (what = 0; counts && what < BENCH_PAIR_COUNTS; what++)
		if (!bpf_map__lookup_elem(map, &what, sizeof(what), counts,
					  cpus * sizeof(*counts), 0))
			for (cpu = 0; cpu < cpus; cpu++)
				total += counts[cpu];
	free(counts);
	return total;
}

/* The sum of a per-CPU array of u64s over its @entries and every CPU. */
static __u64 array_events(struct bpf_object *obj, const char *name,
			  __u32 entries)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);
	__u64 *counts = calloc(cpus, sizeof(*counts));
	__u64 total = 0;
	__u32 i;
	int cpu;

	for (i = 0; counts && i < entries; i++)
		if (!bpf_map__lookup_elem(map, &i, sizeof(i), counts,
					  cpus * sizeof(*counts), 0))
			for (cpu = 0; cpu < cpus; cpu++)
				total += counts[cpu];
	free(counts);
	return total;
}

/* Packets in the rows of devices, both ways, over every CPU. */
static __u64 device_events(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "devices");
	struct bench_device *rows = calloc(cpus, sizeof(*rows));
	struct bench_dev_key key, prev, *last = NULL;
	__u64 total = 0;
	int cpu, dir;

	while (rows && !bpf_map__get_next_key(map, last, &key, sizeof(key))) {
		if (!bpf_map__lookup_elem(map, &key, sizeof(key), rows,
					  cpus * sizeof(*rows), 0))
			for (cpu = 0; cpu < cpus; cpu++)
				for (dir = 0; dir < BENCH_DIRS; dir++)
					total += rows[cpu].packets[dir];
		prev = key;
		last = &prev;
	}
	free(rows);
	return total;
}

static __u64 net_events(struct bpf_object *obj)
{
	return array_events(obj, "net_events", BENCH_NET_EVENTS) +
	       array_events(obj, "net_timed", BENCH_NET_TIMED) +
	       array_events(obj, "net_paths", BENCH_NET_PATHS) +
	       device_events(obj);
}

/* What the stack program kept: its stacks and the frames of the deepest. */
static unsigned int kstacks_kept, kstack_frames;

/*
 * Events counted under a stack kept: an event whose stack was lost (a
 * negative id, the walk's error) is not, and fails the guest's check.
 */
static __u64 kstack_events(struct bpf_object *obj)
{
	struct bpf_map *counts = bpf_object__find_map_by_name(obj, "kstack_counts");
	struct bpf_map *stacks = bpf_object__find_map_by_name(obj, "kstacks");
	__u64 *n = calloc(cpus, sizeof(*n)), ips[BENCH_STACK_DEPTH], total = 0;
	__s64 id, prev, *last = NULL;
	unsigned int frames;
	__u32 stack_id;
	int cpu;

	while (n && !bpf_map__get_next_key(counts, last, &id, sizeof(id))) {
		prev = id;
		last = &prev;
		if (id < 0 || bpf_map__lookup_elem(counts, &id, sizeof(id), n,
						   cpus * sizeof(*n), 0))
			continue;
		for (cpu = 0; cpu < cpus; cpu++)
			total += n[cpu];
		kstacks_kept++;
		/* The map zeroes the frames past the stack's last. */
		stack_id = id;
		if (bpf_map__lookup_elem(stacks, &stack_id, sizeof(stack_id), ips,
					 sizeof(ips), 0))
			continue;
		for (frames = 0; frames < BENCH_STACK_DEPTH && ips[frames]; frames++)
			;
		if (frames > kstack_frames)
			kstack_frames = frames;
	}
	free(n);
	return total;
}

/*
 * Waits the off-CPU program summed under a stack it kept: a wait whose
 * stack was lost (a negative id) is not counted, and fails the check.
 */
static __u64 offcpu_events(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "offcpu_rows");
	struct bench_row *rows = calloc(cpus, sizeof(*rows));
	struct bench_offcpu_key key, prev, *last = NULL;
	__u64 total = 0;
	int cpu;

	while (rows && !bpf_map__get_next_key(map, last, &key, sizeof(key))) {
		if (key.kstack >= 0 &&
		    !bpf_map__lookup_elem(map, &key, sizeof(key), rows,
					  cpus * sizeof(*rows), 0))
			for (cpu = 0; cpu < cpus; cpu++)
				total += rows[cpu].count;
		prev = key;
		last = &prev;
	}
	free(rows);
	return total;
}

/* Is @name one of the comma-separated @names? */
static int wanted(const char *names, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = names; (p = strstr(p, name)); p += len)
		if ((p == names || p[-1] == ',') && (!p[len] || p[len] == ','))
			return 1;
	return 0;
}

#define MAX_LINKS	16

int main(int argc, char **argv)
{
	struct bpf_link *links[MAX_LINKS];
	struct bpf_program *prog;
	struct bpf_object *obj;
	int rc, nr = 0, i;

	if (argc < 4) {
		fprintf(stderr, "usage: bpf-run OBJ PROGRAM CMD [ARG...]\n");
		return 2;
	}
	cpus = libbpf_num_possible_cpus();
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || cpus <= 0)
		return 1;
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, wanted(argv[2], bpf_program__name(prog)));
	if (bpf_object__load(obj) || hist_init(obj)) {
		fprintf(stderr, "bpf-run: cannot load %s\n", argv[2]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!wanted(argv[2], bpf_program__name(prog)))
			continue;
		if (nr == MAX_LINKS) {
			fprintf(stderr, "bpf-run: more than %d programs\n", MAX_LINKS);
			return 1;
		}
		links[nr] = bpf_program__attach(prog);
		if (!links[nr]) {
			fprintf(stderr, "bpf-run: cannot attach %s\n",
				bpf_program__name(prog));
			return 1;
		}
		nr++;
	}
	if (!nr) {
		fprintf(stderr, "bpf-run: no program %s in %s\n", argv[2], argv[1]);
		return 1;
	}

	rc = run_command(argv + 3);

	for (i = 0; i < nr; i++)
		bpf_link__destroy(links[i]);
	/* Only the loaded program wrote to a map; the others are empty. */
	printf("events %llu\n", (unsigned long long)(count_events(obj) +
		hist_events(obj) + table_events(obj) + keyed_events(obj) +
		pair_events(obj) + net_events(obj) + kstack_events(obj) +
		offcpu_events(obj)));
	if (kstacks_kept)
		printf("stacks %u\nframes %u\n", kstacks_kept, kstack_frames);
	if (wanted(argv[2], "leak_stack_kmalloc"))
		printf("lost %llu\n", (unsigned long long)
		       array_events(obj, "leak_lost", 1));
	bpf_object__close(obj);
	return rc;
}
