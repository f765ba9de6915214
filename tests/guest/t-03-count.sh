# SPDX-License-Identifier: GPL-2.0
# The generic counter: exact counts, per CPU, runtime control, and a real
# tracepoint checked against the kernel's own fork counter.

plan 19

# Forks since boot, from /proc/stat, read without forking.
forks() {
	while read -r k v; do
		[ "$k" = processes ] && echo "$v"
	done < /proc/stat
}

load tpstat
load tpstat_test_tp
check "loads with tracepoints=" load tpstat_count tracepoints=tpstat_test_fire
is "control lists it" "$(cat $TP/count/control)" tpstat_test_fire
fire 777
is "exact count" "$(stat_of count tpstat_test_fire.hits)" 777
check "counts file shows the total" \
	grep -q '^tpstat_test_fire  *attached  *777 ' $TP/count/counts
check "counts file starts with the reset header" \
	sh -c "head -n1 $TP/count/counts | grep -q '^# count/counts: '"

echo 1 > $TP/count/reset
fire_on 0 300
fire_on 1 200
is "cpu0 count" "$(stat_of count tpstat_test_fire.cpu0)" 300
is "cpu1 count" "$(stat_of count tpstat_test_fire.cpu1)" 200
is "total is the sum of the CPUs" "$(stat_of count tpstat_test_fire.hits)" 500

check "a typed set counts the same tracepoint alongside" load tpstat_test_probe
fire 50
is "generic count" "$(stat_of count tpstat_test_fire.hits)" 550
is "typed count" "$(stat_of test tpstat_test_fire.hits)" 50
rmmod tpstat_test_probe

check "control adds sched_process_fork" sh -c "echo sched_process_fork > $TP/count/control"
is "it is a core tracepoint, attached" "$(state_of count sched_process_fork)" attached
before=$(forks)
c0=$(stat_of count sched_process_fork.hits)
i=0
while [ $i -lt 40 ]; do
	sh -c :
	i=$((i + 1))
done
after=$(forks)
c1=$(stat_of count sched_process_fork.hits)
# Every $(...) forks too: both sides count two of them (the tracepoint fires
# before the child reads). Kernel threads may start meanwhile, hence +-2.
within "forks counted match /proc/stat" $((c1 - c0)) $((after - before - 2)) $((after - before + 2))
within "at least the 40 forks driven" $((c1 - c0)) 40 100

check "control removes it" sh -c "echo '!sched_process_fork' > $TP/count/control"
is "it is gone" "$(state_of count sched_process_fork)" none
is "removing it again" "$(write_error $TP/count/control '!sched_process_fork')" ENOENT
is "adding a name twice" "$(write_error $TP/count/control tpstat_test_fire)" EEXIST
unload_all
