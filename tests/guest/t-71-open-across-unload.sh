# SPDX-License-Identifier: GPL-2.0
# A reader keeps a file open while the module behind it goes away.

plan 7

load tpstat
load tpstat_test_tp
load tpstat_test_probe
fire 10

exec 3< $TP/test/stats
exec 4< $TP/test/hist
check "an open file reads before the unload" sh -c 'read -r line <&3 && [ -n "$line" ]'
check "a set unloads while its files are open" rmmod tpstat_test_probe
check "the next read fails" sh -c '! cat <&3 >/dev/null 2>&1'
check "so does another file's" sh -c '! cat <&4 >/dev/null 2>&1'
exec 3<&- 4<&-

load tpstat_test_probe
exec 3< $TP/probes
check "the core stays while its own file is open" sh -c '! rmmod tpstat_test_probe tpstat 2>/dev/null; grep -q "^tpstat " /proc/modules'
check "the open file still reads" sh -c 'cat <&3 >/dev/null'
exec 3<&-
unload_all
check "and goes once it is closed" sh -c '! grep -q "^tpstat " /proc/modules'
