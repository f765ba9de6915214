# SPDX-License-Identifier: GPL-2.0
# A histogram keeps values below 2^32 per CPU and larger ones in buckets
# shared by all CPUs: values on both sides of 2^32, fired from two CPUs and
# from hard IRQ context, and the largest u64s, land exactly where they
# belong, and the summary joins both parts.

plan 15

h() { stat_of test "hist.$1"; }

load tpstat
load tpstat_test_tp
load tpstat_test_probe

# 2^32 - 8 to 2^32 + 7: eight values below the line and eight above.
low=4294967288
fire_on 0 "16 $low"
fire_on 1 "16 $low"
taskset -c 0 sh -c "echo '16 $low irq' > $FIRE"
is "count, from cpu0, cpu1 and hard IRQ" "$(h count)" 48
is "below 2^32, per CPU" "$(h bucket_2147483648_4294967295)" 24
is "from 2^32 on, shared" "$(h bucket_4294967296_8589934591)" 24
is "min" "$(h min)" $low
is "max" "$(h max)" $((low + 15))
is "sum of both parts" "$(h sum)" $((3 * (16 * low + 120)))
within "p50 lies below the line" "$(h p50)" $low 4294967295
within "p99 lies above it" "$(h p99)" 4294967296 $((low + 15))

# The four largest u64s.
fire "4 18446744073709551612"
is "the top bucket" "$(h bucket_9223372036854775808_18446744073709551615)" 4
is "max is U64_MAX" "$(h max)" 18446744073709551615
is "count" "$(h count)" 52
check "the hist file draws the top bucket" \
	grep -q '^9223372036854775808 -> 18446744073709551615 : 4 ' $TP/test/hist

echo 1 > $TP/test/reset
is "reset empties both parts" "$(h count) $(h min) $(h max) $(h sum)" "0 0 0 0"
fire "1 $((1 << 40))"
is "a lone large value is min and max" "$(h min) $(h max)" "$((1 << 40)) $((1 << 40))"
fire "1 7"
is "a small one after it is the min" "$(h min) $(h max) $(h count)" "7 $((1 << 40)) 2"
unload_all
