# SPDX-License-Identifier: GPL-2.0
# Files show a column per online CPU, not per possible one, and an offline
# CPU's events stay in every total. make check also boots this file alone
# with 8 possible CPUs and 2 online (qemu -smp 8, maxcpus=2).

plan 10

SYS=/sys/devices/system/cpu

# "0-1,3" -> "cpu0 cpu1 cpu3 "
cpu_columns() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
		i=$lo
		while [ "$i" -le "${hi:-$lo}" ]; do
			printf 'cpu%d ' "$i"
			i=$((i + 1))
		done
	done
}
header_columns() { sed -n 2p "$1" | grep -o 'cpu[0-9]*' | tr '\n' ' '; }

load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_count tracepoints=tpstat_test_fire
online=$(cat $SYS/online)
echo "# possible CPUs $(cat $SYS/possible), online $online"
is "count/counts has a column per online CPU" \
	"$(header_columns $TP/count/counts)" "$(cpu_columns "$online")"
is "test/table too" "$(header_columns $TP/test/table)" "$(cpu_columns "$online")"
is "stats has a line per online CPU" \
	"$(grep -c '^tpstat_test_fire\.cpu' $TP/count/stats)" \
	"$(cpu_columns "$online" | wc -w)"

if [ -e $SYS/cpu1/online ]; then
	fire_on 1 500
	echo 0 > $SYS/cpu1/online
	is "cpu1 offline: no column" "$(header_columns $TP/count/counts)" "cpu0 "
	is "its events stay in the total" "$(stat_of count tpstat_test_fire.hits)" 500
	is "and in the histogram" "$(stat_of test hist.count)" 500
	echo 1 > $SYS/cpu1/online
	is "cpu1 back: a column again" "$(header_columns $TP/count/counts)" "cpu0 cpu1 "
	is "holding its events" "$(stat_of count tpstat_test_fire.cpu1)" 500

	# CPU 1 goes and comes back five times while both CPUs fire.
	echo 1 > $TP/count/reset
	echo 1 > $TP/test/reset
	for c in 0 1; do
		(
			i=0
			while [ $i -lt 20 ]; do
				echo 1000 > $FIRE
				i=$((i + 1))
			done
		) &
	done
	n=0
	while [ $n -lt 5 ]; do
		echo 0 > $SYS/cpu1/online
		echo 1 > $SYS/cpu1/online
		n=$((n + 1))
	done
	wait
	is "every event fired across the hotplugs is counted" \
		"$(stat_of count tpstat_test_fire.hits)" 40000
	is "by the typed set too" "$(stat_of test hist.count)" 40000
fi
unload_all
