# SPDX-License-Identifier: GPL-2.0
# Fuzzing: every writable file of every set, and every module parameter.

load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_count tracepoints=tpstat_test_fire
load_everything
fire 100

# The data no refused write may change: the stats of the sets no event
# reaches but those the tests fire (the stack set has no entry yet), each
# of which must keep still for a second. A set on live kernel events (irq,
# sched, kmem, test_tasks' sched_process_free; net's, whenever a packet
# goes by) counts between any two reads, whatever is written. Listed, so
# that one that stops keeping still fails here instead of leaving the plan
# and the checks.
STILL='bench count sample stack test'
still_stats() {
	for f in $TP/*/stats; do
		s=${f%/stats}
		grep -v '^since_reset_ns ' "$f" > "/tmp/still-${s##*/}"
	done
	sleep 1
	for f in $TP/*/stats; do
		s=${f%/stats}
		grep -v '^since_reset_ns ' "$f" | cmp -s - "/tmp/still-${s##*/}" &&
			echo "$f"
		rm -f "/tmp/still-${s##*/}"
	done
}
still=$(still_stats)
data=
for s in $STILL; do
	data="$data $TP/$s/stats"
done
# Every set's enable and reset, the count and stack sets' controls, the
# count set's instances, the count, net and bench sets' filters: nothing
# else is writable, and all of them are fuzzed. A filter that passes every
# event is in force in each: a write refused must leave it so, one taken
# is read back and undone.
targets=$(find $TP -type f -perm -0200)
sets=$(ls -d $TP/*/ | wc -l)
filters=$(ls $TP/*/filter)
for f in $filters; do
	echo 'cpu < 4096' > "$f"
done
# A line per target, two per still set, and eight more.
plan $((8 + $(echo $targets | wc -w) + 2 * $(echo $STILL | wc -w)))
for s in $STILL; do
	check "$s's stats keep still for a second" \
		sh -c "echo '$still' | grep -qx '$TP/$s/stats'"
done
is "targets: enable and reset of each of the $sets sets, two controls, instances, three filters" \
	"$(echo "$targets" | wc -w)" $((2 * sets + 6))

# The state every write may move, before and after the fuzzing: each
# set's enable, the counted tracepoints, each probe's state, and the stats
# of the sets that keep still.
state() {
	mkdir -p "$1"
	for f in $TP/*/enable; do
		echo "$f $(cat "$f")"
	done > "$1/enable"
	cat $TP/count/control > "$1/control"
	for f in $filters; do
		echo "$f $(cat "$f")"
	done > "$1/filters"
	awk '{ print $1, $2, $3 }' $TP/probes > "$1/probes"
	for f in $data; do
		s=${f%/stats}
		grep -v '^since_reset_ns ' "$f" > "$1/stats.${s##*/}"
	done
}
state /tmp/fuzz.before
# The fuzzer checks every write against the still sets' stats and the
# probes file (where each set's enable and each name in control show as
# probe states), and undoes and reports what an accepted one did.
# shellcheck disable=SC2086
/payload/bin/fuzz-write 1 ${FUZZ_ROUNDS:-300} $data $filters $TP/probes -- $targets \
	> /tmp/fuzz.tap
is "fuzz-write ran to its end" $? 0
sed "s/^\(not \)\{0,1\}ok - /&$T: /" /tmp/fuzz.tap

# Nothing written first: a set the fuzzing left disabled, or a name it
# left in control, shows here.
state /tmp/fuzz.after
same "after the fuzzing: every set's enable as before" \
	/tmp/fuzz.after/enable /tmp/fuzz.before/enable
same "after the fuzzing: the counted tracepoints as before" \
	/tmp/fuzz.after/control /tmp/fuzz.before/control
same "after the fuzzing: every filter as before" \
	/tmp/fuzz.after/filters /tmp/fuzz.before/filters
same "after the fuzzing: every probe's state as before" \
	/tmp/fuzz.after/probes /tmp/fuzz.before/probes
# A set the fuzzer reset (a "1" taken by reset, or a probe of control
# removed and added back) must read as a reset leaves it: another reset
# now changes nothing. Every other set must read as before.
for f in $data; do
	s=${f%/stats}
	if grep -qx "# reset $s" /tmp/fuzz.tap; then
		echo 1 > "$s/reset"
		grep -v '^since_reset_ns ' "$f" > /tmp/fuzz.reset
		same "after the fuzzing: ${s##*/} reads as the reset the fuzzer made left it" \
			/tmp/fuzz.after/stats.${s##*/} /tmp/fuzz.reset
	else
		same "after the fuzzing: ${s##*/}'s stats as before" \
			/tmp/fuzz.after/stats.${s##*/} /tmp/fuzz.before/stats.${s##*/}
	fi
done
check "the sets still count exactly after the fuzzing" sh -c \
	"echo 1 > $TP/test/reset && echo 7 > $FIRE &&
	 grep -qx 'tpstat_test_fire.hits 7' $TP/test/stats"
rm -rf /tmp/fuzz.before /tmp/fuzz.after /tmp/fuzz.reset
unload_all

# Each parameter gets what a typo or a hostile caller could send; every load
# either succeeds (then unloads) or fails with an errno, never anything else.
long=$(head -c 4096 /dev/zero | tr '\0' a)
load tpstat
load tpstat_test_tp
for p in tracepoints max_tracepoints table_keys; do
	for v in '' 0 1 -1 4294967296 18446744073709551616 -9223372036854775808 \
		0x10 ' 5' '5 ' "$long" 'a,b,c' ',,,' '!x' 'x=y' '"quoted"'; do
		case $p in
		table_keys) m=tpstat_test_probe ;;
		*) m=tpstat_count ;;
		esac
		r=$(load_error $m "$p=$v")
		case $r in
		loaded) rmmod $m ;;
		E*) ;;
		*) fail "$m $p='$v': load answered '$r'" ;;
		esac
	done
done
check "no parameter left a module half loaded" \
	sh -c "! grep -qE '^(tpstat_count|tpstat_test_probe) ' /proc/modules"
unload_all
