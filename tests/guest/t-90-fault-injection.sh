# SPDX-License-Identifier: GPL-2.0
# Fault injection (debug kernel only): loads, control writes and reads with
# their Nth allocation failing, for N = 1, 2, ... until one runs without
# reaching its Nth (tests/helpers/fail-point.h). The points are every slab
# allocation and, by fail_function, every per-CPU allocation of the core
# (tpstat_percpu_alloc(), which failslab cannot reach); then the per-CPU
# ones alone, each in turn. Each call the failure reached must fail with
# ENOMEM and change nothing; kmemleak and the log check after the suite say
# whether a failed load left anything behind. A call that succeeds all the
# same must be explained by a fallback the kernel has, whose effect is
# checked, or it fails the test.

FS=/sys/kernel/debug/failslab
FP=/sys/kernel/debug/fail_page_alloc
FF=/sys/kernel/debug/fail_function
BIN=/payload/bin

if [ ! -d $FS ]; then
	plan 1
	skip "loads, writes and reads under fault injection" "this kernel has no fault injection"
	return 0
fi
# The probe sets: every module but the core, the count set, and those of
# the tests, samples and benchmark.
sets=
for m in "$KO"/tpstat_*.ko; do
	m=$(basename "$m" .ko)
	case $m in
	tpstat|tpstat_count|tpstat_test_*|tpstat_torture|tpstat_sample_*|tpstat_bench*) ;;
	*) sets="$sets $m" ;;
	esac
done
# The files read: one of each way a file is shown, not all of them. Each
# read's points are its seq_file buffers and the arrays its data folds
# into, the same for every file that shows that kind of data, and reading
# every file at every point made this test too long for CI.
reads="version probes memory count/counts count/control count/filter
	test/hist test/table test/stats test_tasks/stats irq/hardirq
	irq/softirq_latency sched/runqlat sched/lifecycle kmem/outstanding
	net/devices"
# Two lines of setup, five of loads and two per set, fourteen of resets,
# enables, control, stack control and filter writes, one per file read.
plan $((2 + 5 + 2 * $(echo $sets | wc -w) + 14 + $(echo $reads | wc -w)))
expect_alloc_failures

# fail-nth counts what the attributes let through. Slab: every allocation,
# sleeping or not. Pages: none. What the defaults would count (order 1 and
# up, not sleeping) are slab's tries at a larger slab, which it makes up
# for quietly with a smaller one; our allocations of pages go through
# slab, vmalloc and the per-CPU allocator, whose slab allocations fail here.
read -r fs_wait < $FS/ignore-gfp-wait
read -r fs_verbose < $FS/verbose
read -r fp_order < $FP/min-order
read -r fp_verbose < $FP/verbose
echo N > $FS/ignore-gfp-wait
echo 32 > $FP/min-order
echo 0 > $FP/verbose
# What forced each failure is logged, one line and no stack: the helpers
# read it back. An allocation with __GFP_NOWARN is not logged: its caller
# copes with a failure. Which caller, a stack trace of each failed slab
# allocation in the trace buffer tells (fail-point.h): kvmalloc() tries
# vmalloc(), kmemleak and debugobjects take from their reserves, vmalloc()
# goes on without its spare vmap_area (that one is logged).
echo 1 > $FS/verbose
echo 0 > $FS/verbose_ratelimit_interval_ms
TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR
echo 'r:tpstat_failslab should_failslab ret=$retval:s32' >> $TR/kprobe_events
echo 'ret != 0' > $TR/events/kprobes/tpstat_failslab/filter
echo 1 > $TR/options/stacktrace
echo 1 > $TR/events/kprobes/tpstat_failslab/enable
check "failed slab allocations are traced with their stack" \
	grep -q 1 $TR/events/kprobes/tpstat_failslab/enable

# copes RESULT: what failed was one whose caller makes up for it.
copes() {
	case $1 in
	*" (kvmalloc)"|*" (kmemleak)"|*" (debugobjects)"|*" (vmap_preload)"|\
	*" (radix_tree_preload)") true ;;
	*) false ;;
	esac
}

# The core's per-CPU allocations, once tpstat is loaded: fail_function
# fails none by itself (times 0) but fail-nth counts each call; the task
# filter passes only a helper's --fail-percpu call.
percpu_inject() {
	echo tpstat_percpu_alloc > $FF/inject
	echo 100 > $FF/probability
	echo 1 > $FF/interval
	echo Y > $FF/task-filter
	echo 0 > $FF/times
	echo 0 > $FF/space
	echo 1 > $FF/verbose
	echo 0 > $FF/verbose_ratelimit_interval_ms
}
# Before tpstat goes: the probe would outlive the function it is on.
percpu_uninject() { echo > $FF/inject; }
if [ -d $FF ]; then
	pass "fail_function is there to fail per-CPU allocations"
else
	fail "fail_function is there to fail per-CPU allocations (CONFIG_FAIL_FUNCTION)"
fi

# inject MODULE [PARAMS]: one line of TAP for all points of one module's
# load, one for its per-CPU points alone, of which there must be some.
inject() {
	out=$($BIN/load-once --fail-all "$KO/$1.ko" "$2")
	case $out in
	"points "*) pass "$1: load at each failed allocation: $out" ;;
	*) fail "$1: $out" ;;
	esac
	grep -q "^$1 " /proc/modules && rmmod "$1"
	[ "$1" = tpstat ] && return
	out=$($BIN/load-once --fail-all --percpu "$KO/$1.ko" "$2")
	case $out in
	"points "[1-9]*" fallbacks 0 refused 0 loader 0")
		pass "$1: load fails cleanly at each failed per-CPU allocation: $out" ;;
	*) fail "$1: per-CPU: $out" ;;
	esac
	grep -q "^$1 " /proc/modules && rmmod "$1"
}

# The framework: the core, the typed test set, and every probe set.
# Samples, the benchmark and the test's own helpers are left out: each
# costs minutes under KASAN and emulation, for no path of the framework.
# The core allocates nothing per CPU itself; its sets do.
inject tpstat
load tpstat
percpu_inject
load tpstat_test_tp
inject tpstat_count tracepoints=tpstat_test_fire,sched_switch
inject tpstat_test_probe
# Tables of a few entries: an allocation in a loop fails the same way
# at any index. Full-size tables make hundreds of points, each of which
# allocates and frees every entry before it again: quadratic, for no
# new error path.
for m in $sets; do
	case $m in
	tpstat_irq) inject "$m" "max_handlers=4 max_tasklets=4" ;;
	# Loaded bare it counts nothing and allocates nothing per CPU.
	tpstat_stack) inject "$m" 'tracepoints="tpstat_test_fire by stack"' ;;
	*) inject "$m" ;;
	esac
done

# A reset that cannot allocate its new generation fails and keeps every
# count. Its allocations are kvmalloc()s and per-CPU: one that fails
# without failing the reset is one the kernel made up for, quietly
# (kvmalloc() with vmalloc(), kmemleak from its reserve), and that reset
# must have zeroed.
load tpstat_test_probe
fire 100
# reset_points MODE: "failures N", or what went wrong.
reset_points() {
	n=1 failures=0 bad=
	while [ $n -le 500 ]; do
		result=$(printf 1 | $BIN/write-once $1 $n --why $TP/test/reset)
		case $result in
		"ENOMEM reached "*)
			failures=$((failures + 1))
			[ "$(stat_of test hist.count)" = 100 ] ||
				bad="$bad; failure $n did not keep the counts" ;;
		"accepted reached ("*")")
			copes "$result" && [ "$(stat_of test hist.count)" = 0 ] ||
				bad="$bad; point $n: $result, not zeroed"
			fire 100 ;;
		accepted) break ;;
		"fault point"*) bad="$bad; $result"; break ;;
		*) bad="$bad; point $n: $result"
			[ "$(stat_of test hist.count)" = 100 ] || fire 100 ;;
		esac
		n=$((n + 1))
	done
	[ "$result" = accepted ] || bad="$bad; still failing at point $n"
	echo "$failures${bad:+ bad:$bad}"
}
out=$(reset_points --fail-nth)
case $out in
0|*bad:*) fail "reset: $out failed allocations failed it" ;;
*) pass "reset: $out failed allocations failed it, each keeping every count" ;;
esac
is "reset: the last zeroed" "$(stat_of test hist.count)" 0
fire 100
out=$(reset_points --fail-percpu)
case $out in
0|*bad:*) fail "reset: $out failed per-CPU allocations failed it" ;;
*) pass "reset: $out failed per-CPU allocations failed it, each keeping every count" ;;
esac
is "reset: the last zeroed, per-CPU" "$(stat_of test hist.count)" 0

# enable: registering and unregistering probes allocates the tracepoint's
# new array of probes, in the kernel, when another probe stays on it (the
# count set's, here). A write refused with ENOMEM must
# change nothing. Neither one is: the write reports the set's new state,
# and what the allocation failing leaves is the kernel's to explain. On
# the way down it drops the probe all the same, replaced by a stub
# (tracepoint.c, func_remove()): every probe must be disabled and count
# nothing. On the way up the probe shows as failed (README: the kernel
# refused it), with one log line saying why, and attaches once enabled
# again.
# probe_states SET: the states of SET's probes, in order, on one line.
probe_states() {
	while read -r s n st rest; do
		[ "$s" = "$1" ] && printf '%s ' "$st"
	done < $TP/probes
}
load tpstat_count tracepoints=tpstat_test_fire
enable_points() {
	n=1 failures=0 explained=0 bad=
	while [ $n -le 200 ]; do
		[ "$1" = 0 ] && echo 1 > $TP/test/enable || echo 0 > $TP/test/enable
		before=$(probe_states test)
		hits=$(stat_of test tpstat_test_fire.hits)
		lines=$(kmsg_lines)
		result=$(printf "$1" | $BIN/write-once --fail-nth $n --why $TP/test/enable)
		now=$(probe_states test)
		case $result in
		"ENOMEM reached "*)
			failures=$((failures + 1))
			[ "$now" = "$before" ] || bad="$bad; failure $n: $before-> $now" ;;
		"accepted reached (failslab)")
			fire 10
			cannot=$(kmsg_since "$lines" | grep -c 'tpstat: test: cannot attach to .*: -12$')
			if [ "$1" = 0 ] && [ "$now" = "disabled disabled missing " ] &&
			   [ "$(stat_of test tpstat_test_fire.hits)" = "$hits" ]; then
				explained=$((explained + 1))
			elif [ "$1" = 1 ] && [ "$cannot" = 1 ] &&
			     [ "$(echo "$now" | grep -o failed | wc -l)" = 1 ]; then
				echo 0 > $TP/test/enable
				echo 1 > $TP/test/enable
				if [ "$(probe_states test)" = "attached attached missing " ]; then
					explained=$((explained + 1))
				else
					bad="$bad; point $n: not attached once enabled again"
				fi
			else
				bad="$bad; point $n: accepted, leaving $now($cannot log lines)"
			fi ;;
		"accepted reached ("*")")
			if copes "$result" && [ "$now" = "$2" ]; then
				explained=$((explained + 1))
			else
				bad="$bad; point $n: $result, leaving $now"
			fi ;;
		accepted) break ;;
		"fault point"*) bad="$bad; $result"; break ;;
		*) bad="$bad; point $n: $result, leaving $now" ;;
		esac
		n=$((n + 1))
	done
	[ "$result" = accepted ] || bad="$bad; still failing at point $n"
	[ "$now" = "$2" ] || bad="$bad; left $now"
	echo "points $((n - 1)) refused $failures explained $explained${bad:+ bad:$bad}"
}
for v in 0 1; do
	[ $v = 0 ] && want="disabled disabled missing " || want="attached attached missing "
	out=$(enable_points $v "$want")
	case $out in
	"points 0 "*|*bad:*) fail "enable=$v: $out" ;;
	*) pass "enable=$v: $out" ;;
	esac
done
is "enable: attached at the end" "$(probe_states test)" "attached attached missing "

# count/control: adding a name allocates the probe, its name, its per-CPU
# counters, and the tracepoint's array of probes in the kernel; removing
# one only the last. A refused write leaves control, the probes file and
# the memory accounted as they were; one the kernel's allocation failed
# leaves the probe failed (adding: one log line says why) or gone
# (removing: the stub above).
C=$TP/count/control
# control_points MODE NAME: adds (or removes, "!NAME") one name.
control_points() {
	n=1 failures=0 explained=0 bad=
	name=${2#!}
	# What the write does with nothing failing.
	if [ "$2" = "$name" ]; then
		grep -qx "$name" $C && echo "!$name" > $C
	else
		grep -qx "$name" $C || echo "$name" > $C
	fi
	printf "$2" > $C
	want="$(cat $C | tr '\n' ' ')/$(state_of count "$name")/$(grep '^total ' $TP/memory)"
	while [ $n -le 200 ]; do
		if [ "$2" = "$name" ]; then
			grep -qx "$name" $C && echo "!$name" > $C
		else
			grep -qx "$name" $C || echo "$name" > $C
		fi
		before="$(cat $C | tr '\n' ' ')/$(state_of count "$name")/$(grep '^total ' $TP/memory)"
		lines=$(kmsg_lines)
		result=$(printf "$2" | $BIN/write-once $1 $n --why $C)
		now="$(cat $C | tr '\n' ' ')/$(state_of count "$name")/$(grep '^total ' $TP/memory)"
		case $result in
		"ENOMEM reached "*)
			failures=$((failures + 1))
			[ "$now" = "$before" ] || bad="$bad; failure $n: $before -> $now" ;;
		"accepted reached (failslab)")
			cannot=$(kmsg_since "$lines" | grep -c "tpstat: count: cannot attach to $name: -12\$")
			if [ "$2" = "$name" ] && [ "$(state_of count "$name")" = failed ] &&
			   [ "$cannot" = 1 ]; then
				explained=$((explained + 1))
			elif [ "$2" != "$name" ] && [ "$(state_of count "$name")" = none ] &&
			     ! grep -qx "$name" $C; then
				explained=$((explained + 1))
			else
				bad="$bad; point $n: accepted, leaving $now ($cannot log lines)"
			fi ;;
		"accepted reached ("*")")
			if copes "$result" && [ "$now" = "$want" ]; then
				explained=$((explained + 1))
			else
				bad="$bad; point $n: $result, leaving $now"
			fi ;;
		accepted) break ;;
		"fault point"*) bad="$bad; $result"; break ;;
		*) bad="$bad; point $n: $result, leaving $now" ;;
		esac
		n=$((n + 1))
	done
	[ "$result" = accepted ] || bad="$bad; still failing at point $n"
	[ "$now" = "$want" ] || bad="$bad; left $now"
	echo "points $((n - 1)) refused $failures explained $explained${bad:+ bad:$bad}"
}
for w in "--fail-nth tpstat_test_pair" "--fail-nth !tpstat_test_pair" \
	"--fail-percpu tpstat_test_pair"; do
	# shellcheck disable=SC2086
	out=$(control_points $w)
	# Adding refuses at some points; removing has no allocation to refuse.
	case $w/$out in
	*bad:*|*" tpstat_test_pair/"*"refused 0 "*|*" !tpstat_test_pair/"*"explained 0") \
		fail "control ${w#--fail-}: $out" ;;
	*) pass "control ${w#--fail-}: $out" ;;
	esac
done
is "control: as it was" "$(cat $C | tr '\n' ' ')" "tpstat_test_fire tpstat_test_pair "

# count/filter: a write allocates the parser's state and the program. One
# refused with ENOMEM leaves the filter in force as it was; one whose
# failed allocation the kernel made up for must have put the new one in.
F=$TP/count/filter
new='comm == sh* || cpu == 1'
n=1 failures=0 explained=0 bad=
while [ $n -le 50 ]; do
	echo 'cpu == 0' > $F
	result=$(printf '%s' "$new" | $BIN/write-once --fail-nth $n --why $F)
	now=$(cat $F)
	case $result in
	"ENOMEM reached "*)
		failures=$((failures + 1))
		[ "$now" = 'cpu == 0' ] || bad="$bad; failure $n left '$now'" ;;
	"accepted reached ("*")")
		if copes "$result" && [ "$now" = "$new" ]; then
			explained=$((explained + 1))
		else
			bad="$bad; point $n: $result, leaving '$now'"
		fi ;;
	accepted) break ;;
	*) bad="$bad; point $n: $result, leaving '$now'" ;;
	esac
	n=$((n + 1))
done
[ "$now" = "$new" ] || bad="$bad; left '$now'"
out="points $((n - 1)) refused $failures explained $explained"
if [ -n "$bad" ] || [ $failures -eq 0 ]; then
	fail "filter: $out${bad:+ bad:$bad}"
else
	pass "filter: $out"
fi
echo 0 > $F

# stack/control: an entry allocates itself, its path, its counts, its
# probe's counters and its files, and the tracepoint's array of probes in
# the kernel. A write refused with ENOMEM leaves no entry, nothing
# accounted; one the kernel's allocation failed leaves the entry with its
# probe failed, and one log line saying why.
load tpstat_stack
SC=$TP/stack/control
line='tpstat_test_fire by stack,comm'
# stack_points MODE: "points N refused N explained N", and what went wrong.
stack_points() {
	n=1 failures=0 explained=0 bad=
	mem=$(grep '^total ' $TP/memory)
	while [ $n -le 200 ]; do
		lines=$(kmsg_lines)
		result=$(printf '%s' "$line" | $BIN/write-once $1 $n --why $SC)
		now="$(cat $SC)/$(grep '^total ' $TP/memory)"
		case $result in
		"ENOMEM reached "*)
			failures=$((failures + 1))
			[ "$now" = "/$mem" ] && [ ! -e $TP/stack/tpstat_test_fire ] ||
				bad="$bad; failure $n left $now" ;;
		"accepted reached (failslab)")
			cannot=$(kmsg_since "$lines" | grep -c "tpstat: stack/tpstat_test_fire: cannot attach to tpstat_test_fire: -12\$")
			if [ "$(state_of stack/tpstat_test_fire tpstat_test_fire)" = failed ] &&
			   [ "$cannot" = 1 ]; then
				explained=$((explained + 1))
			else
				bad="$bad; point $n: accepted, leaving $now ($cannot log lines)"
			fi ;;
		"accepted reached ("*")")
			if copes "$result" && [ "${now%%/*}" = "$line" ]; then
				explained=$((explained + 1))
			else
				bad="$bad; point $n: $result, leaving $now"
			fi ;;
		accepted) break ;;
		"fault point"*) bad="$bad; $result"; break ;;
		*) bad="$bad; point $n: $result, leaving $now" ;;
		esac
		echo "!tpstat_test_fire" > $SC 2>/dev/null
		n=$((n + 1))
	done
	[ "$result" = accepted ] || bad="$bad; still failing at point $n"
	[ "$(state_of stack/tpstat_test_fire tpstat_test_fire)" = attached ] ||
		bad="$bad; left its probe $(state_of stack/tpstat_test_fire tpstat_test_fire)"
	echo "!tpstat_test_fire" > $SC
	[ "$(grep '^total ' $TP/memory)" = "$mem" ] || bad="$bad; memory not given back"
	echo "points $((n - 1)) refused $failures explained $explained${bad:+ bad:$bad}"
}
for w in --fail-nth --fail-percpu; do
	out=$(stack_points $w)
	case $out in
	*bad:*|*"refused 0 "*) fail "stack control ${w#--fail-}: $out" ;;
	*) pass "stack control ${w#--fail-}: $out" ;;
	esac
done
rmmod tpstat_stack

# Reads: the open and the read of each file of each set, with every set
# disabled so that nothing changes under them but the time since the
# reset. A read refused with ENOMEM changes nothing by nature; one that
# succeeds with an allocation failed quietly (a seq_file buffer or a row
# array kvmalloc() got from vmalloc(), kmemleak's record of one) must
# read what a read with nothing failing reads.
load tpstat_irq
load tpstat_sched
load tpstat_kmem
load tpstat_net
load tpstat_test_tasks
for e in $TP/*/enable; do echo 0 > "$e"; done
# The time since the reset and the age of outstanding allocations (the
# last column of kmem/outstanding) are the things that move.
masked() {
	tail -n +2 "$1" | sed -e 's/: [0-9.]* s since reset$/: s since reset/' \
		-e 's/^since_reset_ns [0-9]*$/since_reset_ns/' |
	case $f in
	*/kmem/outstanding) awk '{ $NF = ""; print }' ;;
	*) cat ;;
	esac
}
for f in $reads; do
	f=$TP/$f
	$BIN/read-once "$f" > /tmp/want
	masked /tmp/want > /tmp/want.masked
	n=1 failures=0 fallbacks=0 bad=
	while [ $n -le 300 ]; do
		$BIN/read-once --fail-nth $n "$f" > /tmp/got
		read -r result < /tmp/got
		case $result in
		"ENOMEM reached "*) failures=$((failures + 1)) ;;
		"read reached ("*")")
			if copes "$result" && masked /tmp/got | cmp -s - /tmp/want.masked; then
				fallbacks=$((fallbacks + 1))
			else
				bad="$bad; point $n: $result, read otherwise"
			fi ;;
		read) break ;;
		"fault point"*) bad="$bad; $result"; break ;;
		*) bad="$bad; point $n: $result" ;;
		esac
		n=$((n + 1))
	done
	[ "$result" = read ] || bad="$bad; still failing at point $n"
	masked /tmp/got | cmp -s - /tmp/want.masked || bad="$bad; read otherwise whole"
	out="points $((n - 1)) refused $failures fallbacks $fallbacks"
	if [ -n "$bad" ] || [ $failures -eq 0 ]; then
		fail "read ${f#$TP/}: $out${bad:+ bad:$bad}"
	else
		pass "read ${f#$TP/}: $out"
	fi
done

percpu_uninject
unload_all
echo 0 > $TR/events/kprobes/tpstat_failslab/enable
echo 0 > $TR/options/stacktrace
echo '-:tpstat_failslab' >> $TR/kprobe_events
echo > $TR/trace
echo "$fs_wait" > $FS/ignore-gfp-wait
echo "$fs_verbose" > $FS/verbose
echo "$fp_order" > $FP/min-order
echo "$fp_verbose" > $FP/verbose
