# SPDX-License-Identifier: GPL-2.0
# The pairing map: starts and ends on different CPUs and in hard IRQ
# context pair exactly; ends without a start, replaced starts, a full map,
# aged starts and starts from before a re-attach are each counted as such.

plan 29

PAIR=/sys/kernel/debug/tpstat_test/pair

# pair CPU OP FIRST N: OP (start, end, hstart, hend) for keys FIRST.. on CPU.
pair() { taskset -c "$1" sh -c "echo '$2 $3 $4' > $PAIR"; }
ps() { stat_of test "pairs.$1"; }

load tpstat
load tpstat_test_tp
load tpstat_test_probe
is "pair probe attached" "$(state_of test tpstat_test_pair)" attached

pair 0 start 0 100
is "100 starts held" "$(ps held)" 100
pair 1 end 0 100
is "started on cpu0" "$(ps started)" 100
is "every end on cpu1 found its start" "$(ps paired)" 100
is "none unpaired" "$(ps unpaired)" 0
is "nothing held after" "$(ps held)" 0
is "a time per pair" "$(stat_of test pair_ns.count)" 100

pair 1 hstart 1000 50
pair 0 end 1000 50
is "starts in hard IRQ context pair in task context" "$(ps paired)" 150
pair 0 start 2000 10
pair 1 hend 2000 10
is "ends in hard IRQ context pair" "$(ps paired)" 160
is "no drops in hard IRQ context" "$(ps dropped)" 0

pair 0 end 5000 10
is "ends with no start are unpaired" "$(ps unpaired)" 10
pair 0 start 6000 1
pair 1 start 6000 1
is "a second start of a key replaces the first" "$(ps replaced)" 1
is "the key is held once" "$(ps held)" 1
pair 0 end 6000 2
is "it pairs once" "$(ps paired)" 161
is "the second end is unpaired" "$(ps unpaired)" 11

# A reset zeroes the counts, not the starts.
pair 0 start 7000 5
echo 1 > $TP/test/reset
is "reset zeroes the counts" "$(ps started)" 0
is "reset keeps the starts" "$(ps held)" 5
pair 1 end 7000 5
is "ends after a reset pair with starts from before" "$(ps paired)" 5

# Starts from before the probes were attached again are never paired.
pair 0 start 8000 3
echo 0 > $TP/test/enable
echo 1 > $TP/test/enable
pair 0 end 8000 3
is "starts from before a re-attach are unpaired" "$(ps unpaired)" 3
is "and gone from the map" "$(ps held)" 0
rmmod tpstat_test_probe

# A full map with no max_age still takes new starts: each evicts the
# oldest in its key's window, counted, and none is dropped.
load tpstat_test_probe pair_keys=64
pair 0 start 0 100
is "a full map holds its capacity" "$(ps held)" 64
is "the rest evict the oldest, none dropped" "$(ps expired) $(ps dropped)" "36 0"
pair 1 end 0 100
is "what was held pairs" "$(ps paired)" 64
is "what was evicted is unpaired" "$(ps unpaired)" 36
rmmod tpstat_test_probe

# Starts older than max_age make room for new ones. The age is long enough
# for the debug kernel's slow fork and exec between the first two writes.
load tpstat_test_probe pair_keys=4 pair_age_ms=2000
pair 0 start 0 4
pair 0 start 100 1
is "no room and nothing old: dropped" "$(ps dropped)" 1
sleep 3
pair 0 start 10 4
is "old starts evicted for new ones" "$(ps expired)" 4
is "still full" "$(ps held)" 4
pair 1 end 10 4
is "the new starts pair" "$(ps paired)" 4
pair 1 end 0 4
is "the evicted ones do not" "$(ps unpaired)" 4
unload_all
