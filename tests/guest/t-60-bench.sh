# SPDX-License-Identifier: GPL-2.0
# make bench measures what it claims: its loop fires exactly the events
# asked for, on the CPUs asked for, and every mode of its probe records
# each one; its kmalloc loop makes exactly the pairs asked for, from one
# call site; its packet loop sends exactly the packets asked for, each
# through the same six net tracepoints; a filter in front of the probe
# passes and rejects what it says. Timing is make bench's business, never
# asserted here.

plan 93

B=/sys/kernel/debug/tpstat_bench

bench_fire() { taskset -c "$1" sh -c "echo $2 > $B/fire"; }

# Sets v to the Nth value the loop fires, as fire.c's tpstat_bench_value()
# makes it; no subshell, since 3000 forks cost minutes on the debug kernel.
bench_value() { v=$(((($1 * 0x61C88647) & 0xffffffff) >> 16)); }

load tpstat
check "tpstat_bench_tp.ko loads" load tpstat_bench_tp
load tpstat_count tracepoints=tpstat_bench_fire
for f in fire:200 fire_all:200 kmalloc:200 packets:200 result:400; do
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

# The packet loop, with the generic counter on the net set's ten
# tracepoints as the referee: six see every packet, four none.
NET_TPS='net_dev_queue net_dev_start_xmit net_dev_xmit netif_rx
	netif_receive_skb_entry napi_gro_receive_entry
	netif_receive_skb_list_entry netif_receive_skb kfree_skb consume_skb'
for tp in $NET_TPS; do
	echo "$tp" > $TP/count/control
done
echo 1 > $TP/count/reset
taskset -c 0 sh -c "echo 300 > $B/packets"
for tp in $NET_TPS; do
	case $tp in
	*_entry|consume_skb) want=0 ;;
	*) want=300 ;;
	esac
	is "packets: $tp saw $want" "$(stat_of count $tp.hits)" $want
done
check "packets: result has the loop's CPU, packets and time" grep -q '^cpu0 300 [1-9]' $B/result
is "packets refuses garbage" "$(write_error $B/packets 1x)" EINVAL

# mode=devices: tpstat_net's per-device rows alone, both ways.
check "mode=devices loads" load tpstat_bench mode=devices
is "devices: attached to net_dev_start_xmit" "$(state_of bench net_dev_start_xmit)" attached
is "devices: attached to netif_receive_skb" "$(state_of bench netif_receive_skb)" attached
taskset -c 0 sh -c "echo 300 > $B/packets"
is "devices: every packet sent" "$(stat_of bench devices.tx_packets)" 300
is "devices: every packet received" "$(stat_of bench devices.rx_packets)" 300
rmmod tpstat_bench

# mode=filter: the counter behind a filter over value, cpu and comm.
check "mode=filter loads" load tpstat_bench mode=filter
is "filter: none at first" "$(cat $TP/bench/filter)" none
bench_fire 1 3000
is "filter: none passes every event" "$(stat_of bench tpstat_bench_fire.hits)" 3000
echo 'value < 65536 && cpu < 64 && comm == "sh"' > $TP/bench/filter
is "filter: reads back" "$(cat $TP/bench/filter)" 'value < 65536 && cpu < 64 && comm == "sh"'
echo 1 > $TP/bench/reset
bench_fire 1 3000
is "filter: the bench's 3 terms pass every event" "$(stat_of bench tpstat_bench_fire.hits)" 3000
echo 'value < 65536 && cpu == 0' > $TP/bench/filter
echo 1 > $TP/bench/reset
bench_fire 1 3000
is "filter: cpu == 0 rejects cpu1's events" "$(stat_of bench filter.rejected)" 3000
is "filter: and counts none" "$(stat_of bench tpstat_bench_fire.hits)" 0
rmmod tpstat_bench

is "an unknown mode" "$(load_error tpstat_bench mode=bogus)" EINVAL
is "fire refuses garbage" "$(write_error $B/fire abc)" EINVAL
is "fire refuses more than 10^8" "$(write_error $B/fire 100000001)" EINVAL
is "fire_all refuses garbage" "$(write_error $B/fire_all -1)" EINVAL
unload_all
