# SPDX-License-Identifier: GPL-2.0
# The tpstat command under kernel lockdown, raised here to integrity as
# Secure Boot would have it: debugfs then refuses every file with a write
# bit, even to read it. The tool says so of such a file, and does all the
# rest from read-only files. Lockdown cannot be lowered again, so make
# check boots this file alone (vm_tool_lockdown), after loading what it
# needs, and not on the debug kernel, whose kmemleak check would then load
# a module lockdown refuses unsigned.

plan 10

TOOL=/payload/bin/tpstat
LOCKDOWN=/sys/kernel/security/lockdown

load tpstat
load tpstat_test_tp
load tpstat_test_probe
fire 10
[ -e $LOCKDOWN ] || mount -t securityfs securityfs /sys/kernel/security
echo integrity > $LOCKDOWN
is "lockdown is integrity" "$(cat $LOCKDOWN)" "none [integrity] confidentiality"
check "debugfs refuses the enable file, even to read it" \
	sh -c "! cat $TP/test/enable 2>/dev/null"

out=$($TOOL show test enable 2>&1)
is "show SET enable: one line saying lockdown refused it and what to use, exit 1" "$? $out" \
	"1 tpstat: $TP/test/enable: refused by kernel lockdown (integrity): debugfs opens no file with a write bit, even to read it; read-only files (stats, probes, the sets' tables) still work, and writes go to /sys/kernel/tpstat/control as 'test/enable LINE'"
out=$(unshare -m sh -c "umount /sys/kernel/security && $TOOL show test enable" 2>&1)
is "show SET enable, securityfs unmounted: one line saying lockdown may be why, exit 1" "$? $out" \
	"1 tpstat: $TP/test/enable: Operation not permitted: under kernel lockdown debugfs refuses files with a write bit (securityfs on /sys/kernel/security would say which mode); writes go to /sys/kernel/tpstat/control as 'test/enable LINE'"
out=$($TOOL list 2>&1)
is "list works, from read-only files" "$? $(echo "$out" | awk '$1 == "test" { print $1, $2 }')" \
	"0 test enabled"
out=$($TOOL show test 2>&1)
is "show SET works: its read-only files" "$? $(echo "$out" | grep -c '^# test/')" "0 2"
out=$($TOOL show test hist 2>&1)
is "show SET FILE works for a read-only file" "$? $(echo "$out" | head -n 1 | cut -d : -f 1)" \
	"0 # test/hist"
out=$($TOOL watch -i 0.5 -n 1 test 2>&1)
is "watch works" "$? $(echo "$out" | wc -l)" "0 3"
$TOOL export --prometheus > /tmp/prom 2>&1
is "export --prometheus works" "$? $(grep '^tpstat_test_hits_total{tracepoint="tpstat_test_fire"}' /tmp/prom)" \
	"0 tpstat_test_hits_total{tracepoint=\"tpstat_test_fire\"} 10"
$TOOL export --json > /tmp/json 2>&1
is "export --json works" "$? $(grep -c '"tpstat_test_fire.hits": 10' /tmp/json)" "0 1"
