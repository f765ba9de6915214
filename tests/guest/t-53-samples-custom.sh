# SPDX-License-Identifier: GPL-2.0
# samples/custom-event: a trimmed sched_switch event of our own, beside the
# kernel's. Both are probes on the same tracepoint, so on one CPU they must
# record the same switches in the same order.

plan 10

TR=/sys/kernel/tracing
CE=$TR/events/custom/sched_switch
KE=$TR/events/sched/sched_switch

# "prev next" per switch on CPU 0, from the custom or the kernel's records.
custom_switches() {
	sed -n 's/.* sched_switch: prev_pid=\([0-9]*\) next_pid=\([0-9]*\) preempt=[01]$/\1 \2/p' \
		$TR/per_cpu/cpu0/trace
}
kernel_switches() {
	sed -n 's/.* sched_switch: prev_comm=.* prev_pid=\([0-9]*\) prev_prio=.* next_pid=\([0-9]*\) next_prio=[0-9]*$/\1 \2/p' \
		$TR/per_cpu/cpu0/trace
}

# Without recording task names: see t-51.
echo 0 > $TR/options/record-cmd
check "tpstat_sample_custom loads" load tpstat_sample_custom
check "its event is under events/custom" test -f $CE/format -a -f $CE/filter \
	-a -f $CE/enable -a -f $CE/trigger
for f in 'pid_t prev_pid;' 'pid_t next_pid;' 'bool preempt;'; do
	check "format has field:$f" grep -q "field:$f" $CE/format
done
is "and no other" "$(grep -c '^	field:[^;]*;' $CE/format)" 7

# tracing_on is switched by a shell pinned to CPU 0, which cannot run while
# CPU 0 is inside the scheduler: no switch there is half recorded.
echo 0 > $TR/tracing_on
echo > $TR/trace
echo 1 > $CE/enable
echo 1 > $KE/enable
taskset -c 0 sh -c "echo 1 > $TR/tracing_on
	i=0
	while [ \$i -lt 20 ]; do sh -c :; i=\$((i + 1)); done
	echo 0 > $TR/tracing_on"
echo 0 > $KE/enable
custom=$(custom_switches)
within "20 fork and exits make at least 40 switches on CPU 0" \
	"$(echo "$custom" | wc -l)" 40 1000000
is "the custom event recorded the kernel's switches, in order" \
	"$custom" "$(kernel_switches)"

check "the module unloads with its event enabled" rmmod tpstat_sample_custom
check "the event is gone" test ! -e $CE
echo 1 > $TR/tracing_on
echo > $TR/trace
echo 1 > $TR/options/record-cmd
unload_all
