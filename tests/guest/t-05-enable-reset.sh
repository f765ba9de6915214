# SPDX-License-Identifier: GPL-2.0
# enable detaches and re-attaches without unloading; reset zeroes everything
# while the probes stay attached.

plan 22

# The header's age in centiseconds, to compare with /proc/uptime.
header_age() {
	head -n1 $TP/test/hist | sed 's/.*: \([0-9]*\)\.\([0-9][0-9]\).*/\1\2/; s/^0*\(.\)/\1/'
}

t0=$(uptime_cs)
load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_count tracepoints=tpstat_test_fire

is "enable reads 1" "$(cat $TP/test/enable)" 1
echo 0 > $TP/test/enable
is "enable reads 0" "$(cat $TP/test/enable)" 0
is "state disabled" "$(state_of test tpstat_test_fire)" disabled
fire 10
is "a disabled set counts nothing" "$(stat_of test tpstat_test_fire.hits)" 0
is "another set is not affected" "$(stat_of count tpstat_test_fire.hits)" 10
echo 1 > $TP/test/enable
is "state attached again" "$(state_of test tpstat_test_fire)" attached
fire 10
is "counts after re-enable" "$(stat_of test tpstat_test_fire.hits)" 10
is "hist after re-enable" "$(stat_of test hist.count)" 10

# Bounded by the guest's own clock, never by how fast it runs.
sleep 2
age=$(header_age)
within "header tells the time since load" "$age" 200 $(($(uptime_cs) - t0 + 1))
t0=$(uptime_cs)
echo 1 > $TP/test/reset
is "reset zeroes hits" "$(stat_of test tpstat_test_fire.hits)" 0
is "reset zeroes the histogram" "$(stat_of test hist.count)" 0
is "reset empties the table" "$(stat_of test table.0.count)" none
is "reset leaves other sets" "$(stat_of count tpstat_test_fire.hits)" 20
within "header restarts at reset" "$(header_age)" 0 $(($(uptime_cs) - t0 + 1))
is "the set is still enabled" "$(cat $TP/test/enable)" 1
fire 4
is "counts after reset" "$(stat_of test tpstat_test_fire.hits)" 4
is "table after reset" "$(stat_of test table.3.count)" 1

# Any u64 is a key: ~value makes U64_MAX, U64_MAX - 1, ... from 0, 1, ...
echo 1 > $TP/test/reset
fire 3
is "key U64_MAX counted" "$(stat_of test high.18446744073709551615.count)" 1
is "key U64_MAX - 2 counted" "$(stat_of test high.18446744073709551613.count)" 1
is "no key U64_MAX event under another key" "$(grep -c '^high\.[0-9]*\.count 1$' $TP/test/stats)" 3
is "nothing of theirs in other" "$(stat_of test high.other)" 0

echo 0 > $TP/test/enable
echo 1 > $TP/test/reset
is "reset keeps a disabled set disabled" "$(state_of test tpstat_test_fire)" disabled
unload_all
