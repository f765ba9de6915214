# SPDX-License-Identifier: GPL-2.0
# Background tasks shared by the stress test (t-80) and the soak: a
# workload (forks, loopback traffic, allocations, the test modules'
# events) and control churn (readers of every file; writers that reset,
# toggle enable, add and remove counted tracepoints, stack entries and
# counting instances, and swap filters and scopes). Each is a function
# that loops until $STOP exists, counting its rounds in $rounds; the
# caller runs each in the background with $task set to its name.
#
# A task started with held=1 stops at the top of its round while $HOLD
# exists, and says so by creating $HOLD.$task: the soak holds the control
# tasks so that its checks see every set as the tasks found it (no
# instance, entry, filter or extra tracepoint, every set enabled), while
# the workload goes on.

STOP=/tmp/churn-stop
HOLD=/tmp/churn-hold
rm -f $STOP $HOLD $HOLD.*

# Each task pauses a little per round so that, on two emulated CPUs, the
# loader still gets its turn: every task keeps running throughout.
running() {
	rounds=$((rounds + 1))
	usleep 5000
	while [ "${held:-0}" = 1 ] && [ -e $HOLD ] && [ ! -e $STOP ]; do
		: > $HOLD.$task
		usleep 100000
	done
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
# Also, every tenth round, the events of whichever test module or sample
# is loaded at the moment (each round of them costs the debug kernel as
# much as a module load); opening /proc/tpstat-sample fires the sample's
# tracepoints, then fails.
D=/sys/kernel/debug
firer() {
	while running; do
		echo 50 > $FIRE 2>/dev/null
		[ $((rounds % 10)) -eq 0 ] || continue
		echo 5 > $D/tpstat_test_irq/fire 2>/dev/null
		echo 2 > $D/tpstat_test_irq/tasklet_hi 2>/dev/null
		echo 2 > $D/tpstat_test_tasklet/run 2>/dev/null
		echo 5 > $D/tpstat_sample_events/fire 2>/dev/null
		echo 50 > $D/tpstat_bench/fire 2>/dev/null
		read -r x < /proc/tpstat-sample 2>/dev/null
	done
}
readers() {
	while running; do
		for f in $(find $TP -type f -perm -0400 2>/dev/null); do
			cat "$f" >/dev/null 2>&1
		done
	done
}
# The filters the writers swap in, a round each: between them every field
# of each set, every operator, a glob, a quoted name and negation. A
# filter refused is a fault of the writers' own, said in $CHURN_BAD.
CHURN_BAD=/tmp/churn-bad
: > $CHURN_BAD
count_filter() {
	case $((rounds % 4)) in
	0) echo 'cpu == 0 || comm == sh' ;;
	1) echo 'pid != 1 && tgid > 1 && pid <= 0xffffffff' ;;
	2) echo '!(comm == kworker*) && cpu < 64 && cpu >= 0' ;;
	3) echo "tgid == $$ || pid == $$ || comm == \"tpsring\"" ;;
	esac
}
net_filter() {
	case $((rounds % 4)) in
	0) echo 'len > 100 && dev == lo' ;;
	1) echo 'ifindex == 1 || (netns != 0 && dev == soak*)' ;;
	2) echo 'protocol == 0x0800 && cpu <= 1 && len >= 28' ;;
	3) echo '!(dev == "veth0") && len < 1500 && protocol != 0x86dd' ;;
	esac
}
set_filter() {
	echo "$2" > "$1" 2>/dev/null ||
		echo "${1#$TP/}: '$2' refused" >> $CHURN_BAD
}

writers() {
	while running; do
		# Programs swapped under probes that run them, in force for the
		# round and lifted at its end.
		set_filter $TP/count/filter "$(count_filter)"
		set_filter $TP/net/filter "$(net_filter)"
		for s in $TP/*/reset; do
			s=${s%/reset}
			echo 1 > $s/reset 2>/dev/null
			echo 0 > $s/enable 2>/dev/null
			echo 1 > $s/enable 2>/dev/null
		done
		echo sched_switch > $TP/count/control 2>/dev/null
		echo kmalloc > $TP/count/control 2>/dev/null
		echo '!sched_switch' > $TP/count/control 2>/dev/null
		echo '!kmalloc' > $TP/count/control 2>/dev/null
		# Entries of their own, made and removed while they count.
		echo 'kmalloc by stack,comm' > $TP/stack/control 2>/dev/null
		echo 'sched_switch by cpu' > $TP/stack/control 2>/dev/null
		echo '!kmalloc' > $TP/stack/control 2>/dev/null
		echo '!sched_switch' > $TP/stack/control 2>/dev/null
		# Instances of the count set, scoped to this shell's tree.
		echo stress > $TP/count/instances 2>/dev/null
		echo sched_process_fork > $TP/count/stress/control 2>/dev/null
		echo kmalloc > $TP/count/stress/control 2>/dev/null
		echo $$ > $TP/count/stress/scope 2>/dev/null
		set_filter $TP/count/stress/filter "$(count_filter)"
		cat $TP/count/stress/counts > /dev/null 2>&1
		echo '!stress' > $TP/count/instances 2>/dev/null
		echo 0 > $TP/count/filter 2>/dev/null
		echo 0 > $TP/net/filter 2>/dev/null
	done
}

# A module whose file a task is writing is busy (EAGAIN, or EBUSY while
# the file is open) for that moment. The loader's loops stay in the shell:
# a fork and exec cost 150 ms on the debug kernel.
unload() {
	try=0
	while [ $try -lt 1000 ]; do
		rmmod "$1" 2>/dev/null && return 0
		try=$((try + 1))
		usleep 1000
	done
	rmmod "$1"
}
