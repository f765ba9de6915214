# SPDX-License-Identifier: GPL-2.0
# The soak (make soak; a minute of it in make check): every module of the
# payload loaded at once for SOAK_MIN minutes, under a mixed workload and
# control churn, with the invariants checked every SOAK_CHECK seconds and
# at the end. Not a t-* file: the suite does not run it, scripts/check
# boots it alone.
#
# The workload: churn.sh's (forks, loopback pings, allocations, every test
# module's events), and fork and exec storms (forker), threads that exec
# (thread-exec), UDP datagrams read back (udp-echo) and TCP fetches over
# lo, pings and TCP over a veth pair into another network namespace,
# namespaces made and deleted, io_uring rings, page cache filled and
# dropped, kfree_rcu() of hundreds of objects a round (tpstat_test_kmem's
# rcu: freed in batches no free event sees). The control churn: churn.sh's
# readers and writers (resets, enable toggles, tracepoints, stack entries,
# instances, filters on every field and scopes), resets of every set every 300 ms, tpstat stat -- true in a loop
# (each run exact: one exec, no fork), and the tracepoints' test modules
# unloaded and loaded again.
#
# At each check every task is held at the top of its round, so that the
# sets are as the control tasks found them: the kernel log has no report,
# the memory file is as it was after loading, no instance is left, held
# task words are within the live tasks and pairing starts within their
# map, the sets the workload reaches counted, and over a window of forks
# made for it the count set's forks lie within /proc/stat's processes and
# the sched set's switches within its ctxt. Then, still held, cases each
# with its truth known, where the review found defects that only a
# driven case shows: a scope rewritten under a forking loop holds the
# loop's tasks, no more; a net filter leaves the packets it rejects
# untimed; two namespaces made one after the other get a row each; objects
# of discarded init code freed after a reset name no call site. And
# tpstat stat's loop alternates true with a thread that execs (its
# process keeps its pid as another task, and its scope). At the end:
# counts exact again, and after every module is unloaded Slab, Percpu and
# VmallocUsed back near where they started (run-tests then checks
# kmemleak). The summary is TAP: a soak cut short misses its lines.

plan 23

. ./churn.sh

MIN=${SOAK_MIN:-60}
EVERY=${SOAK_CHECK:-15}
BIN=/payload/bin
TOOL=$BIN/tpstat
BAD_WORK=/tmp/soak-work-bad

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# Gives back what can be given: caches dropped, then time for RCU
# callbacks and the network namespaces' cleanup work. (Shrinking every
# slab cache too, which empties KASAN's quarantine, made kmemleak miss the
# leak run-tests plants after the soak, in 2 runs of 2.)
settle() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 5
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
}
# The slab caches' sizes in kB, by name, to say which grew.
slabs() { awk 'NR > 2 { printf "%s %d\n", $1, $3 * $4 / 1024 }' /proc/slabinfo 2>/dev/null; }
settle
slabs > /tmp/soak-slabs0
slab0=$(meminfo Slab) percpu0=$(meminfo Percpu) vmalloc0=$(meminfo VmallocUsed)
sunreclaim0=$(meminfo SUnreclaim)

load tpstat
load_everything
echo tpstat_test_fire > $TP/count/control
echo softirq_entry > $TP/count/control
echo sched_process_fork > $TP/count/control

# The state the control tasks leave each set in at the top of a round.
set_state() {
	cat $TP/memory > /tmp/soak-memory
	for f in $TP/*/enable $TP/*/filter $TP/*/control $TP/count/instances; do
		echo "$f: $(cat "$f" | tr '\n' ' ')"
	done
}
# The instance whose scope the scoper writes anew under the scoped loop.
echo scoped > $TP/count/instances
echo sched_process_fork > $TP/count/scoped/control
mem0=$(cat $TP/memory)
state0=$(set_state)

# The count set's forks, from its counts file.
forks_counted() { awk '$1 == "sched_process_fork" { print $3 }' $TP/count/counts; }
forks_made() { awk '$1 == "processes" { print $2 }' /proc/stat; }
# Switches: the sched set's, and the kernel's (ctxt: every switch to
# another task, where the tracepoint fires).
switches_counted() { awk '$1 == "switches.all" { print $2 }' $TP/sched/stats; }
switches_made() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

# The live tasks, threads included.
live_tasks() { ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l; }

# Task words a table holds beyond the live tasks: those of tasks exited
# but not yet freed (a grace period after they are reaped), a few per
# fork storm held at the check.
TASK_SLACK=64

# A veth pair, one end in a namespace of its own held by a sleeping task,
# with an HTTP server there: the root side pings it and fetches over TCP.
VETH_NS=
veth_up() {
	veth_ns soak0 10.99.0.1 10.99.0.2 &&
		nsenter -t $VETH_NS -n httpd -p 10.99.0.2:8080 -h /tmp/www &&
		ping -c 1 -W 5 10.99.0.2 > /dev/null
}
mkdir -p /tmp/www
dd if=/dev/urandom of=/tmp/www/blob bs=65536 count=4 2>/dev/null
httpd -p 127.0.0.1:8080 -h /tmp/www
veth_up 2> /tmp/veth-err
veth=$?

# work_fails WHAT: a failure of the workload's own, counted.
work_fails() { echo "$1" >> $BAD_WORK; }

storms() {
	while running; do
		echo x | $BIN/forker 4 3 > /dev/null || work_fails "forker"
		echo | $BIN/thread-exec /bin/true || work_fails "thread-exec"
		[ $((rounds % 10)) -eq 0 ] && $BIN/sched-load rings 2 > /dev/null
	done
}
sockets() {
	while running; do
		$BIN/udp-echo 127.0.0.1 20 1000 || work_fails "udp-echo"
		$BIN/udp-echo 127.0.0.1 20 1000 unread || work_fails "udp-echo unread"
		wget -q -O /tmp/soak-got http://127.0.0.1:8080/blob &&
			cmp -s /tmp/soak-got /tmp/www/blob || work_fails "tcp over lo"
		[ $veth -eq 0 ] || continue
		ping -c 5 -i 0.01 -q 10.99.0.2 > /dev/null || work_fails "ping over veth"
		wget -q -O /tmp/soak-got http://10.99.0.2:8080/blob &&
			cmp -s /tmp/soak-got /tmp/www/blob || work_fails "tcp over veth"
	done
}
namespaces() {
	while running; do
		unshare -n -u -i -m sh -c 'ip link set lo up &&
			ping -c 2 -i 0.01 -q 127.0.0.1 > /dev/null' || work_fails "netns"
	done
}
rcuwork() {
	while running; do
		echo "500 192" > $D/tpstat_test_kmem/rcu || work_fails "kfree_rcu"
	done
}
pagecache() {
	while running; do
		dd if=/dev/zero of=/tmp/soak-cache bs=65536 count=64 2>/dev/null
		cat /tmp/soak-cache > /dev/null
		rm -f /tmp/soak-cache
		[ $((rounds % 20)) -eq 0 ] && echo 1 > /proc/sys/vm/drop_caches
	done
}

resetter() {
	while running; do
		for s in $TP/*/reset; do
			echo 1 > "$s" 2>/dev/null
		done
		usleep 300000
	done
}
# tpstat stat -- true: true's one exec and no fork, whatever runs beside;
# every other round thread-exec, whose second thread execs forker 3 2: its
# clone and forker's 9 forks, and thread-exec's, forker's and its 3
# children's execs, the process in scope when its pid passes to the thread.
statloop() {
	while running; do
		if [ $((rounds % 2)) -eq 0 ]; then
			want="1 0"
			$TOOL stat -- true 2> /tmp/soak-stat
		else
			want="5 10"
			echo x | $TOOL stat -- $BIN/thread-exec $BIN/forker 3 2 \
				2> /tmp/soak-stat > /dev/null
		fi
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "exit status $rc: $(head -n 1 /tmp/soak-stat)" >> /tmp/soak-stat-bad
			continue
		fi
		got=$(awk '/^ tpstat stat of / { t = 1 }
			t && NF == 3 { n[$3] = $1 }
			END { print n["sched_process_exec"] + 0, n["sched_process_fork"] + 0 }' /tmp/soak-stat)
		[ "$got" = "$want" ] || echo "execs and forks $got, want $want" >> /tmp/soak-stat-bad
	done
}
# The test modules whose tracepoints and events the sets count, gone and
# back while probes are attached to them.
CHURNED="tpstat_test_irq tpstat_test_tasklet tpstat_test_tp"
modchurn() {
	while running; do
		for m in $CHURNED; do
			unload $m 2>/dev/null || echo "$m does not unload" >> /tmp/soak-mod-bad
			load $m || echo "$m does not load" >> /tmp/soak-mod-bad
		done
		usleep 200000
	done
}
# A loop forking as fast as it can, in the scope the scoper writes again
# and again: a scope is made from the tasks it has, and a fork between its
# bit in the old scope and its count must count in the old one, or the new
# scope's count of tasks drifts from its bits until the next write. So the
# loop stops only once the scoper is held, its last writes made while the
# loop forked; then it forks nothing (a read's timeout is its sleep), and
# its scope must hold it alone.
mkfifo /tmp/soak-never
scoped() {
	while [ ! -e $STOP ]; do
		rounds=$((rounds + 1))
		sh -c :
		while [ -e $HOLD ] && [ -e $HOLD.scoper ] && [ ! -e $STOP ]; do
			: > $HOLD.$task
			read -r -t 1 line <> /tmp/soak-never
		done
	done
}
# The loop's pid, written as it was started, before the scoper, in a file
# of its own: /tmp/soak-scoped gets the loop's rounds when it ends.
scoper() {
	read -r pid < /tmp/soak-scoped.pid
	while running; do
		i=0
		while [ $i -lt 40 ]; do
			echo $pid > $TP/count/scoped/scope
			i=$((i + 1))
		done
	done
}

: > $BAD_WORK
: > /tmp/soak-stat-bad
: > /tmp/soak-mod-bad
TASKS="workload traffic firer storms sockets namespaces pagecache rcuwork
	readers writers resetter statloop modchurn scoped scoper"
pids= started=0
for task in $TASKS; do
	{ held=1 rounds=0; $task; echo $rounds > /tmp/soak-$task; } 2>/dev/null &
	[ $task = scoped ] && echo $! > /tmp/soak-scoped.pid
	renice -n 10 -p $! > /dev/null
	pids="$pids $!"
	started=$((started + 1))
done

# hold: every task at the top of its round (60 s at most each).
hold() {
	rm -f $HOLD.*
	touch $HOLD
	for task in $TASKS; do
		n=0
		until [ -e $HOLD.$task ]; do
			n=$((n + 1))
			[ $n -lt 3000 ] || { echo "# $T: $task not held after 60 s"; return 1; }
			usleep 20000
		done
	done
}
release() { rm -f $HOLD; }

# The sets the workload reaches, whose hits must grow between checks.
REACHED="irq sched kmem net count"
checks=0 bad_log=0 bad_mem=0 bad_state=0 bad_held=0 bad_forks=0 bad_hits=0
bad_switches=0 bad_scope=0 bad_filter=0 bad_netns=0 bad_site=0
kmsg_at=$(kmsg_lines)
held_max=

# check_all: the invariants, each failure said in a comment line.
check_all() {
	checks=$((checks + 1))
	n=$(kmsg_lines)
	bad=$(dmesg | sed -n "$((kmsg_at + 1)),${n}p" | grep -E "$BAD")
	kmsg_at=$n
	if [ -n "$bad" ]; then
		bad_log=$((bad_log + 1))
		echo "$bad" | sed "s/^/# $T: check $checks: /"
	fi
	if [ "$(cat $TP/memory)" != "$mem0" ]; then
		bad_mem=$((bad_mem + 1))
		echo "# $T: check $checks: memory: $(cat $TP/memory | tr '\n' ' ')"
	fi
	state=$(set_state)
	if [ "$state" != "$state0" ]; then
		bad_state=$((bad_state + 1))
		echo "$state" | sed "s/^/# $T: check $checks: now /"
	fi
	# Held task words and pairing starts, against the live tasks and
	# their maps' capacity; the largest seen kept for the summary.
	live=$(live_tasks)
	over=$(grep -H '\.\(held\|capacity\) ' $TP/*/stats | awk -v live=$live -v slack=$TASK_SLACK '
		{ sub(/^.*tpstat\//, ""); sub(/\/stats:/, "/") }
		$1 ~ /\.held$/ { k = substr($1, 1, length($1) - 5); held[k] = $2 }
		$1 ~ /\.capacity$/ { k = substr($1, 1, length($1) - 9); cap[k] = $2 }
		END {
			for (k in held) {
				if (held[k] > cap[k])
					print k, held[k], "of", cap[k]
				else if (k ~ /task/ && held[k] > live + slack)
					print k, held[k], "with", live, "tasks live"
			}
		}')
	if [ -n "$over" ]; then
		bad_held=$((bad_held + 1))
		echo "$over" | sed "s/^/# $T: check $checks: held: /"
	fi
	held_max=$(grep -H '\.held ' $TP/*/stats | awk -v prev="$held_max" '
		BEGIN { n = split(prev, p, " "); for (i = 1; i <= n; i++) {
			split(p[i], kv, "="); m[kv[1]] = kv[2] } }
		{ sub(/^.*tpstat\//, ""); sub(/\/stats:/, "/"); sub(/\.held$/, "", $1)
		  if ($2 > m[$1]) m[$1] = $2 }
		END { for (k in m) printf "%s=%d ", k, m[k] }')
	# Forks: a window with every task held, around forks made for it;
	# each read of /proc/stat or counts forks too, inside the bounds.
	# Switches the same way, in the same window.
	p0a=$(forks_made)
	c0=$(forks_counted)
	p0b=$(forks_made)
	s0a=$(switches_made)
	k0=$(switches_counted)
	s0b=$(switches_made)
	echo x | $BIN/forker 3 2 > /dev/null
	ping -c 3 -i 0.01 -q 127.0.0.1 > /dev/null
	s1a=$(switches_made)
	k1=$(switches_counted)
	s1b=$(switches_made)
	p1a=$(forks_made)
	c1=$(forks_counted)
	p1b=$(forks_made)
	d=$((c1 - c0))
	if [ $d -lt 9 ] || [ $d -lt $((p1a - p0b)) ] || [ $d -gt $((p1b - p0a)) ]; then
		bad_forks=$((bad_forks + 1))
		echo "# $T: check $checks: forks counted $d, /proc/stat $((p1a - p0b)) to $((p1b - p0a)), 9 made"
	fi
	d=$((k1 - k0))
	if [ $d -lt $((s1a - s0b)) ] || [ $d -gt $((s1b - s0a)) ]; then
		bad_switches=$((bad_switches + 1))
		echo "# $T: check $checks: switches counted $d, /proc/stat $((s1a - s0b)) to $((s1b - s0a))"
	fi
	# Each set's hits since its last reset: those the workload reaches
	# counted some (the forks and pings above are among them).
	quiet=
	for s in $REACHED; do
		h=$(awk '$1 ~ /\.hits$/ { n += $2 } END { print n + 0 }' $TP/$s/stats)
		eval "hits_$s=\$((\${hits_$s:-0} + h))"
		[ "$h" -gt 0 ] || quiet="$quiet $s"
	done
	if [ -n "$quiet" ]; then
		bad_hits=$((bad_hits + 1))
		echo "# $T: check $checks: counted nothing:$quiet"
	fi
}

# check_cases: the driven cases, each failure said in a comment line.
check_cases() {
	# The scoped loop alone in its scope once its forks' tasks are
	# freed (a grace period after their reaping); at the end, gone.
	live=$(tree_tasks "$(cat /tmp/soak-scoped.pid)")
	got=$(await_tasks scoped "$live")
	if [ "$got" != "$live" ] || [ "$live" -gt 1 ]; then
		bad_scope=$((bad_scope + 1))
		echo "# $T: check $checks: the scoped loop's tasks: /proc $live, its scope $got"
	fi
	# Of 3 pings of 100 bytes and 4 of 1000 over lo, the filter keeps
	# the 4: their 8 packets, each timed in its queue, no other.
	echo 'len > 500 && dev == lo' > $TP/net/filter
	echo 1 > $TP/net/reset
	ping_lo 3 100
	ping_lo 4 1000
	got="$(stat_of net dev.lo.1.tx_packets) $(stat_of net queue.paired) $(stat_of net queue.unpaired)"
	echo 0 > $TP/net/filter
	if [ "$got" != "8 8 0" ]; then
		bad_filter=$((bad_filter + 1))
		echo "# $T: check $checks: filtered: lo's sent, queue's paired and unpaired: $got, want 8 8 0"
	fi
	# Two namespaces, the first gone (its cleanup, a work item, done)
	# before the second is made, which may get its inode number.
	echo 1 > $TP/net/reset
	sleep 1
	ns_ping 2 > /dev/null
	sleep 2
	ns_ping 3 > /dev/null
	got=$(netns_lo_rx)
	if [ "$got" != "4 6" ]; then
		bad_netns=$((bad_netns + 1))
		echo "# $T: check $checks: two namespaces' lo rows: '$got', want '4 6'"
	fi
	# 200 objects of tpstat_test_kmem's init code, discarded by now,
	# freed after a reset: in other's frees, no site named for them.
	unload tpstat_test_kmem
	load tpstat_test_kmem init_leak=200
	echo 1 > $TP/kmem/reset
	echo 0 > $D/tpstat_test_kmem/leak
	got="$(stat_of kmem site.unknown.frees) $(stat_of kmem site.other.frees)"
	if [ "${got% *}" != none ] || [ "${got#* }" -lt 200 ]; then
		bad_site=$((bad_site + 1))
		echo "# $T: check $checks: frees of the init code's 200: unknown's and other's: $got"
	fi
}

start=$(uptime_s)
end=$((start + MIN * 60))
next_note=$((start + 300))
while [ "$(uptime_s)" -lt $end ]; do
	sleep "$EVERY"
	hold
	check_all
	check_cases
	release
	now=$(uptime_s)
	if [ "$now" -ge $next_note ]; then
		next_note=$((now + 300))
		echo "# $T: at $(((now - start) / 60)) min: $checks checks, failed: log $bad_log, memory $bad_mem, state $bad_state, held $bad_held, forks $bad_forks, switches $bad_switches, hits $bad_hits, scope $bad_scope, filter $bad_filter, netns $bad_netns, site $bad_site"
	fi
done
elapsed=$(($(uptime_s) - start))
alive=0
for pid in $pids; do
	kill -0 "$pid" 2>/dev/null && alive=$((alive + 1))
done
touch $STOP
wait $pids
check_all
check_cases

rounds=
for task in $TASKS; do
	rounds="$rounds $task=$(cat /tmp/soak-$task 2>/dev/null)"
done
is "ran $MIN min ($elapsed s), every task to its end:$rounds" \
	"$alive $([ $elapsed -ge $((MIN * 60)) ] && echo long-enough)" "$started long-enough"
is "$checks checks, no kernel report at any" $bad_log 0
is "$checks checks, the memory file as after loading at each" $bad_mem 0
is "$checks checks, no instance, entry, filter or tracepoint left, every set enabled at each" \
	$bad_state 0
is "$checks checks, held task words within the live tasks + $TASK_SLACK, pairing starts within their maps at each (most held: $held_max)" \
	$bad_held 0
is "$checks checks, the count set's forks within /proc/stat's bounds at each" $bad_forks 0
is "$checks checks, the sched set's switches within /proc/stat's ctxt bounds at each" \
	$bad_switches 0
events=
for s in $REACHED; do
	eval "events=\"\$events $s=\$hits_$s\""
done
is "$checks checks, each of $REACHED counted events since its last reset (summed:$events)" \
	$bad_hits 0
is "$checks checks, the scope rewritten under a forking loop holding the loop alone at each" \
	$bad_scope 0
is "$checks checks, a net filter's rejected packets neither counted nor timed at each" \
	$bad_filter 0
is "$checks checks, two namespaces one after the other in rows of their own at each" \
	$bad_netns 0
is "$checks checks, frees of discarded init code's objects after a reset naming no site at each" \
	$bad_site 0
is "tpstat stat in a loop, of true and of a thread that execs forker: each exact ($(cat /tmp/soak-statloop) runs)" \
	"$(head -n 5 /tmp/soak-stat-bad)" ""
is "test modules unloaded and loaded again ($(cat /tmp/soak-modchurn) rounds)" \
	"$(sort /tmp/soak-mod-bad | uniq -c | xargs)" ""
is "the workload's own checks: datagrams back, TCP fetches whole, namespaces made, kfree_rcu" \
	"$(sort $BAD_WORK | uniq -c | xargs)" ""
is "the writers' filters, on every field of count, its instance and net, each taken" \
	"$(sort $CHURN_BAD | uniq -c | head -n 5 | xargs)" ""
if [ $veth -eq 0 ]; then
	pass "a veth pair into another network namespace carried the pings and TCP"
else
	skip "a veth pair into another network namespace" "$(head -n 1 /tmp/veth-err)"
fi
[ -z "$VETH_NS" ] || kill $VETH_NS
ip link del soak0 2>/dev/null

# Exact again: the test set, the count set and tpstat stat.
grep -q '^tpstat_test_tp ' /proc/modules || load tpstat_test_tp
echo 1 > $TP/test/reset
echo 1 > $TP/count/reset
fire 1000
is "after the soak, the test set counts 1000 events exactly" \
	"$(stat_of test tpstat_test_fire.hits)" 1000
is "after the soak, the count set too" \
	"$(awk '$1 == "tpstat_test_fire" { print $3 }' $TP/count/counts)" 1000
$TOOL stat -e tpstat_test_fire -- sh -c "echo 777 > $FIRE" 2> /tmp/soak-stat
is "after the soak, tpstat stat counts its command's 777" \
	"$(awk '/^ tpstat stat of / { t = 1 } t && $NF == "tpstat_test_fire" { print $1 }' /tmp/soak-stat)" 777

# Everything unloaded: the machine's kernel memory near where it began.
# The slack: Slab 4096 kB (caches of dentries, inodes and sockets the
# workload grew and the kernel keeps), Percpu 512 kB (chunks the per-CPU
# allocator keeps populated), VmallocUsed 1024 kB (stacks and areas freed
# lazily); a leak of a set's data is larger than each.
killall httpd 2>/dev/null
unload_all
settle
slab=$(meminfo Slab) percpu=$(meminfo Percpu) vmalloc=$(meminfo VmallocUsed)
echo "# $T: kB before and after: Slab $slab0 $slab (SUnreclaim $sunreclaim0 $(meminfo SUnreclaim)), Percpu $percpu0 $percpu, VmallocUsed $vmalloc0 $vmalloc"
echo "# $T: the slab caches that grew most, kB: $(slabs | awk '
	NR == FNR { was[$1] = $2; next }
	$2 - was[$1] >= 64 { print $2 - was[$1], $1 }' /tmp/soak-slabs0 - |
	sort -rn | head -n 8 | awk '{ printf "%s %d, ", $2, $1 }')"
# On the debug kernel, KASAN's quarantine besides: freed objects it holds
# back, counted in Slab, up to 1/32 of RAM and 1 MB a CPU (35716 kB more
# after a 30-minute soak there, kmemleak finding nothing of tpstat's).
slab_slack=4096
debug_kernel &&
	slab_slack=$((slab_slack + $(meminfo MemTotal) / 32 + 1024 * $(grep -c ^processor /proc/cpuinfo)))
within "after unloading, Slab within $slab_slack kB of its start ($slab0 kB)" \
	$((slab - slab0)) -$slab_slack $slab_slack
within "after unloading, Percpu within 512 kB of its start ($percpu0 kB)" \
	$((percpu - percpu0)) -512 512
within "after unloading, VmallocUsed within 1024 kB of its start ($vmalloc0 kB)" \
	$((vmalloc - vmalloc0)) -1024 1024
