# SPDX-License-Identifier: GPL-2.0
# tpstat_count at its largest: max_tracepoints=4096 loads, takes 4096 names
# through control (well-formed names nothing provides, which wait), and
# refuses the 4097th with ENOSPC and one log line. A real tracepoint still
# counts exactly among them once a slot is freed. The debug kernel, which
# takes three minutes for 4096 names, fills 1024 of them.

plan 12

# Possible CPUs, as the kernel sizes per-CPU data: "0-1" -> 2.
possible=$(cat /sys/devices/system/cpu/possible)
ncpus=$((${possible#*-} + 1))
mem() {
	while read -r k v; do
		[ "$k" = "$1" ] && echo "$v"
	done < $TP/memory
}

load tpstat
load tpstat_test_tp
MAX=4096
debug_kernel && MAX=1024
check "loads with max_tracepoints=$MAX" load tpstat_count max_tracepoints=$MAX
counters=$(mem counters)
i=0 refused=0
while [ $i -lt $MAX ]; do
	echo "tpstat_wait_$i" > $TP/count/control || refused=$((refused + 1))
	i=$((i + 1))
done
is "$MAX names accepted" $refused 0
is "control lists all $MAX" "$(grep -c '^tpstat_wait_[0-9]*$' $TP/count/control)" $MAX
is "each waits for its tracepoint" \
	"$(grep -c '^count  *tpstat_wait_[0-9]*  *waiting ' $TP/probes)" $MAX
# Each probe has two counters, hits and dropped: a u64 per possible CPU.
is "memory: two u64 counters per CPU for each" $(($(mem counters) - counters)) \
	$((MAX * 2 * 8 * ncpus))

lines=$(kmsg_lines)
is "the one more is refused" \
	"$(printf tpstat_wait_$MAX | /payload/bin/write-once $TP/count/control)" ENOSPC
kmsg_noise 1
log=$(kmsg_ours_since "$lines")
is "with one log line saying why (lines, lines saying it)" \
	"$(echo "$log" | wc -l) $(echo "$log" | grep -c "tpstat_count: already counting max_tracepoints=$MAX tracepoints\$")" \
	"1 1"
is "a tracepoint that exists is refused as well" \
	"$(printf tpstat_test_fire | /payload/bin/write-once $TP/count/control)" ENOSPC
is "nothing was added" "$(grep -c . $TP/count/control)" $MAX

echo '!tpstat_wait_0' > $TP/count/control
is "removing one frees a slot" \
	"$(printf tpstat_test_fire | /payload/bin/write-once $TP/count/control)" accepted
is "which attaches" "$(state_of count tpstat_test_fire)" attached
fire 300
is "and counts exactly among the $((MAX - 1)) others" "$(stat_of count tpstat_test_fire.hits)" 300
unload_all
