# SPDX-License-Identifier: GPL-2.0
# Exact numbers through a typed probe set: counter, histogram, keyed table.
# tpstat_test_fire carries the values 0..N-1, so every total is known.

load tpstat
load tpstat_test_tp
load tpstat_test_probe
is "fire probe attached" "$(state_of test tpstat_test_fire)" attached
is "absent core tracepoint is missing" "$(state_of test tpstat_test_absent)" missing

fire 1000
is "hits" "$(stat_of test tpstat_test_fire.hits)" 1000
is "missing probe did not harm the rest" "$(stat_of test tpstat_test_absent.hits)" 0
is "hist count" "$(stat_of test hist.count)" 1000
is "hist sum is 0+1+...+999" "$(stat_of test hist.sum)" 499500
is "hist min" "$(stat_of test hist.min)" 0
is "hist max" "$(stat_of test hist.max)" 999
is "bucket 0" "$(stat_of test hist.bucket_0_0)" 1
is "bucket 256..511" "$(stat_of test hist.bucket_256_511)" 256
is "bucket 512..1023 holds 512..999" "$(stat_of test hist.bucket_512_1023)" 488
total=0
for n in $(grep '^hist.bucket_' $TP/test/stats | cut -d' ' -f2); do
	total=$((total + n))
done
is "buckets add up to the count" "$total" 1000
within "p50 lies in the true median's bucket" "$(stat_of test hist.p50)" 256 511
within "p99 lies in the true p99's bucket" "$(stat_of test hist.p99)" 512 999

# value % 8 is the key: 125 values each, summing to 62000 + 125 * key.
for k in 0 3 7; do
	is "table key $k count" "$(stat_of test table.$k.count)" 125
	is "table key $k sum" "$(stat_of test table.$k.sum)" $((62000 + 125 * k))
done
is "nothing went to other" "$(stat_of test table.other)" 0

check "hist file starts with the reset header" \
	sh -c "head -n1 $TP/test/hist | grep -q '^# test/hist: [0-9]*\.[0-9]* s since reset$'"
check "hist file has the summary line" \
	grep -q '^count 1000 avg 499 min 0 max 999 ' $TP/test/hist
check "hist file draws the peak bucket with 40 stars" \
	grep -q '512 -> 1023 .*: 488 .*|\*\{40\}|' $TP/test/hist
check "table file shows key 7" grep -q '^7  *125  *62875  *999 ' $TP/test/table

rmmod tpstat_test_probe
# A full table drops new keys and says so: 4 keys fit, keys 4..7 do not.
load tpstat_test_probe table_keys=4
fire_on 1 80
is "hits with a full table" "$(stat_of test tpstat_test_fire.hits)" 80
is "events dropped for keys that did not fit" "$(stat_of test tpstat_test_fire.dropped)" 40
is "the table counts them as other" "$(stat_of test table.other)" 40
is "keys that fit are whole" "$(stat_of test table.3.count)" 10
is "keys that did not fit are absent" "$(stat_of test table.4.count)" none
check "probes file shows dropped" \
	sh -c "grep '^test  *tpstat_test_fire ' $TP/probes | grep -q ' 80  *40$'"
unload_all
