# SPDX-License-Identifier: GPL-2.0
# Root-only files, no kernel addresses in any output, memory fixed at load
# and what the module parameters imply, to the byte.

plan 13

# Possible CPUs as the kernel counts them: num_possible_cpus() sizes per-CPU
# data, nr_cpu_ids (the highest possible one, plus one) the arrays a table
# or keyed data keeps per CPU. "0-1" gives 2 and 2; "0,2-3" 3 and 4.
ncpus=0
nr_cpu_ids=0
for r in $(tr , ' ' < /sys/devices/system/cpu/possible); do
	ncpus=$((ncpus + ${r#*-} - ${r%-*} + 1))
	nr_cpu_ids=$((${r#*-} + 1))
done

mem() {
	while read -r k v; do
		[ "$k" = "$1" ] && echo "$v"
	done < "$TP/memory"
}

# roundup_pow_of_two(N)
pow2() {
	p=1
	while [ $p -lt "$1" ]; do p=$((p * 2)); done
	echo $p
}

# What each primitive holds, by the sizes in include/tpstat/ and core/.
# One generation: between resets only the live one exists.
# counter.h: N u64 counters per possible CPU.
counter_bytes() { echo $((8 * $1 * ncpus)); }
# hist.h: per histogram, a struct tpstat_hist_cpu per possible CPU (33
# buckets, sum, min, max: 36 u64) and one struct tpstat_atomic_hist for
# the large values (65 buckets, sum, min, max: 68 atomic64_t).
# Each generation's, and the pairing map, are one allocation: its size
# class, or above 8 KiB its whole pages (kv_bytes).
hist_bytes() { echo $(($1 * (36 * 8 * ncpus + $(kv_bytes $((68 * 8)))))); }
# table.h, core/table.c: table_bytes CAPACITY KEY_WORDS. Per CPU,
# roundup_pow_of_two(2 * capacity) slots and one "other" row, each a
# struct tpstat_table_slot (count, sum, max: 3 local64_t) and the key's
# words; then an unsigned int of keys in use per CPU.
table_bytes() {
	kv_bytes $((nr_cpu_ids * (($(pow2 $((2 * $1))) + 1) * (3 * 8 + 8 * $2) + 4)))
}
# keyed.h, core/keyed.c: keyed_bytes CAPACITY COUNTERS PER_CPU. One block:
# struct tpstat_keyed_gen (atomic_t, unsigned int, 5 pointers: 48 bytes)
# aligned to SMP_CACHE_BYTES (64 on x86-64); then per id (capacity + 1,
# "other" included) a struct tpstat_atomic_hist (544 bytes), COUNTERS
# atomic64_t, with PER_CPU a local64_t per CPU id, and a struct
# tpstat_keyed_entry (a struct tpstat_key of 4 u64 and a label of
# TPSTAT_KEYED_LABEL_MAX, 64, bytes); then an index of
# roundup_pow_of_two(2 * capacity) u32.
keyed_bytes() {
	ids=$(($1 + 1))
	kv_bytes $((64 + ids * (68 * 8 + 8 * $2 + 8 * nr_cpu_ids * $3 + 32 + 64) +
		4 * $(pow2 $((2 * $1)))))
}
# pairs.h, core/pairs.c: pairs_bytes CAPACITY. TPSTAT_PAIRS_STATS (6) u64
# counters per possible CPU, and roundup_pow_of_two(2 * capacity) slots of
# struct tpstat_pairs_slot (atomic_t state, unsigned int epoch, u64 key and
# a struct tpstat_pair of 3 u64: 40 bytes), kept across resets.
pairs_bytes() { echo $((6 * 8 * ncpus + $(kv_bytes $((40 * $(pow2 $((2 * $1)))))))); }

# tests/modules/probe.c with TABLE_KEYS and PAIR_KEYS: 3 probes (hits and
# dropped each), 2 histograms (test_hist, test_pair_ns), u64 tables of
# TABLE_KEYS (test_table) and 16 (test_high) keys, a table of 8
# TASK_COMM_LEN (2-word) keys (test_wtable), keyed data of 16 keys with no
# counters and a count per CPU (test_wide), and a pairing map.
test_counters() { counter_bytes 6; }
test_hists() { hist_bytes 2; }
test_tables() {
	echo $(($(table_bytes "$1" 1) + $(table_bytes 16 1) + $(table_bytes 8 2) +
		$(keyed_bytes 16 0 1) + $(pairs_bytes "$2")))
}

# memory_is DESC COUNTERS HISTOGRAMS TABLES SCRATCH: every line of the file.
memory_is() {
	is "$1" "$(mem counters) $(mem histograms) $(mem tables) $(mem scratch) $(mem total)" \
		"$2 $3 $4 $5 $(($2 + $3 + $4 + $5))"
}

load tpstat
memory_is "memory: the core alone holds nothing" 0 0 0 0
load tpstat_test_tp
load tpstat_test_probe
memory_is "memory: the test set, as its defaults imply" \
	"$(test_counters)" "$(test_hists)" "$(test_tables 64 1024)" 0
# tpstat_count keeps nothing but each tracepoint's hits and dropped, and
# its filter's count of rejected events; a filter's program is not
# aggregation data, and is not counted.
load tpstat_count tracepoints=tpstat_test_fire,sched_switch,kmalloc
echo 'cpu == 0 || comm == "tpstat test"' > $TP/count/filter
memory_is "memory: the count set adds two counters per tracepoint, one for its filter" \
	$(($(test_counters) + $(counter_bytes 7))) "$(test_hists)" \
	"$(test_tables 64 1024)" 0
echo kfree > $TP/count/control
memory_is "memory: a tracepoint added through control adds two more" \
	$(($(test_counters) + $(counter_bytes 9))) "$(test_hists)" \
	"$(test_tables 64 1024)" 0
echo '!kfree' > $TP/count/control
is "memory: and removing it gives them back" "$(mem counters)" \
	$(($(test_counters) + $(counter_bytes 7)))
rmmod tpstat_test_probe
load tpstat_test_probe table_keys=1000 pair_keys=3000
memory_is "memory: table_keys=1000 pair_keys=3000, exactly" \
	$(($(test_counters) + $(counter_bytes 7))) "$(test_hists)" \
	"$(test_tables 1000 3000)" 0
# A reset holds two generations only while it runs.
echo 1 > $TP/test/reset
is "memory: unchanged by a reset" "$(mem tables)" "$(test_tables 1000 3000)"
rmmod tpstat_test_probe
memory_is "memory: the test set gave back all it held" \
	"$(counter_bytes 7)" 0 0 0
rmmod tpstat_count
memory_is "memory: nothing left once the sets are gone" 0 0 0 0

load tpstat_test_probe
load_everything
fire 100

wide=$(find $TP -type f | while read -r f; do
	case $(stat -c %a "$f") in 400|600|200) ;; *) echo "$f" ;; esac
done)
is "every file is root-only (0400, 0600 or 0200)" "$wide" ""

# Every module of the payload is loaded, each set has counted something:
# no number any of them prints may lie where the kernel's code or data is.
files=$(tpstat_files)
within "files read for addresses" "$(echo "$files" | wc -l)" 20 100000
# The image, one range per loaded module, and at least one kcore segment.
within "the kernel's address ranges are known, every module's among them" \
	"$(kernel_ranges | wc -l)" $(($(grep -c . /proc/modules) + 2)) 100000
# shellcheck disable=SC2086
leaks=$(address_leaks $files)
if [ -z "$leaks" ]; then
	pass "no file prints a kernel address, in any base, nor a hashed one"
else
	fail "no file prints a kernel address, in any base, nor a hashed one"
	echo "$leaks" | sed 's/^/# /'
fi
unload_all
