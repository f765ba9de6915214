# SPDX-License-Identifier: GPL-2.0
# Exact numbers through a typed probe set: counter, histogram, keyed tables,
# keyed data, every bucket, every key and every per-CPU column of them.
# tpstat_test_fire carries the values the test asks for, on the CPU it
# asks for, so every figure is known.

plan 17

S=/tmp/t-02
mkdir -p $S
CPUS=$(online_columns)

# expected_stats RUNS CAPACITY: the test set's stats, without
# since_reset_ns and the histogram's percentiles, after the events RUNS
# ("cpu:first:n ...", in the order fired), with tables of CAPACITY keys
# per CPU. Worked out from the values alone, as the README and
# tests/modules/probe.c define the set: a histogram of the values, a table
# keyed by value % 8 (a CPU's keys past CAPACITY go to other, and the event
# counts as dropped), a table keyed by ~value for values below 16, and keyed
# data and a wide table by the firing task's comm: fire_on's writer is the
# sh that taskset runs. Also the table file's rows, in $S/table.want.
expected_stats() {
	awk -v runs="$1" -v cap="$2" -v cpus="$CPUS" -v tw=$S/table.want '
	BEGIN {
		nr = split(runs, r, " ")
		for (i = 1; i <= nr; i++) {
			split(r[i], f, ":")
			for (v = f[2]; v < f[2] + f[3]; v++)
				event(f[1], v)
		}
		print "enabled 1"
		print "tpstat_test_fire.hits " count
		print "tpstat_test_fire.dropped " other + 0
		print "tpstat_test_pair.hits 0\ntpstat_test_pair.dropped 0"
		print "tpstat_test_absent.hits 0\ntpstat_test_absent.dropped 0"
		print "hist.count " count "\nhist.sum " sum
		print "hist.min " min "\nhist.max " max
		for (b = 0; b < 65; b++)
			if (bucket[b])
				print "hist.bucket_" low(b) "_" high(b), bucket[b]
		for (k in kcount)
			print "table." k ".count " kcount[k] "\ntable." k ".sum " ksum[k]
		print "table.other " other + 0
		for (k in hcount)
			print "high." k ".count " hcount[k] "\nhigh." k ".sum " hsum[k]
		print "high.other 0"
		split("started replaced paired unpaired dropped expired held", p, " ")
		for (i = 1; i <= 7; i++)
			print "pairs." p[i] " 0"
		print "pairs.capacity 1024"
		print "wide.sh.count " count
		n = split(cpus, c, " ")
		for (i = 1; i <= n; i++)
			print "wide.sh." c[i], cpu_events[substr(c[i], 4)] + 0
		print "wide.other 0\nwtable.sh.count " count "\nwtable.other 0"
		split("count sum min max p50 p90 p99", p, " ")
		for (i = 1; i <= 7; i++)
			print "pair_ns." p[i] " 0"

		# key count sum max, then a count per online CPU.
		printf "key count sum max %s\n", cpus > tw
		for (k in kcount) {
			printf "%s %d %d %d", k, kcount[k], ksum[k], kmax[k] > tw
			for (i = 1; i <= n; i++)
				printf " %d", kcpu[k, substr(c[i], 4)] > tw
			printf "\n" > tw
		}
		printf "other %d %d %d\n", other, osum, omax > tw
	}
	# This awk has no ^: powers of two by hand.
	function pow2(b,   p) {
		for (p = 1; b > 0; b--)
			p *= 2
		return p
	}
	function low(b) { return b ? pow2(b - 1) : 0 }
	function high(b) { return pow2(b) - 1 }
	function event(cpu, v,   b, k) {
		if (!count || v < min)
			min = v
		if (v > max)
			max = v
		count++
		sum += v
		cpu_events[cpu]++
		for (b = 0; high(b) < v; b++)
			;
		bucket[b]++
		k = v % 8
		if (!((k, cpu) in held)) {
			if (used[cpu] == cap) {
				other++
				osum += v
				if (v > omax)
					omax = v
				k = ""
			} else {
				held[k, cpu] = 1
				used[cpu]++
			}
		}
		if (k != "") {
			kcount[k]++
			ksum[k] += v
			kcpu[k, cpu]++
			if (v > kmax[k])
				kmax[k] = v
		}
		# ~v, which awk cannot hold exactly: 2^64 - 1 - v.
		if (v < 16) {
			k = sprintf("184467440737095516%02d", 15 - v)
			hcount[k]++
			hsum[k] += v
		}
	}'
}

# Our stats and table file as expected_stats gives them.
got_stats() {
	grep -vE '^since_reset_ns |^hist\.p(50|90|99) ' $TP/test/stats > $S/stats.got
}
got_table() {
	awk 'NR > 1 { $1 = $1; print }' $TP/test/table > $S/table.got
}

load tpstat
load tpstat_test_tp
load tpstat_test_probe
is "fire probe attached" "$(state_of test tpstat_test_fire)" attached
is "absent core tracepoint is missing" "$(state_of test tpstat_test_absent)" missing

# 0..599 on cpu0, 600..999 on cpu1: every key on both CPUs, 75 and 50 times.
fire_on 0 "600 0"
fire_on 1 "400 600"
expected_stats "0:0:600 1:600:400" 64 > $S/stats.want
got_stats
same "stats: every counter, bucket, key and per-CPU count exact" $S/stats.got $S/stats.want
is "hist sum is 0+1+...+999" "$(stat_of test hist.sum)" 499500
is "bucket 512..1023 holds 512..999" "$(stat_of test hist.bucket_512_1023)" 488
is "table key 7 sum" "$(stat_of test table.7.sum)" $((62000 + 125 * 7))
within "p50 lies in the true median's bucket" "$(stat_of test hist.p50)" 256 511
within "p99 lies in the true p99's bucket" "$(stat_of test hist.p99)" 512 999
got_table
same "table file: every key's count, sum, max and per-CPU counts" $S/table.got $S/table.want

check "hist file starts with the reset header" \
	sh -c "head -n1 $TP/test/hist | grep -q '^# test/hist: [0-9]*\.[0-9]* s since reset$'"
check "hist file has the summary line" \
	grep -q "^count 1000 avg 499 min 0 max 999 p50 $(stat_of test hist.p50) p90 $(stat_of test hist.p90) p99 $(stat_of test hist.p99)$" \
	$TP/test/hist
# Each bucket drawn: its bounds, its count, and 40 stars for the peak.
awk '/^hist\.bucket_/ { split($1, b, "_"); print b[2], b[3], $2 }' $S/stats.want |
	sort -n | awk '{ print $1, $2, $3, int($3 * 40 / 488) }' > $S/hist.want
awk '/ -> / { n = gsub(/\*/, "*"); print $1, $3, $5, n }' $TP/test/hist > $S/hist.got
same "hist file: every bucket drawn, with its count and bar" $S/hist.got $S/hist.want

rmmod tpstat_test_probe
# A full table drops new keys and says so: 4 keys fit, keys 4..7 do not.
load tpstat_test_probe table_keys=4
fire_on 1 80
expected_stats "1:0:80" 4 > $S/stats.want
got_stats
same "full table: every count exact, keys past 4 in other and dropped" \
	$S/stats.got $S/stats.want
is "events dropped for keys that did not fit" "$(stat_of test tpstat_test_fire.dropped)" 40
is "keys that did not fit are absent" "$(stat_of test table.4.count)" none
got_table
same "full table: the file's rows, per-CPU counts and other row" $S/table.got $S/table.want
check "probes file shows dropped" \
	sh -c "grep '^test  *tpstat_test_fire ' $TP/probes | grep -q ' 80  *40$'"
rm -rf $S
unload_all
