# SPDX-License-Identifier: GPL-2.0
# Counting instances, under the count set: a process tree followed as it
# forks, its forks and execs exact against what it was made to do while
# unrelated forks run beside it; a process whose second thread execs, kept
# in scope under the pid it keeps; the scope's count of tasks against the
# tasks /proc has, after resets during a fork loop; two instances on one
# tracepoint with scopes of their own (one of two processes, the second
# added with +PID, listed in its scope file), each exact, one removed and the
# other unchanged; names, pids and the bound on instances refused;
# instances made and removed in a loop, each exact, their tracepoints,
# memory and files all given back.

plan 29

I=$TP/count/instances

# What an instance's life leaves behind, for before and after: the
# instances, tpstat's files, its memory file, tpstat_count's vmalloc areas.
leftovers() {
	echo "instances: $(cat $I | tr '\n' ' ')"
	echo "files: $(find $TP | wc -l)"
	grep total $TP/memory
	echo "vmalloc: $(grep -c '\[tpstat_count\]' /proc/vmallocinfo)"
}

load tpstat
load tpstat_test_tp
check "tpstat_count.ko loads with max_instances=3" load tpstat_count max_instances=3

echo tree > $I
check "an instance has a directory of its own" test -d $TP/count/tree
is "instances lists it" "$(cat $I)" tree
echo sched_process_fork > $TP/count/tree/control
echo sched_process_exec > $TP/count/tree/control
is "its control lists its tracepoints" "$(cat $TP/count/tree/control | tr '\n' ' ')" \
	"sched_process_fork sched_process_exec "
is "its scope is every task at first" "$(cat $TP/count/tree/scope)" all

# forker waits for a byte before it forks: scoped first, then let go.
rm -f /tmp/stop-forks /tmp/gate
mkfifo /tmp/gate
( while [ ! -e /tmp/stop-forks ]; do sh -c :; done ) &
beside=$!
/payload/bin/forker 5 3 < /tmp/gate &
forker=$!
echo $forker > $TP/count/tree/scope
is "scoped to the forker, one task in it" "$(cat $TP/count/tree/scope)" "$forker, 1 tasks"
echo 1 > $TP/count/tree/reset
until echo go > /tmp/gate; do :; done 2>/dev/null
wait $forker
is "the forker ran as planned" $? 0
touch /tmp/stop-forks
wait $beside
is "5 children and 15 grandchildren: 20 forks, no other" \
	"$(stat_of count/tree sched_process_fork.hits)" 20
# The shell that runs forker opens the gate, then execs it: in scope too.
is "6 execs: forker's own, then its 5 children's" \
	"$(stat_of count/tree sched_process_exec.hits)" 6
is "every task of the tree gone from the scope as it exited" \
	"$(await_tasks tree 0) $(cat $TP/count/tree/scope)" "0 $forker, 0 tasks"

# thread-exec's second thread execs forker: de_thread() hands it the
# leader's pid, the leader exits, and the process goes on under its pid as
# another task. It stays in scope: thread-exec's exec and clone, then
# forker's exec, its 5 children's execs and their 20 forks, all counted.
rm -f /tmp/stop-forks
( while [ ! -e /tmp/stop-forks ]; do sh -c :; done ) &
beside=$!
/payload/bin/thread-exec /payload/bin/forker 5 3 < /tmp/gate &
te=$!
echo $te > $TP/count/tree/scope
echo 1 > $TP/count/tree/reset
until echo go > /tmp/gate; do :; done 2>/dev/null
wait $te
is "a second thread's exec of forker: it ran as planned" $? 0
touch /tmp/stop-forks
wait $beside
is "21 forks: the thread's clone, then forker's 20" \
	"$(stat_of count/tree sched_process_fork.hits)" 21
is "7 execs: thread-exec's, the thread's of forker, forker's 5 children's" \
	"$(stat_of count/tree sched_process_exec.hits)" 7
is "no task of it left in the scope, nor the pid the thread had" \
	"$(await_tasks tree 0) $(cat $TP/count/tree/scope)" "0 $te, 0 tasks"

# The scope reset (the same pid written again) 40 times while its shell
# forks, with a filter that keeps each fork probe busy longer between its
# look at the scope and its count of it. Each reset leaves the shell
# alone in scope; then it starts two sleeps, and its tasks are the three.
rm -f /tmp/stop-loop /tmp/sleeps
sh -c 'while [ ! -e /tmp/stop-loop ]; do sh -c :; done
	sleep 600 & a=$!; sleep 600 & echo "$a $!" > /tmp/sleeps; wait' &
loop=$!
echo 'pid > 0 && tgid > 0 && cpu >= 0 && comm != tpstat_nothing' > $TP/count/tree/filter
i=0
while [ $i -lt 40 ]; do
	echo $loop > $TP/count/tree/scope
	i=$((i + 1))
done
touch /tmp/stop-loop
n=0
while [ ! -s /tmp/sleeps ] && [ $n -lt 100 ]; do
	n=$((n + 1))
	sleep 0.1
done
live=$(tree_tasks $loop)
is "after 40 resets in a fork loop: the scope's tasks are /proc's" \
	"$live $(await_tasks tree "$live")" "3 3"
kill $(cat /tmp/sleeps)
wait $loop
is "and none once they exited" "$(await_tasks tree 0)" 0
echo > $TP/count/tree/filter

# Two instances on one tracepoint: each counts only its own task's events.
echo one > $I
echo two > $I
for i in one two; do
	echo tpstat_test_fire > $TP/count/$i/control
done
rm -f /tmp/gate1 /tmp/gate2
mkfifo /tmp/gate1 /tmp/gate2
sh -c "read x < /tmp/gate1; echo 7 > $FIRE" &
a=$!
sh -c "read x < /tmp/gate2; echo 4 > $FIRE" &
b=$!
# One's scope is both shells, the second added with "+PID" (and the
# first added again, which changes nothing); two's is the second's alone.
echo $a > $TP/count/one/scope
echo "+$b" > $TP/count/one/scope
echo "+$a" > $TP/count/one/scope
echo $b > $TP/count/two/scope
is "+PID: the scope lists both pids, the one written twice once" \
	"$(cat $TP/count/one/scope)" "$a $b, 2 tasks"
# Eight more: the file lists the first eight pids, then how many more.
sleeps=
for i in 1 2 3 4 5 6 7 8; do
	sleep 60 &
	sleeps="$sleeps $!"
	echo "+$!" > $TP/count/one/scope
done
is "+PID: eight pids listed, then how many more" "$(cat $TP/count/one/scope)" \
	"$a $b $(echo $sleeps | cut -d ' ' -f 1-6) and 2 more, 10 tasks"
kill $sleeps
wait $sleeps 2>/dev/null
# Opening a FIFO waits for its reader, and a child's exit may interrupt
# the wait: try again until the line is through.
until echo go > /tmp/gate1; do :; done 2>/dev/null
until echo go > /tmp/gate2; do :; done 2>/dev/null
wait $a $b
fire 3
is "instance one: its two shells' 7 and 4" "$(stat_of count/one tpstat_test_fire.hits)" 11
is "instance two: its shell's 4" "$(stat_of count/two tpstat_test_fire.hits)" 4
echo '!one' > $I
check "removing one takes its directory" sh -c "! [ -e $TP/count/one ]"
is "and leaves two's count as it was" "$(stat_of count/two tpstat_test_fire.hits)" 4

# Refused: a fourth instance, a name taken, a bad name, a pid no task has.
echo three > $I
is "max_instances=3: a fourth is refused" "$(write_error $I four)" ENOSPC
is "a name taken" "$(write_error $I two)" EEXIST
is "a name that is not an identifier" "$(write_error $I 'a b')" EINVAL
is "a pid no task has" "$(write_error $TP/count/two/scope 4000000)" ESRCH
is "removing what is not there" "$(write_error $I '!nine')" ENOENT

# With room for 8 tracepoints, 40 instances of 3 tracepoints each, made
# and removed one after the other: each gets its 3, counts exactly, and
# gives all it took back.
rmmod tpstat_count
load tpstat_count max_tracepoints=8 max_instances=1
before=$(leftovers)
good=0
i=0
while [ $i -lt 40 ]; do
	echo "loop$i" > $I || break
	echo tpstat_test_fire > $TP/count/loop$i/control &&
		echo sched_process_exec > $TP/count/loop$i/control &&
		echo sched_switch > $TP/count/loop$i/control || break
	echo $$ > $TP/count/loop$i/scope
	fire 2
	[ "$(stat_of count/loop$i tpstat_test_fire.hits)" = 2 ] || break
	echo "!loop$i" > $I || break
	i=$((i + 1))
	good=$i
done
is "40 instances in turn, 3 tracepoints each, each exact" $good 40
is "no instance, file, memory or vmalloc area left of them" "$(leftovers)" "$before"
unload_all
