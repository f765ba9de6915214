# SPDX-License-Identifier: GPL-2.0
# Load/unload stress: every module of the payload (the core, the probe
# sets, the samples, the benchmark's, the README's example and the test
# modules) comes and goes again and again while a workload runs (forks,
# loopback traffic, allocations, softirqs, the test modules' events,
# interrupts and tasklets) and other tasks read every file, reset, toggle
# enable, add or remove counted tracepoints, stack entries and counting
# instances, and swap filters and scopes, all at once. Every load and
# unload must succeed, the log must stay clean and the guest responsive.

plan 12

. ./churn.sh

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

# Every module of the payload, and the modules its .modinfo says it
# depends on (tpstat_sample_classic links to tpstat_sample_tp's exports).
ALL=
for f in "$KO"/*.ko; do
	m=$(basename "$f" .ko)
	d=$(tr -c 'a-z0-9_=,' '\n' < "$f" | grep -m 1 '^depends=')
	d=$(echo "${d#depends=}" | tr , ' ')
	eval "deps_$m='$d' cycled_$m=0"
	ALL="$ALL $m"
done
# The workload's own (its events, the control writers' set), loaded every
# cycle; the rest take turns, two a cycle (with what they depend on): each
# load of a set on the kernel's own tracepoints patches several of them,
# slow under emulation, and the debug kernel takes five minutes for 200
# cycles of four loads.
BASE="tpstat_test_tp tpstat_count"
TURNS=
for m in $ALL; do
	case " tpstat $BASE " in *" $m "*) ;; *) TURNS="$TURNS $m" ;; esac
done
set -- $TURNS
nturns=$#

# load_one MODULE: loads it after what it depends on, each load checked;
# adds what it loaded to $loaded.
load_one() {
	case " $loaded " in *" $1 "*) return 0 ;; esac
	eval "needs=\$deps_$1"
	for n in $needs; do
		[ "$n" = tpstat ] || load_one "$n" || return 1
	done
	case $1 in
	tpstat_count)
		load tpstat_count tracepoints=tpstat_test_fire,softirq_entry,sched_process_fork ;;
	*) load "$1" ;;
	esac || { broke="$1 does not load (cycle $done_cycles)"; return 1; }
	loaded="$loaded $1"
}

# unload_some LIST: unloads LIST, in its order where nothing loaded still
# depends on a module, else the first that nothing depends on any more.
unload_some() {
	rest=$1
	while [ -n "$rest" ]; do
		for m in $rest; do
			used=0
			for o in $rest; do
				eval "needs=\$deps_$o"
				case " $needs " in *" $m "*) used=1 ;; esac
			done
			[ $used -eq 0 ] && break
		done
		unload "$m" || { broke="$m does not unload (cycle $done_cycles)"; return 1; }
		eval "cycled_$m=\$((cycled_$m + 1))"
		left=
		for o in $rest; do
			[ "$o" = "$m" ] || left="$left $o"
		done
		rest=$left
	done
}

cycles=${STRESS_CYCLES:-200}
done_cycles=0 broke=
while [ $done_cycles -lt "$cycles" ]; do
	if [ ! -d /sys/module/tpstat ]; then
		load tpstat || { broke="tpstat does not load (cycle $done_cycles)"; break; }
	fi
	loaded=
	i=$((2 * done_cycles % nturns + 1))
	eval "one=\${$i}"
	i=$(((2 * done_cycles + 1) % nturns + 1))
	eval "two=\${$i}"
	# Vary who goes first: the tracepoints' modules under attached probes,
	# or the sets; every tenth cycle the core goes too.
	case $((done_cycles % 3)) in
	0) order="$BASE $one $two" ;;
	1) order="$two $one tpstat_count tpstat_test_tp" ;;
	*) order="$one tpstat_test_tp $two tpstat_count" ;;
	esac
	for m in $order; do
		load_one "$m" || break 2
	done
	# Unloads in the order of the loads (the tracepoints' modules first)
	# every other cycle, else in reverse.
	if [ $((done_cycles % 2)) -eq 0 ]; then
		unload_some "$loaded" || break
	else
		rev=
		for m in $loaded; do
			rev="$m $rev"
		done
		unload_some "$rev" || break
	fi
	if [ $((done_cycles % 10)) -eq 9 ]; then
		unload tpstat || { broke="tpstat does not unload (cycle $done_cycles)"; break; }
		cycled_tpstat=$((cycled_tpstat + 1))
	fi
	done_cycles=$((done_cycles + 1))
	[ $((done_cycles % 25)) -eq 0 ] && echo "# $T: $done_cycles cycles"
done
alive=0
for pid in $pids; do
	kill -0 "$pid" 2>/dev/null && alive=$((alive + 1))
done
touch $STOP
# Each task ends its round and stops. One still there after 10 minutes
# is stuck: what it and its children wait in is said, then it is killed,
# so that a hang is a failure with its cause, not the guest's timeout.
n=0
while [ $n -lt 600 ]; do
	left=
	for pid in $pids; do
		kill -0 "$pid" 2>/dev/null && left="$left $pid"
	done
	[ -z "$left" ] && break
	sleep 1
	n=$((n + 1))
done
stuck=
for pid in $left; do
	for p in $pid $(awk -v pp="$pid" '$4 == pp { print $1 }' /proc/[0-9]*/stat 2>/dev/null); do
		stuck="$stuck $(cat /proc/$p/comm 2>/dev/null)"
		echo "# $T: stuck: $(cat /proc/$p/cmdline 2>/dev/null | tr '\0' ' ')" \
			"state $(awk '{ print $3 }' /proc/$p/stat 2>/dev/null)" \
			"in $(cat /proc/$p/wchan 2>/dev/null)"
		sed "s/^/# $T:   /" /proc/$p/stack 2>/dev/null
	done
	kill -9 "$pid" 2>/dev/null
done
wait
is "every background task stopped once asked, within 10 minutes" "$stuck" ""
is "every background task still ran when the last cycle ended" $alive $started
is "load/unload cycles under load" $done_cycles "$cycles"
is "every load and unload succeeded" "$broke" ""
# Two of the $nturns others a cycle, in turn, and the core every tenth:
# each module came and went at least as often as the fewer of those give
# (a module more in the payload is a turn less for each).
least=$((cycles / 10))
[ $((2 * cycles / nturns)) -lt $least ] && least=$((2 * cycles / nturns))
[ $least -gt 0 ] || least=1
short= counts=
for m in $ALL; do
	eval "n=\$cycled_$m"
	counts="$counts $m=$n"
	[ "$n" -ge $least ] || short="$short $m=$n"
done
echo "# $T: cycled$counts"
is "every module of the payload cycled at least $least times" "$short" ""
# The core, three probe sets and four test modules at least: not a glob
# that matched nothing, or one file.
within "modules in the payload" "$(echo $ALL | wc -w)" 8 1000
for task in $TASKS; do
	within "$task kept running alongside" "$(cat /tmp/stress-$task)" 10 999999999
done

load tpstat
load tpstat_test_tp
load tpstat_test_probe
fire 10
is "counts are exact after the storm" "$(stat_of test tpstat_test_fire.hits)" 10
unload_all
