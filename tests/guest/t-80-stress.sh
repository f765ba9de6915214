# SPDX-License-Identifier: GPL-2.0
# Load/unload stress: the probe sets and the test modules come and go
# hundreds of times while a
# workload runs (forks, loopback traffic, allocations, softirqs) and other
# tasks read every file, reset, toggle enable and add or remove counted
# tracepoints, all at once. The log must stay clean and the guest responsive.

STOP=/tmp/stress-stop
rm -f $STOP
# Each task pauses a little per round so that, on two emulated CPUs, the
# loader still gets its turn: every task keeps running throughout.
running() {
	rounds=$((rounds + 1))
	usleep 5000
	[ ! -e $STOP ]
}

workload() {
	while running; do
		sh -c :
		dd if=/dev/zero bs=65536 count=16 2>/dev/null | cat >/dev/null
	done
}
traffic() {
	while running; do
		ping -c 5 -i 0.01 127.0.0.1 >/dev/null 2>&1
	done
}
firer() {
	while running; do
		echo 50 > $FIRE 2>/dev/null
	done
}
readers() {
	while running; do
		for f in $(find $TP -type f -perm -0400 2>/dev/null); do
			cat "$f" >/dev/null 2>&1
		done
	done
}
writers() {
	while running; do
		for s in test count irq sched; do
			echo 1 > $TP/$s/reset 2>/dev/null
			echo 0 > $TP/$s/enable 2>/dev/null
			echo 1 > $TP/$s/enable 2>/dev/null
		done
		echo sched_switch > $TP/count/control 2>/dev/null
		echo kmalloc > $TP/count/control 2>/dev/null
		echo '!sched_switch' > $TP/count/control 2>/dev/null
		echo '!kmalloc' > $TP/count/control 2>/dev/null
	done
}

# Files vanish under the readers and writers: their errors are expected.
# At nice 10 they share one emulated CPU while the loader has most of the
# other: without it the loader crawled at a sixth of the guest.
TASKS="workload traffic firer readers writers"
pids= started=0
for task in $TASKS; do
	{ rounds=0; $task; echo $rounds > /tmp/stress-$task; } 2>/dev/null &
	renice -n 10 -p $! >/dev/null
	pids="$pids $!"
	started=$((started + 1))
done

# A module whose file a task is writing is busy (EAGAIN) for that moment.
# The loader's loops stay in the shell: a fork and exec cost 150 ms
# on the debug kernel.
unload() {
	try=0
	while [ $try -lt 1000 ]; do
		rmmod "$1" 2>/dev/null && return 0
		try=$((try + 1))
	done
	rmmod "$1"
}

cycles=${STRESS_CYCLES:-200}
done_cycles=0
while [ $done_cycles -lt "$cycles" ]; do
	[ -d /sys/module/tpstat ] || load tpstat || break
	load tpstat_test_tp
	load tpstat_count tracepoints=tpstat_test_fire,softirq_entry,sched_process_fork ||
		break
	load tpstat_test_probe || break
	# The sets on the kernel's own tracepoints take turns: each load
	# patches several tracepoints, slow under emulation.
	case $((done_cycles % 2)) in
	0) kernel_set=tpstat_irq ;;
	*) kernel_set=tpstat_sched ;;
	esac
	load $kernel_set || break
	# Vary who goes first: the tracepoint's module under attached probes,
	# or the sets; every tenth cycle the core goes too.
	case $((done_cycles % 3)) in
	0) order="tpstat_test_tp tpstat_count tpstat_test_probe $kernel_set" ;;
	1) order="$kernel_set tpstat_test_probe tpstat_test_tp tpstat_count" ;;
	*) order="tpstat_count $kernel_set tpstat_test_probe tpstat_test_tp" ;;
	esac
	for m in $order; do
		unload $m || break 2
	done
	[ $((done_cycles % 10)) -eq 9 ] && { unload tpstat || break; }
	done_cycles=$((done_cycles + 1))
	[ $((done_cycles % 25)) -eq 0 ] && echo "# $T: $done_cycles cycles"
done
alive=0
for pid in $pids; do
	kill -0 "$pid" 2>/dev/null && alive=$((alive + 1))
done
touch $STOP
wait
is "every background task still ran when the last cycle ended" $alive $started
is "load/unload cycles under load" $done_cycles "$cycles"
for task in $TASKS; do
	within "$task kept running alongside" "$(cat /tmp/stress-$task)" 10 999999999
done

load tpstat
load tpstat_test_tp
load tpstat_test_probe
fire 10
is "counts are exact after the storm" "$(stat_of test tpstat_test_fire.hits)" 10
unload_all
