# SPDX-License-Identifier: GPL-2.0
# tpstat_stack against events driven from known places: the test event
# fired from two call paths, exactly two stacks with exactly their counts,
# each starting at the function that fired it, with another probe on the
# tracepoint too, and after churn of the entry and of the tracepoint's
# module while it fires; by comm, two commands' exact counts; by pid and
# cpu; by tgid and pid, a process's two threads; the same rows folded for
# flame graphs, keys outermost, counts adding up; a kmalloc from a known
# function, its stack's exact count; a one-stack table, the rest in
# other, nothing lost; depth= cutting a stack; stacks forced to one hash
# kept apart; bad control lines refused; no address printed anywhere;
# stacks taken in a hard IRQ, and in one that interrupted a softirq,
# holding the interrupt's path and what it interrupted.

plan 43

S=$TP/stack
C=$S/control
P=/sys/kernel/debug/tpstat_test/paths

load tpstat
load tpstat_test_tp
check "tpstat_stack.ko loads" load tpstat_stack

# block FILE FUNCTION: the count of the row of FILE whose stack holds
# FUNCTION (rows are separated by blank lines, the count last), and the
# first frame of that stack, or "none".
block() {
	awk -v f="$2+" '
		/^$/ { if (hit) { print count, first; found = 1; exit } n = 0; next }
		{ n++; if (n == 1) first = $1; count = $1 }
		index($1, f) == 1 { hit = 1 }
		END { if (!found) print (hit ? count " " first : "none") }' "$1"
}
entry() { stat_of "stack/$1" "$2"; }

echo 'tpstat_test_fire by stack' > $C
is "control lists the entry" "$(cat $C)" "tpstat_test_fire by stack"
check "its directory holds its stacks" test -r $S/tpstat_test_fire/stacks
echo 'a 300' > $P
echo 'b 500' > $P
is "two call paths: two stacks" "$(entry tpstat_test_fire rows)" 2
is "busiest first: 500, then 300" \
	"$(entry tpstat_test_fire row.stack1) $(entry tpstat_test_fire row.stack2)" "500 300"
F=$S/tpstat_test_fire/stacks
row_a=$(block $F tpstat_test_path_a)
row_b=$(block $F tpstat_test_path_b)
is "path a's stack: its 300, starting in the function that fired" \
	"${row_a%%+*}" "300 tpstat_test_path_a"
is "path b's stack: its 500, starting in the function that fired" \
	"${row_b%%+*}" "500 tpstat_test_path_b"
check "the frames are named function+0xoff/0xsize [module]" \
	grep -q '^    tpstat_test_path_a+0x[0-9a-f]*/0x[0-9a-f]* \[tpstat_test_tp\]$' $F

# folded: every row on a line, outermost frame first, without offsets.
# Path a's line is its stack in the stacks file turned round, its 300
# last; the lines add up to the 800 events fired.
FO=$S/tpstat_test_fire/folded
# unfold FILE FUNCTION: the frames of FILE's row whose stack holds
# FUNCTION, outermost first, as folded names them.
unfold() {
	awk -v f="$2+" '
		/^$/ { if (hit) exit; n = 0; next }
		/^        [0-9]/ { next }
		{ sub(/^ +/, "") }
		index($0, f) == 1 { hit = 1 }
		{ sub(/\+0x[0-9a-f]*\/0x[0-9a-f]*/, ""); fr[++n] = $0 }
		END { for (i = n; i > 0; i--) printf "%s%s", fr[i], (i > 1 ? ";" : "\n") }' "$1"
}
is "folded: one line ends in path a's frame, with its 300" \
	"$(grep -c ';tpstat_test_path_a \[tpstat_test_tp\] 300$' $FO)" 1
is "folded: path a's and b's lines, their stacks turned round, no offsets" \
	"$(grep -xF "$(unfold $F tpstat_test_path_a) 300" $FO | wc -l) $(grep -xF "$(unfold $F tpstat_test_path_b) 500" $FO | wc -l) $(grep -c '+0x' $FO)" \
	"1 1 0"
is "folded: three lines (two rows, other), adding up to the 800 fired" \
	"$(wc -l < $FO) $(awk '{ s += $NF } END { print s }' $FO) $(entry tpstat_test_fire events)" \
	"3 800 800"

# A second probe on the tracepoint puts its iterator between the firing
# function and the probe: the stacks must not change.
load tpstat_count tracepoints=tpstat_test_fire
echo 'a 10' > $P
is "with a second probe on it: still two stacks" "$(entry tpstat_test_fire rows)" 2
row_a=$(block $F tpstat_test_path_a)
is "and path a's grew by 10, from the same first frame" \
	"${row_a%%+*}" "310 tpstat_test_path_a"

# Churn under both probes, the tracepoint firing in a loop on CPU 1: the
# entry removed and added 30 times from CPU 0 (each removal detaches a
# probe that may be running), then the tracepoint's module reloaded 10
# times (each unload clears the tracepoint the probes had). The log stays
# clean (run-tests checks it), and the stacks are still exact, the
# iterator of the tracepoint as reloaded left out.
rm -f /tmp/stop-fire
taskset -c 1 sh -c "while [ ! -e /tmp/stop-fire ]; do echo 'a 50' > $P; done" &
firer=$!
i=0
while [ $i -lt 30 ]; do
	taskset -c 0 sh -c "echo '!tpstat_test_fire' > $C && echo 'tpstat_test_fire by stack' > $C" ||
		break
	i=$((i + 1))
done
touch /tmp/stop-fire
wait $firer
n=0
while [ $n -lt 10 ]; do
	rmmod tpstat_test_tp && load tpstat_test_tp || break
	n=$((n + 1))
done
echo 1 > $S/tpstat_test_fire/reset
echo 'a 10' > $P
row_a=$(block $F tpstat_test_path_a)
is "30 removals and adds while it fired, 10 reloads, a reset: path a's 10 alone" \
	"$i $n $(entry tpstat_test_fire rows) ${row_a%%+*}" "30 10 1 10 tpstat_test_path_a"
rmmod tpstat_count

# By command, and by pid and CPU.
echo '!tpstat_test_fire' > $C
check "removed, its directory goes" sh -c "! [ -e $S/tpstat_test_fire ]"
echo 'tpstat_test_fire by comm' > $C
sh -c "printf tpcomm_a > /proc/self/comm; echo 7 > $FIRE"
sh -c "printf tpcomm_b > /proc/self/comm; echo 4 > $FIRE"
is "by comm: one row each" \
	"$(entry tpstat_test_fire row.comm.tpcomm_a) $(entry tpstat_test_fire row.comm.tpcomm_b)" \
	"7 4"
is "folded by comm: the command as the only frame, then other" \
	"$(sort $S/tpstat_test_fire/folded)" "$(printf '[other] 0\ntpcomm_a 7\ntpcomm_b 4')"
echo '!tpstat_test_fire' > $C
echo 'tpstat_test_fire by pid,cpu' > $C
taskset -c 1 sh -c "echo \$\$ > /tmp/stack-pid; echo 6 > $FIRE"
is "by pid and cpu: the shell's 6, on CPU 1" \
	"$(entry tpstat_test_fire "row.pid.$(cat /tmp/stack-pid).cpu.1")" 6
echo '!tpstat_test_fire' > $C
echo 'tpstat_test_fire by stack,comm' > $C
sh -c "printf tpcomm_c > /proc/self/comm; echo 'a 9' > $P"
is "by stack and comm: the stack's row holds the command" \
	"$(entry tpstat_test_fire row.stack1.comm.tpcomm_c)" 9
check "folded by stack and comm: the command outermost, path a's frame last" \
	grep -qx 'tpcomm_c;.*;tpstat_test_path_a \[tpstat_test_tp\] 9' $S/tpstat_test_fire/folded
echo '!tpstat_test_fire' > $C

# By tgid, then by pid and tgid: a process whose two threads fire, the
# kernel's ids as the helper's getpid() and gettid() give them.
echo 'tpstat_test_fire by tgid' > $C
ids=$(/payload/bin/thread-fire $FIRE 7 5)
is "by tgid: a process's two threads in one row, 12" \
	"$(entry tpstat_test_fire rows) $(entry tpstat_test_fire "row.tgid.${ids% *}")" "1 12"
echo '!tpstat_test_fire' > $C
echo 'tpstat_test_fire by pid,tgid' > $C
ids=$(/payload/bin/thread-fire $FIRE 3 4)
pid=${ids% *} tid=${ids#* }
is "by pid and tgid: a row per thread, both under the process" \
	"$(entry tpstat_test_fire rows) $(entry tpstat_test_fire "row.pid.$pid.tgid.$pid") $(entry tpstat_test_fire "row.pid.$tid.tgid.$pid")" \
	"2 3 4"
echo '!tpstat_test_fire' > $C

# A kmalloc from a known function: the kernel allocates too, but that
# function's stack counts exactly the allocations driven.
load tpstat_test_kmem
echo 'kmalloc by stack' > $C
echo '1000 100' > /sys/kernel/debug/tpstat_test_kmem/alloc
row=$(block $S/kmalloc/stacks tpstat_test_kmem_alloc)
is "kmalloc by stack: tpstat_test_kmem_alloc's stack counts its 1000" "${row%% *}" 1000
[ "${row%% *}" = 1000 ] || head -n 60 $S/kmalloc/stacks | sed 's/^/# /'
echo '!kmalloc' > $C

# Bad lines: refused, nothing added.
for bad in 'kmalloc' 'kmalloc by' 'kmalloc by foo' 'kmalloc by stack,stack' \
	'1abc by stack' 'kmalloc with stack'; do
	is "'$bad' is refused" "$(write_error $C "$bad")" EINVAL
done
is "removing what is not counted" "$(write_error $C '!kmalloc')" ENOENT
is "control is empty" "$(cat $C)" ""

# One stack of room: the other path's events in other, none lost.
rmmod tpstat_stack
check "tpstat_stack.ko loads with max_stacks=1 and an entry" \
	load tpstat_stack max_stacks=1 top=1 'tracepoints="tpstat_test_fire by stack"'
echo 'a 30' > $P
echo 'b 20' > $P
is "one row of 30, other 20: all 50 events" \
	"$(entry tpstat_test_fire rows) $(entry tpstat_test_fire row.stack1) $(entry tpstat_test_fire other) $(entry tpstat_test_fire events) $(entry tpstat_test_fire tpstat_test_fire.hits)" \
	"1 30 20 50 50"
check "the stacks file says what other holds" \
	grep -q '^other: 20 events, whose stacks did not fit (max_stacks=1)$' $F
is "folded: the 20 that did not fit on a line of their own, all 50 there" \
	"$(grep -x '\[other\] [0-9]*' $FO) $(awk '{ s += $NF } END { print s }' $FO)" "[other] 20 50"
leaks=$(address_leaks $S/control $F $FO $S/tpstat_test_fire/stats)
is "no address in any base in its files" "$leaks" ""

# depth=2: path a's stack cut to the function that fired and its caller,
# the paths file's write (tests/modules/fire.c).
rmmod tpstat_stack
check "tpstat_stack.ko loads with depth=2" \
	load tpstat_stack depth=2 'tracepoints="tpstat_test_fire by stack"'
echo 'a 8' > $P
is "depth=2: two frames, the firing function and its caller, 8 events" \
	"$(awk 'NR > 2 && /^    [^ ]/ { sub(/\+.*/, "", $1); printf "%s ", $1 }
		/^        [0-9]/ { print $1 }' $F)" \
	"tpstat_test_path_a tpstat_test_paths_write 8"

# Every stack hashed alike (collide=1): two paths, and one path under two
# commands, are kept apart by comparing stacks and keys whole.
rmmod tpstat_stack
check "tpstat_stack.ko loads with collide=1" \
	load tpstat_stack collide=1 'tracepoints="tpstat_test_fire by stack"'
echo 'a 30' > $P
echo 'b 20' > $P
is "one hash for all: two stacks still, 30 and 20" \
	"$(entry tpstat_test_fire rows) $(entry tpstat_test_fire row.stack1) $(entry tpstat_test_fire row.stack2)" \
	"2 30 20"
echo '!tpstat_test_fire' > $C
echo 'tpstat_test_fire by stack,comm' > $C
sh -c "printf tpcomm_x > /proc/self/comm; echo 'a 3' > $P"
sh -c "printf tpcomm_y > /proc/self/comm; echo 'a 4' > $P"
sh -c "printf tpcomm_z > /proc/self/comm; echo 'b 5' > $P"
is "one hash for all: one stack under two commands, two rows" \
	"$(entry tpstat_test_fire rows) $(entry tpstat_test_fire row.stack1.comm.tpcomm_z) $(entry tpstat_test_fire row.stack2.comm.tpcomm_y) $(entry tpstat_test_fire row.stack3.comm.tpcomm_x)" \
	"3 5 4 3"

# In interrupt context: irq_handler_entry, fired by the handler loop for
# each of the two handlers of tpstat_test_irq.ko's line, in a hard IRQ its
# irq_work raises (tests/modules/irq.c). Every stack through the line's
# flow handler (handle_simple_irq, which no other line here uses) starts
# at the function that fired (the kernel's handler loop), holds the
# irq_work interrupt's entry, and crosses from the IRQ stack to what was
# interrupted: the module's function that raised it, from the write that
# asked for the interrupts or from the tasklet (a softirq) that did. These
# count exactly 2 per interrupt; other interrupts have stacks of their own.
# irq_rows FILE FIRST FUNCTION...: over the rows of FILE whose stack holds
# the first FUNCTION, their events, their number, and how many of them
# start at FIRST and hold every FUNCTION.
irq_rows() {
	awk -v first="$2+" -v need="$(shift 2; echo "$@")" '
		function row() {
			if (has[w[1]]) {
				rows++
				events += count
				ok = index(top, first) == 1
				for (i = 1; i <= k; i++)
					if (!has[w[i]])
						ok = 0
				good += ok
			}
			split("", has)
			n = 0
		}
		BEGIN { k = split(need, w, " "); for (i = 1; i <= k; i++) w[i] = w[i] "+" }
		/^$/ { row(); next }
		{
			n++
			if (n == 1)
				top = $1
			count = $1
			f = $1
			sub(/\+.*/, "+", f)
			has[f] = 1
		}
		END { row(); print events + 0, rows + 0, good + 0 }' "$1"
}
rmmod tpstat_stack
load tpstat_stack depth=32
load tpstat_test_irq
TI=/sys/kernel/debug/tpstat_test_irq
echo 'irq_handler_entry by stack' > $C
IF=$S/irq_handler_entry/stacks
echo 40 > $TI/fire
got=$(irq_rows $IF __handle_irq_event_percpu handle_simple_irq sysvec_irq_work tpstat_test_fire tpstat_test_repeat_write)
is "hard IRQ: 40 interrupts' 80 events, every stack from the handler loop through the irq_work interrupt to the write it interrupted" \
	"${got%% *} $(echo $got | awk '{ print ($2 > 0 && $2 == $3) }')" "80 1"
[ "${got%% *} $(echo $got | awk '{ print ($2 == $3) }')" = "80 1" ] || sed 's/^/# /' $IF
echo 1 > $S/irq_handler_entry/reset
echo 30 > $TI/fire_in_tasklet
got=$(irq_rows $IF __handle_irq_event_percpu handle_simple_irq sysvec_irq_work tpstat_test_irq_in_tasklet)
is "in a softirq: 30 interrupts of a tasklet, 60 events, every stack from the handler loop through the interrupt to the tasklet it interrupted" \
	"${got%% *} $(echo $got | awk '{ print ($2 > 0 && $2 == $3) }')" "60 1"
[ "${got%% *} $(echo $got | awk '{ print ($2 == $3) }')" = "60 1" ] || sed 's/^/# /' $IF
echo '!irq_handler_entry' > $C
unload_all
