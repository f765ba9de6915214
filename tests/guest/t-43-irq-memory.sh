# SPDX-License-Identifier: GPL-2.0
# tpstat_irq's memory, to the byte, from its parameters: loaded alone with
# three sizes of its tables, the memory file must give what the sizes in
# include/tpstat/ and core/ make of max_handlers and max_tasklets.

plan 25

# Possible CPUs: per-CPU data is sized for them (num_possible_cpus()), and
# the keyed data's count per CPU for nr_cpu_ids, the same here: "0-1" -> 2.
possible=$(cat /sys/devices/system/cpu/possible)
ncpus=$((${possible#*-} + 1))
# Softirq vectors: one line each in /proc/softirqs (NR_SOFTIRQS).
vecs=$(grep -c ':' /proc/softirqs)

mem() {
	while read -r k v; do
		[ "$k" = "$1" ] && echo "$v"
	done < $TP/memory
}

# Counters, all per CPU: the seven probes' hits and dropped (14 u64s);
# hardirq.unpaired, softirq.unpaired, tasklet.unpaired (3); raised, runs
# and irq_ns per vector (3 per vector); and the worst latency per vector,
# a struct tpstat_worst_cpu of 48 bytes (seq and its padding 8, value, at,
# tag 24, name 16).
counters=$(((14 + 3 + 3 * vecs) * 8 * ncpus + vecs * 48 * ncpus))
# Histograms: all handlers, and run time and latency per vector. Each is a
# struct tpstat_hist_cpu per CPU (33 buckets, sum, min, max: 288 bytes)
# and one struct tpstat_atomic_hist for large values (65 buckets, sum,
# min, max: 544 bytes), those of one declaration in one kvmalloc().
histograms=$(((1 + 2 * vecs) * 288 * ncpus + $(kv_bytes 544) +
	2 * $(kv_bytes $((544 * vecs)))))
# Scratch state per CPU, each behind the unsigned int of its attach count
# padded to its 8-byte alignment: hardirq frames (depth 4 + 4, four frames
# of an action and a start 64, handler_ns 8), softirq frames (start and
# hardirq_ns per vector), pending raises (one u64 per vector), and the
# tasklet's (pointer and start).
scratch=$(((8 + 80 + 8 + 16 * vecs + 8 + 8 * vecs + 8 + 16) * ncpus))

# keyed CAPACITY COUNTERS: one generation of keyed data with a count per
# CPU (core/keyed.c's layout): struct tpstat_keyed_gen (48 bytes) aligned
# to a 64-byte cache line; per id (CAPACITY + 1, with other) an atomic
# histogram (544), its counters (8 each), a u64 per CPU, and an entry (a
# 32-byte key and a 64-byte label); then the hash index, a u32 per slot,
# twice the capacity rounded up to a power of two.
keyed() {
	slots=1
	while [ $slots -lt $((2 * $1)) ]; do
		slots=$((slots * 2))
	done
	echo $((64 + ($1 + 1) * (544 + 8 * $2 + 8 * ncpus + 96) + 4 * slots))
}

load tpstat
is "memory: nothing before tpstat_irq" "$(mem total)" 0
for p in "256 64" "1000 3" "1 4096"; do
	set -- $p
	if [ "$1" = 256 ]; then
		# The defaults.
		check "tpstat_irq.ko loads with its defaults" load tpstat_irq
	else
		check "tpstat_irq.ko loads with max_handlers=$1 max_tasklets=$2" \
			load tpstat_irq max_handlers=$1 max_tasklets=$2
	fi
	# Handlers count handled calls beside their histogram; tasklets nothing.
	# Each generation is one kvmalloc().
	tables=$(($(kv_bytes $(keyed "$1" 1)) + $(kv_bytes $(keyed "$2" 0))))
	is "memory ($1, $2): counters" "$(mem counters)" $counters
	is "memory ($1, $2): histograms" "$(mem histograms)" $histograms
	is "memory ($1, $2): tables" "$(mem tables)" $tables
	is "memory ($1, $2): scratch" "$(mem scratch)" $scratch
	is "memory ($1, $2): total" "$(mem total)" \
		$((counters + histograms + tables + scratch))
	check "tpstat_irq.ko unloads" rmmod tpstat_irq
	is "memory: nothing left after it" "$(mem total)" 0
done
unload_all
