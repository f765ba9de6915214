# SPDX-License-Identifier: GPL-2.0
# Filters, the core's, through the count set's: cpu, pid, tgid and comm
# (exact, and by prefix), each counting exactly the events driven from the
# CPU or the command it names; malformed expressions refused with one log
# line saying where, the filter in force kept and still counting exactly;
# lifted by "0" and by an empty line; kept across a reset.

plan 35

F=$TP/count/filter

load tpstat
load tpstat_test_tp
check "tpstat_count.ko loads" load tpstat_count tracepoints=tpstat_test_fire

hits() { stat_of count tpstat_test_fire.hits; }

# fire_as COMM N [CPU]: N events fired by a shell named COMM, on CPU if
# given.
fire_as() {
	${3:+taskset -c $3} sh -c "printf %s $1 > /proc/self/comm; echo $2 > $FIRE"
}

# counted FILTER DESC WANT DRIVE...: with FILTER in force and the set
# reset, runs each DRIVE command and wants WANT hits, and the events it
# fired but WANT rejected by the filter.
counted() {
	expr=$1 desc=$2 want=$3 fired=$4
	shift 4
	echo "$expr" > $F
	echo 1 > $TP/count/reset
	for drive in "$@"; do
		eval "$drive"
	done
	is "'$expr': $desc" "$(hits) $(stat_of count filter.rejected)" \
		"$want $((fired - want))"
}

is "no filter at first" "$(cat $F)" none

counted 'comm == tpfire_a' "only the command named" 7 15 \
	"fire_as tpfire_a 7" "fire_as tpfire_b 5" "fire 3"
is "the filter reads back as written" "$(cat $F)" 'comm == tpfire_a'
counted 'comm == tpfire*' "commands by prefix" 12 15 \
	"fire_as tpfire_a 7" "fire_as tpfire_b 5" "fire 3"
counted 'comm != "tpfire_a"' "a quoted name, negated" 8 15 \
	"fire_as tpfire_a 7" "fire_as tpfire_b 5" "fire 3"
counted 'cpu == 1' "one CPU" 6 15 "fire_on 1 6" "fire_on 0 9"
counted "pid == $$" "this shell, not its children" 4 9 \
	"fire 4" "fire_as tpfire_a 5"
counted "tgid == $$ || comm == tpfire_b" "two terms, either" 9 11 \
	"fire 4" "fire_as tpfire_a 2" "fire_as tpfire_b 5"
counted '!(cpu == 0) && (comm == tpfire_a || comm == tpfire_b)' \
	"parentheses and negation" 3 15 \
	"fire_as tpfire_a 3 1" "fire_as tpfire_b 5 0" "fire_on 1 7"

# A malformed expression: refused, one log line saying where and what,
# the filter in force unchanged and still counting exactly.
echo 'comm == tpfire_a' > $F
# bad EXPRESSION LOGGED: LOGGED is what the log line must hold, or "" for
# a write refused before the filter sees it.
bad() {
	lines=$(kmsg_lines)
	is "'$1' refused" "$(write_error $F "$1")" EINVAL
	# The kernel's own lines (a process exiting with the deepest stack
	# yet, on a debug kernel, which may be tpstat's) may come in between.
	logged=$(kmsg_ours_since "$lines")
	if [ -n "$2" ]; then
		is "'$1': one log line, saying where" \
			"$(echo "$logged" | grep -c .) $(echo "$logged" | grep -cF "$2")" "1 1"
	else
		is "'$1': refused before it is parsed, unlogged" "$logged" ""
	fi
}
bad 'comm ==' 'tpstat: count: filter, column 8: expected a value, at the end'
bad 'comm < sh' "column 8: a name compares only with == or !=: 'sh'"
bad 'foo == 1' "column 1: unknown field: 'foo'"
bad '(cpu == 1' 'column 10: expected ), at the end'
bad 'pid == 99999999999999999999' "column 8: number too large: '99999999999999999999'"
bad 'comm == abcdefghijklmnopq' "column 9: a name has at most 15 bytes"
bad "$(printf '%.0s(' $(seq 17))cpu == 1$(printf '%.0s)' $(seq 17))" \
	'column 17: nested too deep'
bad "$(printf 'cpu<1||%.0s' $(seq 32))cpu<1" 'column 229: too many terms'
bad "cpu == 1 && $(printf '%0300d' 0)" ''
is "the filter in force is unchanged" "$(cat $F)" 'comm == tpfire_a'
echo 1 > $TP/count/reset
fire_as tpfire_a 7
fire_as tpfire_b 5
is "and counts as exactly as before" "$(hits)" 7

echo 1 > $TP/count/reset
is "a reset keeps the filter" "$(cat $F)" 'comm == tpfire_a'
echo 0 > $F
is "'0' lifts it" "$(cat $F)" none
fire_as tpfire_b 5
is "then every event counts" "$(hits) $(stat_of count filter.rejected)" "5 0"
echo 'cpu == 1' > $F
is "an empty line is accepted" "$(write_error $F '\n')" accepted
is "and lifts it too" "$(cat $F)" none
unload_all
