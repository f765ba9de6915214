# SPDX-License-Identifier: GPL-2.0
# Attach before the tracepoint's module loads, detach when it goes, and
# re-attach when it comes back; counts live on across the reloads.

plan 17

load tpstat
check "counter loads before the tracepoint exists" \
	load tpstat_count tracepoints=tpstat_test_fire
check "typed set loads before the tracepoint exists" load tpstat_test_probe
is "generic probe waits" "$(state_of count tpstat_test_fire)" waiting
is "typed probe waits" "$(state_of test tpstat_test_fire)" waiting

load tpstat_test_tp
is "generic probe attached when the module came" "$(state_of count tpstat_test_fire)" attached
is "typed probe attached when the module came" "$(state_of test tpstat_test_fire)" attached
fire 5
is "generic count" "$(stat_of count tpstat_test_fire.hits)" 5
is "typed count" "$(stat_of test tpstat_test_fire.hits)" 5

check "the tracepoint's module unloads under attached probes" rmmod tpstat_test_tp
is "generic probe waits again" "$(state_of count tpstat_test_fire)" waiting
is "typed probe waits again" "$(state_of test tpstat_test_fire)" waiting

load tpstat_test_tp
is "generic probe re-attached" "$(state_of count tpstat_test_fire)" attached
is "typed probe re-attached" "$(state_of test tpstat_test_fire)" attached
fire 3
is "generic count carries on" "$(stat_of count tpstat_test_fire.hits)" 8
is "typed count carries on" "$(stat_of test tpstat_test_fire.hits)" 8

# Reload many times in a row: every cycle must end attached.
i=0
while [ $i -lt 20 ]; do
	rmmod tpstat_test_tp && load tpstat_test_tp || break
	i=$((i + 1))
done
is "20 reload cycles" $i 20
fire 2
is "generic count after the cycles" "$(stat_of count tpstat_test_fire.hits)" 10
unload_all
