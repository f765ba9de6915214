# SPDX-License-Identifier: GPL-2.0
# make bench measures what it claims: its loop fires exactly the events
# asked for, on the CPUs asked for, and every mode of its probe records
# each one; its kmalloc loop makes exactly the pairs asked for, from one
# call site. Timing is make bench's business, never asserted here.

plan 68

B=/sys/kernel/debug/tpstat_bench

bench_fire() { taskset -c "$1" sh -c "echo $2 > $B/fire"; }

# Sets v to the Nth value the loop fires, as fire.c's tpstat_bench_value()
# makes it; no subshell, since 3000 forks cost minutes on the debug kernel.
bench_value() { v=$(((($1 * 0x61C88647) & 0xffffffff) >> 16)); }

load tpstat
check "tpstat_bench_tp.ko loads" load tpstat_bench_tp
load tpstat_count tracepoints=tpstat_bench_fire
for f in fire:200 fire_all:200 kmalloc:200 result:400; do
	is "mode of $f" "$(stat -c %a $B/${f%:*})" "${f#*:}"
done

bench_fire 0 5000
is "the loop fires N events" "$(stat_of count tpstat_bench_fire.hits)" 5000
is "all on the writer's CPU" "$(stat_of count tpstat_bench_fire.cpu0)" 5000
check "result has the loop's CPU, events and time" grep -q '^cpu0 5000 [1-9]' $B/result

echo 1 > $TP/count/reset
echo 700 > $B/fire_all
is "fire_all fires N on each CPU" "$(stat_of count tpstat_bench_fire.hits)" 1400
is "cpu0's share" "$(stat_of count tpstat_bench_fire.cpu0)" 700
is "cpu1's share" "$(stat_of count tpstat_bench_fire.cpu1)" 700
check "result has cpu1's loop" grep -q '^cpu1 700 [1-9]' $B/result

# Every mode, with the generic counter alongside as the referee.
for pair in empty:none counter:tpstat_bench_fire.hits hist:hist.count \
	    table:table.count atomic:atomic keyed:keyed.count wide:wide.count \
	    pairs:pairs.events; do
	mode=${pair%:*}
	# Pairs need each odd value right after its even one.
	[ "$mode" = pairs ] && echo Y > $B/sequential
	check "mode=$mode loads" load tpstat_bench mode=$mode
	is "$mode: attached" "$(state_of bench tpstat_bench_fire)" attached
	echo 1 > $TP/count/reset
	bench_fire 1 3000
	is "$mode: the generic counter saw N" "$(stat_of count tpstat_bench_fire.hits)" 3000
	if [ "$mode" = empty ]; then
		is "empty: records nothing" "$(stat_of bench tpstat_bench_fire.hits)" 0
	else
		is "$mode: records every event" "$(stat_of bench ${pair#*:})" 3000
	fi
	is "$mode: drops none" "$(stat_of bench tpstat_bench_fire.dropped)" 0
	if [ "$mode" = hist ]; then
		sum=0 max=0 i=0
		while [ $i -lt 3000 ]; do
			bench_value $i
			sum=$((sum + v))
			[ "$v" -gt "$max" ] && max=$v
			i=$((i + 1))
		done
		is "hist: sum of the values fired" "$(stat_of bench hist.sum)" $sum
		is "hist: largest value fired" "$(stat_of bench hist.max)" $max
	fi
	[ "$mode" = table ] &&
		is "table: every key of value % 64 seen" "$(stat_of bench table.keys)" 64
	[ "$mode" = wide ] &&
		is "wide: every key of value % 64 seen" "$(stat_of bench wide.keys)" 64
	if [ "$mode" = pairs ]; then
		is "pairs: every end found its start" "$(stat_of bench pairs.paired)" 1500
		is "pairs: nothing left held" "$(stat_of bench pairs.held)" 0
		echo N > $B/sequential
	fi
	rmmod tpstat_bench
done

# The kmalloc loop, with tpstat_kmem as the referee: its call site's
# hits, bytes and frees (summed over the site's rows, should there be
# more than one stats word for it).
bench_site() {
	awk -v k=".$1" '
		index($1, "site.tpstat_bench_kmalloc_write+") == 1 &&
		substr($1, length($1) - length(k) + 1) == k { s += $2; n++ }
		END { print n ? s : "none" }' $TP/kmem/stats
}
check "tpstat_kmem.ko loads" load tpstat_kmem
taskset -c 0 sh -c "echo 4000 > $B/kmalloc"
is "kmalloc: N allocations from its one site" "$(bench_site hits)" 4000
is "kmalloc: of 64 bytes each" "$(bench_site bytes_req)" 256000
is "kmalloc: each freed" "$(bench_site frees)" 4000
check "kmalloc: result has the loop's CPU, pairs and time" grep -q '^cpu0 4000 [1-9]' $B/result
is "kmalloc refuses garbage" "$(write_error $B/kmalloc x)" EINVAL
rmmod tpstat_kmem

is "an unknown mode" "$(load_error tpstat_bench mode=bogus)" EINVAL
is "fire refuses garbage" "$(write_error $B/fire abc)" EINVAL
is "fire refuses more than 10^8" "$(write_error $B/fire 100000001)" EINVAL
is "fire_all refuses garbage" "$(write_error $B/fire_all -1)" EINVAL
unload_all
