# SPDX-License-Identifier: GPL-2.0
# tpstat_stack's offcpu entry against sleeps driven on purpose: a task
# that sleeps N times M ms with nanosleep() shows one row, its stack from
# __schedule() through the nanosleep syscall's sleep path, with exactly N
# waits, at least N*M ms less a little a sleep (the time between arming
# the timer and switching out, which runs on the CPU) and at most the
# wall-clock time the task measured around its sleeps; the same row
# folded, outermost first, with its microseconds; a wait held across a
# reset goes to other, never to a row of the new generation, and is not
# lost; the entry goes with "!offcpu"; a full table sends them to other.

plan 10

S=$TP/stack
C=$S/control
SL=/payload/bin/sched-load
N=10 M=50
# The time a sleep may spend on the CPU between the timer's arming and
# the switch out, in ms: as t-41, 1, and 2 on the debug kernel.
below=1
debug_kernel && below=2

load tpstat
check "tpstat_stack.ko loads" load tpstat_stack
echo 'offcpu by stack,comm' > $C
is "control lists the offcpu entry" "$(cat $C)" "offcpu by stack,comm"
F=$S/offcpu/stacks

# sleeper_row FILE: over the rows of FILE under the command tpssleep whose
# stack holds do_nanosleep, their number, and of the first its
# microseconds, waits, first frame and whether it holds the syscall's
# entry to the sleep (hrtimer_nanosleep, from a *nanosleep syscall).
sleeper_row() {
	awk '
		function row() {
			if (sleep && comm) {
				rows++
				if (rows == 1)
					got = us " " waits " " top " " (hr && sys)
			}
			n = sleep = comm = hr = sys = 0
		}
		/^$/ { row(); next }
		/^    comm tpssleep$/ { comm = 1; next }
		/ us in [0-9]+ waits$/ { us = $1; waits = $4; next }
		{
			n++
			if (n == 1)
				top = $1
			sub(/\+.*/, "", $1)
			if ($1 == "do_nanosleep")
				sleep = 1
			if ($1 == "hrtimer_nanosleep")
				hr = 1
			if ($1 ~ /^__(x64|ia32)_sys_(clock_)?nanosleep$/)
				sys = 1
		}
		END { row(); print rows + 0, (got == "" ? "none" : got) }' "$1"
}

out=$($SL sleep $N $M)
set -- $out
wall=$3
set -- $(sleeper_row $F)
is "tpssleep: one row through do_nanosleep, $N waits, from __schedule through hrtimer_nanosleep and the syscall" \
	"$1 $3 ${4%%+*} $5" "1 $N __schedule 1"
[ "$1 $3 ${4%%+*} $5" = "1 $N __schedule 1" ] || sed 's/^/# /' $F
us=$2
sed 's/^/# /' $F | head -n 40
within "tpssleep: its off-CPU time, $N sleeps of $M ms less $below ms each, at most the $wall ns they took" \
	$((us * 1000)) $((N * (M - below) * 1000000)) $wall

# folded: the row outermost first, its command then the syscall's entry,
# down to __schedule, with its microseconds.
FO=$S/offcpu/folded
is "folded: tpssleep's line, from its command to __schedule, with its $us us" \
	"$(grep -c "^tpssleep;.*;do_nanosleep;schedule;__schedule $us\$" $FO)" 1

# A wait held before a reset is of a generation the reset dropped: it ends
# in other, whole, never in a row of the new one.
echo 1 > $S/offcpu/reset
$SL sleep 1 1500 > /dev/null &
sleep 0.5
echo 1 > $S/offcpu/reset
wait
set -- $(sleeper_row $F)
is "reset: no row of tpssleep's sleep held before it" "$1" 0
within "reset: other holds its 1500 ms wait, at least" \
	"$(stat_of stack/offcpu other.waited)" $(((1500 - below) * 1000000)) \
	$((1 << 62))
is "no task found the table full" "$(stat_of stack/offcpu tasks.dropped)" 0

echo '!offcpu' > $C
check "!offcpu removes it, and its directory" \
	sh -c "[ -z \"\$(cat $C)\" ] && [ ! -e $S/offcpu ]"

# A table of one stack, which the first task to block after the attach
# takes: tpssleep's waits are in its row, if it was that task, or else in
# other, with their time; never lost.
rmmod tpstat_stack
load tpstat_stack max_stacks=1 'tracepoints="offcpu by stack,comm"'
$SL sleep $N $M > /dev/null
set -- $(sleeper_row $F)
other=$(stat_of stack/offcpu other)
waited=$(stat_of stack/offcpu other.waited)
if [ "$1" = 1 ]; then
	got="row $3"
elif [ "$other" -ge $N ] && [ "$waited" -ge $((N * (M - below) * 1000000)) ]; then
	got="other $N"
else
	got="lost: $other in other, $waited ns"
fi
is "a full table: tpssleep's $N waits in its row or in other, with their time" \
	"${got#* }" $N
unload_all
