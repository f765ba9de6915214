# SPDX-License-Identifier: GPL-2.0
# tpstat stat: a command's events alone, in a private instance of
# tpstat_count. Its errors (tpstat_count not loaded, not root, debugfs
# unmounted, the bound on instances, a command or an asked tracepoint that
# is not there); the default tracepoints; a process tree's forks and execs
# exact while unrelated forks run beside it; events as perf names them
# (sched:sched_process_*), globs against the kernel's own lists (tracefs'
# events, kallsyms' tracepoints), exact for forks and execs, and without
# tracefs; -j's lines; the command's exit status, and a signal's; SIGINT,
# SIGTERM and SIGHUP to tpstat stat passed on, the counts printed and the
# instance gone; a child the command leaves running not waited for, nor
# counted once the command is gone; two runs at once on one tracepoint, each
# exact; -i's intervals and -A's columns, each CPU's count exact; 200 runs
# in a row on the default tracepoints, each exact. No run leaves its
# instance behind, nor anything it held.

plan 59

TOOL=/payload/bin/tpstat
I=$TP/count/instances

# count_of FILE TRACEPOINT: its count in the table a run ended FILE with,
# its digits' grouping left out.
count_of() {
	awk -v tp="$2" '/^ tpstat stat of / { table = 1 }
		table && $NF == tp { gsub(",", "", $1); print $1 }' "$1"
}

# intervals FILE TRACEPOINT: "TIME COUNT" of each of -i's lines.
intervals() {
	awk -v tp="$2" '$1 == "time" { on = 1; next } /^ tpstat stat of / { on = 0 }
		on && $NF == tp { gsub(",", "", $2); print $1, $2 }' "$1"
}

# open_gate FIFO: a line to the command waiting to read FIFO, 10 s at
# most: one that never reads it (its run failed) fails this, not the test.
open_gate() { timeout 10 sh -c "echo go > $1"; }

# await_instance PID: until tpstat stat PID's instance is scoped to its
# command (its scope is no longer every task); 10 s at most.
await_instance() {
	n=0
	until [ -e "$TP/count/stat_$1/scope" ] &&
	      [ "$(cat "$TP/count/stat_$1/scope" 2>/dev/null)" != all ]; do
		n=$((n + 1))
		[ $n -lt 100 ] || return 1
		sleep 0.1
	done
}

load tpstat
load tpstat_test_tp
out=$($TOOL stat -- true 2>&1)
is "tpstat_count not loaded: one line, exit 1" "$? $out" \
	"1 tpstat: tpstat_count is not loaded (no /sys/kernel/debug/tpstat/count/instances): modprobe tpstat_count"
check "tpstat_count loads with max_instances=2" load tpstat_count max_instances=2

cp $TOOL /tmp/tpstat-nobody
chmod 755 /tmp/tpstat-nobody
out=$(/payload/bin/run-as 65534 /tmp/tpstat-nobody stat -- true 2>&1)
is "not root: one line, exit 1" "$? $out" \
	"1 tpstat: /sys/kernel/debug/tpstat: permission denied: tpstat's files are root's only; run tpstat as root"
out=$(unshare -m sh -c "umount -l /sys/kernel/debug && $TOOL stat -- true" 2>&1)
is "debugfs unmounted: one line, exit 1" "$? $out" \
	"1 tpstat: debugfs is not mounted on /sys/kernel/debug: mount -t debugfs none /sys/kernel/debug"

# max_instances=2, both taken.
echo x1 > $I
echo x2 > $I
out=$($TOOL stat -- true 2>&1)
is "no instance left to make: one line saying so, exit 1" "$? $out" \
	"1 tpstat: count/instances: tpstat_count has as many instances as its max_instances allows (count/instances lists them): remove one, or load tpstat_count with a larger max_instances="
echo '!x1' > $I
echo '!x2' > $I

# Without -e: the defaults, each in these x86 kernels; ping execs once,
# and forks nothing. Its table goes to the host's log, for the README.
# Its packets over lo, each way, are lo's own counts: a ping's transmit
# runs in ping's task, and so does the softirq that its bottom half's end
# runs, which receives it, answers and receives the answer.
lo_tx=$(cat /sys/class/net/lo/statistics/tx_packets)
lo_rx=$(cat /sys/class/net/lo/statistics/rx_packets)
$TOOL stat -- ping -c 2 127.0.0.1 > /dev/null 2> /tmp/stat
rc=$?
lo_tx=$(($(cat /sys/class/net/lo/statistics/tx_packets) - lo_tx))
lo_rx=$(($(cat /sys/class/net/lo/statistics/rx_packets) - lo_rx))
cp /tmp/stat /tmp/stat-ping.txt
for_host /tmp/stat-ping.txt
is "without -e: exit 0" $rc 0
is "without -e: the default tracepoints, in their order" \
	"$(awk '/^ tpstat stat of / { t = 1 } t && NF == 3 && $1 ~ /^[0-9,]+$/ { print $3 }' /tmp/stat | tr '\n' ' ')" \
	"sched_switch sched_process_fork sched_process_exec page_fault_user kmalloc net_dev_xmit netif_receive_skb "
is "without -e: ping's one exec, no fork" \
	"$(count_of /tmp/stat sched_process_exec) $(count_of /tmp/stat sched_process_fork)" "1 0"
is "without -e: ping's 4 transmits and 4 receives, as lo counts them" \
	"$(count_of /tmp/stat net_dev_xmit) $(count_of /tmp/stat netif_receive_skb) $lo_tx $lo_rx" \
	"4 4 4 4"
table_shape() {
	grep -q "^ tpstat stat of 'ping -c 2 127.0.0.1':$" /tmp/stat &&
		grep -q '^ *count *per second *tracepoint$' /tmp/stat &&
		grep -q '^ *[0-9]*\.[0-9]\{6\} seconds elapsed$' /tmp/stat
}
check "the table: a title naming the command, a header, the time elapsed" table_shape ||
	sed 's/^/# /' /tmp/stat
is "no instance left" "$(cat $I)" ""

# forker reads its gate byte from stdin, then forks 5 children, each of
# which execs forker again and forks 3 grandchildren. A loop forks beside
# it, and counts its forks in a file's lines.
rm -f /tmp/stop-forks /tmp/beside
: > /tmp/beside
( while [ ! -e /tmp/stop-forks ]; do sh -c :; echo >> /tmp/beside; done ) &
beside=$!
sleep 0.5
before=$(wc -l < /tmp/beside)
echo go | $TOOL stat -e sched_process_fork,sched_process_exec -- /payload/bin/forker 5 3 \
	2> /tmp/stat
rc=$?
after=$(wc -l < /tmp/beside)
touch /tmp/stop-forks
wait $beside
cp /tmp/stat /tmp/stat-forker.txt
for_host /tmp/stat-forker.txt
is "forker 5 3 under tpstat stat: its exit 0" $rc 0
check "unrelated forks ran all the while ($((after - before)) of them)" [ $((after - before)) -gt 0 ]
good=1
is "5 children and 15 grandchildren: 20 forks, none of the loop's" \
	"$(count_of /tmp/stat sched_process_fork)" 20 || good=0
is "6 execs: forker's own, then its 5 children's" \
	"$(count_of /tmp/stat sched_process_exec)" 6 || good=0
[ $good -eq 1 ] || sed 's/^/# /' /tmp/stat
is "no instance left" "$(cat $I)" ""

# Events as perf and bpftrace name them, against the kernel's own lists:
# tracefs' event directories that kallsyms names tracepoints (a
# __tracepoint_ symbol), then the tracepoints kallsyms alone has.
EV=/sys/kernel/tracing/events
awk '$3 ~ /^__tracepoint_/ && $3 !~ /^__tracepoint_ptr_/ { print substr($3, 14) }' \
	/proc/kallsyms | sort -u > /tmp/tp-names
: > /tmp/tp-bare
for d in $EV/*/*/; do
	d=${d%/}
	sub=${d%/*}
	echo "${sub##*/}:${d##*/}"
done | awk -F: 'NR == FNR { tp[$1] = 1; next } $2 in tp { print; seen[$2] = 1 }
	END { for (n in tp) if (!(n in seen)) print n > "/tmp/tp-bare" }' \
	/tmp/tp-names - | sort -t: -k1,1 -k2,2 > /tmp/tp-want
sort /tmp/tp-bare >> /tmp/tp-want
$TOOL list --available > /tmp/tp-got 2> /tmp/tp-err
is "list --available: exit 0, nothing on stderr" "$? $(cat /tmp/tp-err)" "0 "
check "list --available: tracefs' tracepoints by subsystem:name, then kallsyms' others ($(wc -l < /tmp/tp-got) lines)" \
	cmp -s /tmp/tp-got /tmp/tp-want ||
	diff /tmp/tp-want /tmp/tp-got | head -n 20 | sed 's/^/# /'
is "list --available: sched:sched_switch and a module's tpstat_test:tpstat_test_fire there, no syscalls: event" \
	"$(grep -cxE 'sched:sched_switch|tpstat_test:tpstat_test_fire' /tmp/tp-got) $(grep -c '^syscalls:' /tmp/tp-got)" "2 0"
# Without tracefs (none at TPSTAT_TRACEFS: debugfs's tracing would mount
# it again).
TPSTAT_TRACEFS=/none $TOOL list --available > /tmp/tp-bare-got 2> /tmp/tp-err
is "list --available without tracefs: kallsyms' names, said once on stderr" \
	"$? $(sort /tmp/tp-bare-got | cmp -s - /tmp/tp-names && echo same) $(grep -c 'whose subsystems it does not know$' /tmp/tp-err)" \
	"0 same 1"
# The sched_process_ events tracefs has (exec, exit, fork, free, hang, wait
# in these kernels), counted for forker 5 3: 20 forks, 6 execs, and 21
# exits (forker's and its tree's, each before its parent's wait returns).
want=$(ls $EV/sched | grep '^sched_process_' | sort | sed 's/^/sched:/' | tr '\n' ' ')
is "list --available 'sched:sched_process_*': what ls $EV/sched names so" \
	"$($TOOL list --available 'sched:sched_process_*' | tr '\n' ' ')" "$want"
echo go | $TOOL stat -e 'sched:sched_process_*' -- /payload/bin/forker 5 3 2> /tmp/stat
rc=$?
cp /tmp/stat /tmp/stat-glob.txt
for_host /tmp/stat-glob.txt
is "stat -e 'sched:sched_process_*': exit 0, a line for each of them" \
	"$rc $(awk '/^ tpstat stat of / { t = 1 } t && NF == 3 && $1 ~ /^[0-9,]+$/ { print $3 }' /tmp/stat | tr '\n' ' ')" \
	"0 $want"
is "stat -e 'sched:sched_process_*': 20 forks, 6 execs, 21 exits" \
	"$(count_of /tmp/stat sched:sched_process_fork) $(count_of /tmp/stat sched:sched_process_exec) $(count_of /tmp/stat sched:sched_process_exit)" \
	"20 6 21" || sed 's/^/# /' /tmp/stat
echo go | $TOOL stat -j -e 'sched:sched_process_fork,*_process_exec' -- /payload/bin/forker 2 1 \
	2> /tmp/stat
is "stat -j: an object per event, forker 2 1's 4 forks and 3 execs" \
	"$? $(sed -E 's/"rate": [0-9]+\.[0-9]+/"rate": R/' /tmp/stat | tr '\n' ' ')" \
	'0 {"event": "sched:sched_process_fork", "count": 4, "rate": R} {"event": "sched:sched_process_exec", "count": 3, "rate": R} '
out=$($TOOL stat -e 'sched:tpstat_no_such_*' -- true 2>&1)
is "stat -e GLOB that matches nothing: one line, exit 1" "$? $out" \
	"1 tpstat: -e sched:tpstat_no_such_*: no tracepoint of this kernel or its loaded modules matches it (tpstat list --available lists them)"
echo go | TPSTAT_TRACEFS=/none $TOOL stat -e '*:sched_process_fork' -- /payload/bin/forker 5 3 \
	2> /tmp/stat
is "stat -e '*:NAME' without tracefs: kallsyms' name, 20 forks" \
	"$? $(count_of /tmp/stat sched_process_fork)" "0 20" || sed 's/^/# /' /tmp/stat
is "no instance left" "$(cat $I)" ""

# The command's status is tpstat stat's; 128+N for one killed by signal N.
$TOOL stat -e sched_process_exec -- sh -c 'exit 3' 2> /tmp/stat
is "a command that exits 3: tpstat stat exits 3" $? 3
$TOOL stat -e sched_process_exec -- sh -c 'kill -9 $$' 2> /tmp/stat
is "a command killed by SIGKILL: 137, and the table says so" \
	"$? $(grep -c "^ tpstat stat of 'sh -c kill -9 \$\$', killed by signal 9 (Killed):$" /tmp/stat)" \
	"137 1"

# What cannot be started, or counted.
out=$($TOOL stat -- /payload/no-such-command 2>&1)
is "a command that is not there: one line, exit 127 as a shell's" "$? $out" \
	"127 tpstat: /payload/no-such-command: No such file or directory"
is "and no instance left" "$(cat $I)" ""
echo true > /tmp/not-executable
chmod 644 /tmp/not-executable
out=$($TOOL stat -- /tmp/not-executable 2>&1)
is "a command that cannot be run: one line, exit 126 as a shell's" "$? $out" \
	"126 tpstat: /tmp/not-executable: Permission denied"
out=$($TOOL stat -e sched_switch,tpstat_no_such_tp -- true 2>&1)
is "an asked tracepoint this kernel lacks: one line, exit 1" "$? $out" \
	"1 tpstat: no tracepoint tpstat_no_such_tp in this kernel or its loaded modules"
is "and no instance left" "$(cat $I)" ""

# SIGINT, as busybox timeout sends it to the command it becomes (a kill
# from a child of its own), once sleep runs under the instance (its exec
# counted there), however long a loaded guest takes to get there: passed
# on to sleep, which dies of it; its counts printed, the instance removed,
# and tpstat stat dies of SIGINT too (130 in a shell).
interrupt_when_running() {
	n=0
	until pid=$(pidof tpstat) &&
	      [ "$(stat_of "count/stat_$pid" sched_process_exec.hits 2> /dev/null)" = 1 ]; do
		n=$((n + 1))
		[ $n -lt 300 ] || return 1
		sleep 0.1
	done
	cat $I > /tmp/during
	kill -INT "$pid"
}
interrupt_when_running &
reader=$!
$TOOL stat -e sched_process_exec -- sleep 30 2> /tmp/stat
rc=$?
wait $reader
is "SIGINT: tpstat stat dies of it, 130" $rc 130
check "its instance was there while sleep ran ($(cat /tmp/during))" \
	grep -qx 'stat_[0-9]*' /tmp/during
is "passed on to sleep, which died of it; sleep's exec counted" \
	"$(grep -c "^ tpstat stat of 'sleep 30', killed by signal 2 (Interrupt):$" /tmp/stat) $(count_of /tmp/stat sched_process_exec)" \
	"1 1"
is "its instance gone" "$(cat $I)" ""
# stopped_by SIG STATUS NUMBER NAME: SIG sent to a tpstat stat of sleep
# 30 goes on to sleep; tpstat dies of it too (exit STATUS), sleep's end
# said as signal NUMBER (NAME), the instance gone.
stopped_by() {
	$TOOL stat -e sched_process_exec -- sleep 30 2> /tmp/stat &
	pid=$!
	await_instance $pid
	kill -$1 $pid
	wait $pid
	rc=$?
	is "SIG$1: tpstat stat dies of it, $2; sleep died of it too" \
		"$rc $(grep -c "^ tpstat stat of 'sleep 30', killed by signal $3 ($4):$" /tmp/stat)" \
		"$2 1"
	is "its instance gone" "$(cat $I)" ""
}
stopped_by TERM 143 15 Terminated
stopped_by HUP 129 1 Hangup

# A child the command leaves running is not waited for: what it does
# after the command has exited is no run's, here 5 events 3 s later.
$TOOL stat -e tpstat_test_fire -- \
	sh -c "(sleep 3; echo 5 > $FIRE) & echo 3 > $FIRE" 2> /tmp/stat
rc=$?
is "a child left running: tpstat stat ends with the command (exit 0), its instance gone" \
	"$rc $(cat $I)" "0 "
is "and counted the command's 3 alone" "$(count_of /tmp/stat tpstat_test_fire)" 3
sleep 4		# the child's 5, before anything else counts

# Two runs at once on one tracepoint, each its command's count alone;
# the test's own events are neither's.
rm -f /tmp/gate1 /tmp/gate2
mkfifo /tmp/gate1 /tmp/gate2
$TOOL stat -e tpstat_test_fire -- sh -c "read x < /tmp/gate1; echo 7 > $FIRE" 2> /tmp/stat1 &
a=$!
$TOOL stat -e tpstat_test_fire -- sh -c "read x < /tmp/gate2; echo 4 > $FIRE" 2> /tmp/stat2 &
b=$!
await_instance $a
await_instance $b
is "two runs at once: an instance each" "$(sort $I | tr '\n' ' ')" \
	"$(printf 'stat_%s\n' $a $b | sort | tr '\n' ' ')"
fire 3
open_gate /tmp/gate1
open_gate /tmp/gate2
wait $a
ra=$?
wait $b
is "both exit 0" "$ra $?" "0 0"
is "the first: its command's 7" "$(count_of /tmp/stat1 tpstat_test_fire)" 7
is "the second: its command's 4" "$(count_of /tmp/stat2 tpstat_test_fire)" 4
is "no instance left" "$(cat $I)" ""

# -i 1: 10 events at once, 20 more 2.5 s later, then 1.5 s of nothing:
# the 10 and the 20 each in a line of their own (a line may be late on a
# loaded guest, but not by the 1.5 s more between them), and the lines
# add up to the 30. The run lasts 4 s or more (a loaded guest stretches
# the shell's start and its sleeps): a line per second it took, a second
# begun included.
t0=$(uptime_cs)
$TOOL stat -i 1 -e tpstat_test_fire -- \
	sh -c "echo 10 > $FIRE; sleep 2.5; echo 20 > $FIRE; sleep 1.5" 2> /tmp/stat
rc=$?
took=$(($(uptime_cs) - t0))
most=$(((took + 99) / 100))
[ $most -ge 4 ] || most=4
cp /tmp/stat /tmp/stat-interval.txt
for_host /tmp/stat-interval.txt
intervals /tmp/stat tpstat_test_fire > /tmp/intervals
good=1
is "-i 1: exit 0, 30 events in all" "$rc $(count_of /tmp/stat tpstat_test_fire)" "0 30" ||
	good=0
within "-i 1: a line per second the run took" "$(wc -l < /tmp/intervals)" 3 $most ||
	good=0
is "-i 1: the lines' counts add up to the 30" \
	"$(awk '{ n += $2 } END { print n }' /tmp/intervals)" 30 || good=0
is "-i 1: the 10 and the 20 each in a line of its own" \
	"$(awk '$2 > 0 { print $2 }' /tmp/intervals | tr '\n' ' ')" "10 20 " || good=0
[ $good -eq 1 ] || sed 's/^/# /' /tmp/stat

# -A: 5 events on CPU 0, 7 on CPU 1; a column per online CPU.
$TOOL stat -A -e tpstat_test_fire -- \
	sh -c "taskset -c 0 sh -c 'echo 5 > $FIRE'; taskset -c 1 sh -c 'echo 7 > $FIRE'" \
	2> /tmp/stat
rc=$?
cp /tmp/stat /tmp/stat-cpus.txt
for_host /tmp/stat-cpus.txt
good=1
is "-A: exit 0, a column per online CPU" \
	"$rc $(awk '$1 == "count" { $1 = $2 = $3 = $NF = ""; print }' /tmp/stat | xargs)" \
	"0 $(online_columns)" || good=0
is "-A: the total, then each CPU's count" \
	"$(awk '/^ tpstat stat of / { t = 1 } t && $NF == "tpstat_test_fire" { $2 = $NF = ""; print }' /tmp/stat | xargs)" \
	"12 5 7" || good=0
check "-A: the CPUs' columns add up to the total" \
	awk '/^ tpstat stat of / { t = 1 }
	     t && $NF == "tpstat_test_fire" { for (i = 3; i < NF; i++) s += $i; ok = s == $1 }
	     END { exit !ok }' /tmp/stat || good=0
[ $good -eq 1 ] || sed 's/^/# /' /tmp/stat
is "no instance left after all" "$(cat $I)" ""

# 200 runs in a row, without a reload, of 7 tracepoints each: 1400, where
# tpstat_count counts 256 at once. Each run is exact (true's one exec, no
# fork), and all they held is given back.
leftovers() {
	echo "instances: $(cat $I | tr '\n' ' ')"
	echo "files: $(find $TP | wc -l)"
	grep total $TP/memory
	echo "vmalloc: $(grep -c '\[tpstat_count\]' /proc/vmallocinfo)"
}
before=$(leftovers)
i=0
while [ $i -lt 200 ]; do
	$TOOL stat -- true 2> /tmp/stat || break
	[ "$(count_of /tmp/stat sched_process_exec) $(count_of /tmp/stat sched_process_fork)" = "1 0" ] ||
		break
	i=$((i + 1))
done
is "200 runs of tpstat stat -- true: each exit 0, one exec, no fork" $i 200 ||
	sed 's/^/# /' /tmp/stat
is "no instance, file, memory or vmalloc area left of them" "$(leftovers)" "$before"
