# SPDX-License-Identifier: GPL-2.0
# Loading and unloading, the debugfs layout, and file modes.

plan 26

mode_of() { stat -c %a "$1" 2>/dev/null || echo none; }

check "tpstat.ko loads" load tpstat
is "version" "$(cat $TP/version)" "0.1.0"
is "probes lists nothing but its header" "$(grep -vc '^#' $TP/probes)" 0
is "version is root-only" "$(mode_of $TP/version)" 400
is "probes is root-only" "$(mode_of $TP/probes)" 400
check "tpstat.ko unloads" rmmod tpstat
check "its directory goes with it" test ! -e $TP
check "tpstat.ko loads again" load tpstat

check "tpstat_test_tp.ko loads" load tpstat_test_tp
check "tpstat_test_probe.ko loads" load tpstat_test_probe
check "tpstat_count.ko loads" load tpstat_count
# Half-way, the faults make check plants to prove it catches them.
plant kill
plant bug
for f in test/enable:600 test/reset:200 test/stats:400 test/hist:400 \
	 test/table:400 count/enable:600 count/reset:200 count/stats:400 \
	 count/counts:400 count/control:600; do
	is "mode of ${f%:*}" "$(mode_of $TP/${f%:*})" "${f#*:}"
done
check "the core stays while sets use it" sh -c '! rmmod tpstat 2>/dev/null'
check "tpstat_count.ko unloads" rmmod tpstat_count
check "tpstat_test_probe.ko unloads" rmmod tpstat_test_probe
check "its set leaves the probes file" sh -c "! grep -q '^test ' $TP/probes"
check "tpstat.ko unloads after its sets" rmmod tpstat
