# SPDX-License-Identifier: GPL-2.0
# Rows busiest first: the typed test set's table sorts its keys by count on
# read, not by key nor by the order they were first seen in. Three keys get
# 30, 20 and 10 events, fired interleaved, the least busy seen first.

plan 5

load tpstat
load tpstat_test_tp
load tpstat_test_probe

# Every event on cpu0, so each row's CPU columns are known too. run-tests
# sources us in a subshell whose $$ is its parent's: ask a child instead.
sh -c 'echo $PPID' > /tmp/t-13-pid
read -r me < /tmp/t-13-pid
rm -f /tmp/t-13-pid
mask=$(taskset -p "$me" | sed 's/.*: //')
taskset -p 1 "$me" > /dev/null

# fire_key KEY N: N events of value KEY, all under key KEY (value % 8).
fire_key() {
	i=0
	while [ $i -lt "$2" ]; do
		echo "1 $1" > $FIRE
		i=$((i + 1))
	done
}
# First seen 5, 6, 2; ascending keys 2, 5, 6; busiest 2, 6, 5.
fire_key 5 4
fire_key 6 7
fire_key 2 9
fire_key 5 6
fire_key 2 21
fire_key 6 13
taskset -p "$mask" "$me" > /dev/null

is "hits" "$(stat_of test tpstat_test_fire.hits)" 60
# The table file: a row per key, busiest first, then other. A row is key,
# count, sum, max, then a count per CPU; the sum of N events of value K is
# N * K.
rows=$(awk '$1 != "#" && $1 != "key" { printf "%s ", $0 }' $TP/test/table |
	tr -s ' ')
cpu_cols=$(awk '$1 == "key" { print NF - 4 }' $TP/test/table)
zeros=$(i=1; while [ $i -lt "$cpu_cols" ]; do printf ' 0'; i=$((i + 1)); done)
is "table rows: busiest first, each whole, then other" "$rows" \
	"2 30 60 2 30$zeros 6 20 120 6 20$zeros 5 10 50 5 10$zeros other 0 0 0 "
# The stats list the keys in the same order.
keys=$(awk -F. '/^table\.[0-9]+\.count / { printf "%s ", $2 }' $TP/test/stats)
is "stats: table keys busiest first" "$keys" "2 6 5 "
# The second table, keyed by ~value, sorts the same way.
high=$(awk '/^high\.[0-9]+\.count / { printf "%s ", $2 }' $TP/test/stats)
is "stats: the ~value table's counts, busiest first" "$high" "30 20 10 "

# Once the least busy overtakes the others, it comes first.
fire_key 5 25
keys=$(awk -F. '/^table\.[0-9]+\.count / { printf "%s ", $2 }' $TP/test/stats)
is "the order follows the counts after more events" "$keys" "5 2 6 "
unload_all
