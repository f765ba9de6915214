# SPDX-License-Identifier: GPL-2.0
# Task tables: each task that fires gets words of its own, from either CPU
# and from a hard IRQ on it, kept across CPUs, zeroed by a re-attach and
# released when the task is freed; a full table drops, or evicts words
# from before a re-attach. Keyed data found through a hint in those words
# follows a rename and a reset.

plan 24

ts() { stat_of test_tasks "tasks.$1"; }
# on CPU SCRIPT: SCRIPT run by a shell of its own on CPU.
on() { taskset -c "$1" sh -c "$2"; }
TASK=$TP/test_tasks/task
E=$TP/test_tasks/enable

# Freed tasks release their words an RCU grace period after they are
# reaped: wait until the table holds WANT tasks again, at most 5 s.
held_settles() {
	n=0
	while [ "$(ts held)" != "$1" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	ts held
}

load tpstat
load tpstat_test_tp
load tpstat_test_tasks
is "the core probes sched_process_free for the set" \
	"$(state_of test_tasks sched_process_free)" attached
is "no task has words yet" "$(ts held)" 0
is "a reader that never fired has none" "$(cat $TASK)" none

is "a task's events on cpu0, in its own words" \
	"$(on 0 "echo 100 > $FIRE; cat $TASK")" "events 100"
is "on cpu1" "$(on 1 "echo 70 > $FIRE; cat $TASK")" "events 70"
is "each shell was given words once" "$(ts claimed)" 2
is "from hard IRQ context, the interrupted task's" \
	"$(on 1 "echo '40 0 irq' > $FIRE; echo 2 > $FIRE; cat $TASK")" "events 42"
is "one task that moves keeps its words" \
	"$(on 0 "echo 30 > $FIRE; taskset -p 2 \$\$ > /dev/null; echo 12 > $FIRE; cat $TASK")" \
	"events 42"
is "four tasks, four claims" "$(ts claimed)" 4
is "their words go when they are freed" "$(held_settles 0)" 0
is "four released" "$(ts released)" 4
is "none dropped" "$(ts dropped)" 0

is "words from before a re-attach are zeroed" \
	"$(on 0 "echo 10 > $FIRE; echo 0 > $E; echo 1 > $E; echo 5 > $FIRE; cat $TASK")" \
	"events 5"

# By comm, through the hint: a rename moves the events with the name, and
# a reset (a new generation) is found again.
on 0 "printf tpsone > /proc/self/comm; echo 20 > $FIRE; printf tpstwo > /proc/self/comm; echo 6 > $FIRE"
is "tpsone's even values" "$(stat_of test_tasks comms.tpsone.even)" 10
is "tpsone's odd values" "$(stat_of test_tasks comms.tpsone.odd)" 10
is "the rename's events under the new name" "$(stat_of test_tasks comms.tpstwo.even) $(stat_of test_tasks comms.tpstwo.odd)" "3 3"
on 1 "printf tpsthree > /proc/self/comm; echo 4 > $FIRE; echo 1 > $TP/test_tasks/reset; echo 8 > $FIRE"
is "after a reset, a hint from before still finds its row" "$(stat_of test_tasks comms.tpsthree.even)" 4
is "only the events after it" "$(stat_of test_tasks comms.tpsthree.odd)" 4
rmmod tpstat_test_tasks

# A table of two: a third task gets none while two live tasks hold theirs,
# then, after a re-attach, takes the words of one of them.
load tpstat_test_tasks task_slots=2
# Each the shell taskset runs, then sleep in its place: one pid to kill.
taskset -c 0 sh -c "echo 1 > $FIRE; exec sleep 30" &
a=$!
taskset -c 1 sh -c "echo 1 > $FIRE; exec sleep 30" &
b=$!
n=0
while [ "$(ts held)" != 2 ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
is "two tasks hold the two slots" "$(ts held)" 2
is "a third gets no words" "$(on 0 "echo 3 > $FIRE; cat $TASK")" none
is "its ask is counted as dropped" "$(ts dropped)" 3
echo 0 > $E
echo 1 > $E
is "after a re-attach it takes stale words" \
	"$(on 1 "echo 3 > $FIRE; cat $TASK")" "events 3"
is "counted as evicted" "$(ts evicted)" 1
kill $a $b
wait
is "all released in the end" "$(held_settles 0)" 0
rmmod tpstat_test_tasks
