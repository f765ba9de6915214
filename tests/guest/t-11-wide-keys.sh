# SPDX-License-Identifier: GPL-2.0
# Wide keys: keyed data and a table by the firing task's comm (16 bytes),
# keyed data by
# (key, start or end), from both CPUs and from hard IRQ context, with
# keys that share their first eight bytes kept apart, and an other row.

plan 13

PAIR=/sys/kernel/debug/tpstat_test/pair
pair() { taskset -c "$1" sh -c "echo '$2 $3 $4' > $PAIR"; }
# as_comm NAME CPU N: N events fired by a task named NAME on CPU.
as_comm() { taskset -c "$2" sh -c "printf $1 > /proc/self/comm; echo $3 > $FIRE"; }
wide() { stat_of test "wide.$1"; }

load tpstat
load tpstat_test_tp
load tpstat_test_probe
echo 1 > $TP/test/reset

as_comm tpstat-wide-aaa 0 10
as_comm tpstat-wide-aaa 1 20
as_comm tpstat-wide-aab 0 7
is "a comm's events from both CPUs" "$(wide tpstat-wide-aaa.count)" 30
is "on cpu0" "$(wide tpstat-wide-aaa.cpu0)" 10
is "on cpu1" "$(wide tpstat-wide-aaa.cpu1)" 20
is "a comm that differs only after 8 bytes is its own key" \
	"$(wide tpstat-wide-aab.count)" 7
is "no other yet" "$(wide other)" 0
is "a wide table keyed by comm" "$(stat_of test wtable.tpstat-wide-aaa.count)" 30
is "keeps the two comms apart" "$(stat_of test wtable.tpstat-wide-aab.count)" 7

echo 1 > $TP/test/reset
pair 1 hstart 5 3
pair 0 start 5 3
is "a pair key from hard IRQ and task context" "$(wide pair-5-0.count)" 2
is "once on cpu1, in hard IRQ context" "$(wide pair-5-0.cpu1)" 1
is "once on cpu0" "$(wide pair-5-0.cpu0)" 1
is "(5, start) and (5, end) are two keys" "$(wide pair-5-1.count)" none

# 16 keys fit: 3 are held, 13 more fit, the last 7 of 20 go to other.
pair 0 end 100 20
is "keys beyond the capacity go to other" "$(wide other)" 7
is "the keys that fit are whole" "$(wide pair-112-1.count)" 1
unload_all
