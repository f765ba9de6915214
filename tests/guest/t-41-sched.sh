# SPDX-License-Identifier: GPL-2.0
# The sched set against the kernel's own counts: /proc/stat's ctxt and
# processes, and each task's voluntary and involuntary switches from
# /proc/PID/status; exact counts of forks, execs and exits driven on purpose.

SL=/payload/bin/sched-load
s() { stat_of sched "$1"; }
# One line of /proc/stat, read without forking.
proc_stat() {
	while read -r k v rest; do
		[ "$k" = "$1" ] && echo "$v" && return
	done < /proc/stat
}
ncpus=$(grep -c ^processor /proc/cpuinfo)

load tpstat
check "tpstat_sched.ko loads" load tpstat_sched
for tp in sched_switch sched_wakeup sched_wakeup_new sched_process_fork \
	  sched_process_exec sched_process_exit sched_migrate_task; do
	is "$tp attached" "$(state_of sched $tp)" attached
done

# Switches and forks against /proc/stat, over a window of 100 forks and
# their switches. Each of the set's reads is bracketed by two reads of the
# kernel's count: whatever the set counted between its two reads happened
# between the inner kernel reads at least and the outer ones at most, but
# for an event on each CPU caught between the kernel's count and the
# probe's (both sums are read CPU by CPU): ncpus at each edge.
c0=$(proc_stat ctxt); f0=$(proc_stat processes)
s0=$(s switches.all); g0=$(s forks)
c0b=$(proc_stat ctxt); f0b=$(proc_stat processes)
$SL fork 100
c1a=$(proc_stat ctxt); f1a=$(proc_stat processes)
s1=$(s switches.all); g1=$(s forks)
c1=$(proc_stat ctxt); f1=$(proc_stat processes)
within "switches match /proc/stat ctxt" $((s1 - s0)) \
	$((c1a - c0b - 2 * ncpus)) $((c1 - c0 + 2 * ncpus))
within "forks match /proc/stat processes" $((g1 - g0)) \
	$((f1a - f0b - 2 * ncpus)) $((f1 - f0 + 2 * ncpus))

# Exactly N forks by tpsfork, N execs and exits of tpsexecd.
ln -sf $SL /tmp/tpsexecd
$SL fork 40 /tmp/tpsexecd
is "forks by tpsfork" "$(s forks.tpsfork)" 140
is "execs as tpsexecd" "$(s execs.tpsexecd)" 40
is "exits of tpsexecd" "$(s exits.tpsexecd)" 40
check "lifecycle shows tpsfork" grep -q '^tpsfork  *140$' $TP/sched/lifecycle

# Ping-pong across CPUs: every switch out of a task after it named itself
# is counted under its name; each voluntary one was a block that a wakeup
# ended (off-CPU time) and each one a stay on the run queue that a switch
# in ended (run-queue latency), most of them started on one CPU and ended
# on the other. The kernel counted up to the status read; the exit adds one
# block and the final switch, the rename may come after a first switch.
$SL pingpong 500 | grep -v '^elapsed ' > /tmp/pp
while read -r comm nv niv; do
	within "$comm: voluntary switches as /proc counts them" \
		"$(s slices.$comm.voluntary)" $((nv - 1)) $((nv + 2))
	within "$comm: involuntary switches" "$(s slices.$comm.involuntary)" \
		0 $((niv + 1))
	within "$comm: a run-queue latency per switch" "$(s runs.$comm)" \
		$((nv + niv - 2)) $((nv + niv + 2))
	within "$comm: an off-CPU time per block" "$(s wakeups.$comm)" \
		$((nv - 2)) $((nv + 1))
	within "$comm: round trips made it block" "$nv" 250 1000
	case $comm in
	tpsping) cpu=0 ;;
	*) cpu=1 ;;
	esac
	within "$comm: its CPU's run-queue latencies hold its own" \
		"$(s runqlat.cpu$cpu.count)" $((nv + niv - 2)) "$(s runqlat.count)"
done < /tmp/pp
is "both sides reported" "$(wc -l < /tmp/pp)" 2

# Two CPU hogs on one CPU: each waits on the run queue while the other
# runs, for at least the scheduler's minimum slice.
# Without CONFIG_SCHED_DEBUG (the debug kernel) neither file exists: the
# kernel's default is 0.75 ms times 1 + log2(CPUs), so 0.75 ms at least.
slice=$(cat /sys/kernel/debug/sched/base_slice_ns 2>/dev/null ||
	cat /sys/kernel/debug/sched/min_granularity_ns 2>/dev/null ||
	echo 750000)
taskset -c 1 $SL spin 2 &
taskset -c 1 $SL spin 2
wait
check "the hogs were preempted" [ "$(s slices.tpshog.involuntary)" -gt 0 ]
within "the hogs waited at least a slice ($slice ns)" "$(s runs.tpshog.max)" \
	"$slice" 100000000000

# A storm of short processes leaves nothing behind in the pairing maps: a
# start is held only for a task that is alive.
$SL fork 2000
threads=$(ls -d /proc/[0-9]*/task/[0-9]* | wc -l)
queued=$(s queued.held)
blocked=$(s blocked.held)
within "runnable starts held belong to live tasks" "$queued" 0 $((threads + ncpus))
within "blocked starts held belong to live tasks" "$blocked" 0 $((threads + ncpus))
within "and together too" $((queued + blocked)) 0 $((threads + 2 * ncpus))
is "no start dropped" "$(s queued.dropped) $(s blocked.dropped)" "0 0"

for f in switches runqlat runqlat_cpus cpudist offcpu lifecycle migrations stats; do
	check "$f reads" sh -c "cat $TP/sched/$f > /dev/null"
done
