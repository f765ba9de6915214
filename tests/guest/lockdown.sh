# SPDX-License-Identifier: GPL-2.0
# tpstat under kernel lockdown (integrity), as Secure Boot has it: debugfs
# opens no file with a write bit, even to read it. Every such file of
# every loaded set, nested ones too, is refused with EPERM and every
# read-only file reads. Every control goes through /sys/kernel/tpstat/control
# instead, with the file's effect, checked against events fired in known
# numbers (through tpstat_test_tp's module parameter, as its fire file is
# refused too) and pings of known sizes, and with the file's errors. The
# tpstat command says which interface to use of a refused file, and does
# the rest from read-only files; its controls (enable, reset, add, remove,
# filter) write through the control file.
#
# A Debian kernel refuses unsigned modules under lockdown: the modules load
# first, then this file raises lockdown, which nothing lowers, so make
# check boots it alone (vm_lockdown); each error is then checked against
# the file's own, before lockdown. The debug kernel boots with
# lockdown=integrity and loads the modules signed (lockdown-signed.sh).

TOOL=/payload/bin/tpstat
LOCKDOWN=/sys/kernel/security/lockdown
CTL=/sys/kernel/tpstat/control
PARAM=/sys/module/tpstat_test_tp/parameters/fire

[ -e $LOCKDOWN ] || mount -t securityfs securityfs /sys/kernel/security
raise=
grep -q '\[none\]' $LOCKDOWN && raise=1

# Errors the control file must give as the file does: PATH|LINE|ERRNO,
# LINE a printf format without its newline.
long=$(printf '%0300d' 0)
cat > /tmp/cases <<CASES
test/enable|2|EINVAL
test/enable||EINVAL
test/enable| 1|EINVAL
test/enable|0\\n1|EINVAL
test/enable|1\\0000|EINVAL
test/enable|$long|EINVAL
test/reset|0|EINVAL
test/stats|1|EACCES
test/hist|1|EACCES
count/counts|x|EACCES
count/control|1bad|EINVAL
count/control|!never_counted|ENOENT
count/filter|comm ==|EINVAL
count/filter|nosuch == 1|EINVAL
count/instances|!nosuch|ENOENT
count/instances|bad-name|EINVAL
net/filter|len >|EINVAL
net/filter|dev < lo|EINVAL
stack/control|tpstat_test_fire by nokey|EINVAL
stack/control|!nosuch|ENOENT
CASES
ncases=$(wc -l < /tmp/cases)

plan $((76 + ncases + ${raise:-0}))

# ctl LINE: what one write of LINE and a newline to the control file gets;
# ctl_raw FORMAT: of FORMAT as printf makes it, nothing added.
ctl() { write_error $CTL "$1\n"; }
ctl_raw() { write_error $CTL "$1"; }
# fire_as COMM N: N events from a task named COMM.
fire_as() { sh -c "printf %s $1 > /proc/self/comm; echo $2 > $PARAM"; }
# lo's received packets and bytes, sent packets and bytes, in net's stats.
net_lo() {
	echo "$(stat_of net dev.lo.1.rx_packets) $(stat_of net dev.lo.1.rx_bytes)" \
		"$(stat_of net dev.lo.1.tx_packets) $(stat_of net dev.lo.1.tx_bytes)"
}

load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_count tracepoints=tpstat_test_fire
load_everything
if [ -n "$raise" ]; then
	while IFS='|' read -r path line errno; do
		echo "$path|$line|$(write_error "$TP/$path" "$line\n")"
	done < /tmp/cases > /tmp/cases-file
	echo integrity > $LOCKDOWN
fi
is "lockdown is integrity" "$(cat $LOCKDOWN)" "none [integrity] confidentiality"

# Enable and reset, against events fired in known numbers.
is "test/enable 0: accepted" "$(ctl 'test/enable 0')" accepted
is "test is disabled: its stats and the probes file say so" \
	"$(stat_of test enabled) $(state_of test tpstat_test_fire)" "0 disabled"
fire_as tpfire 10
is "disabled, it counts none of 10 events; count, on the same tracepoint, all" \
	"$(stat_of test tpstat_test_fire.hits) $(stat_of count tpstat_test_fire.hits)" "0 10"
is "test/enable 1: accepted" "$(ctl 'test/enable 1')" accepted
fire_as tpfire 5
is "enabled again: attached, 5 of 5 counted" \
	"$(state_of test tpstat_test_fire) $(stat_of test tpstat_test_fire.hits)" "attached 5"
is "test/reset 1: accepted" "$(ctl 'test/reset 1')" accepted
is "reset: test's hits and histogram 0, count's 15 kept" \
	"$(stat_of test tpstat_test_fire.hits) $(stat_of test hist.count) $(stat_of count tpstat_test_fire.hits)" \
	"0 0 15"
fire_as tpfire 3
is "after the reset, 3 of 3 counted" "$(stat_of test tpstat_test_fire.hits)" 3

# count's control and filter.
is "count/control !tpstat_test_fire: accepted" "$(ctl 'count/control !tpstat_test_fire')" accepted
fire_as tpfire 4
is "no longer counted: gone from count's stats" "$(stat_of count tpstat_test_fire.hits)" none
is "count/control tpstat_test_fire: accepted" "$(ctl 'count/control tpstat_test_fire')" accepted
fire_as tpfire 4
is "counted again, from 0: 4 of 4, in count/counts too" \
	"$(stat_of count tpstat_test_fire.hits) $(awk '$1 == "tpstat_test_fire" { print $2, $3 }' $TP/count/counts)" \
	"4 attached 4"
is "count/filter comm == tpmine: accepted" "$(ctl 'count/filter comm == tpmine')" accepted
ctl 'count/reset 1' > /dev/null
fire_as tpmine 7
fire_as tpother 5
is "the filter in force: tpmine's 7 counted, tpother's 5 rejected" \
	"$(stat_of count tpstat_test_fire.hits) $(stat_of count filter.rejected)" "7 5"
is "a bad filter refused" "$(ctl 'count/filter comm ==')" EINVAL
ctl 'count/reset 1' > /dev/null
fire_as tpmine 2
fire_as tpother 3
is "and the old one still in force: 2 counted, 3 rejected" \
	"$(stat_of count tpstat_test_fire.hits) $(stat_of count filter.rejected)" "2 3"
is "count/filter and no line (an empty one): accepted" "$(ctl 'count/filter')" accepted
ctl 'count/reset 1' > /dev/null
fire_as tpother 6
is "no filter: tpother's 6 counted" "$(stat_of count tpstat_test_fire.hits)" 6

# An instance, and its scope: a shell waiting at a gate fires 6 events
# once scoped, while this one fires 4 outside the scope.
is "count/instances mine: accepted" "$(ctl 'count/instances mine')" accepted
check "the instance has its directory" test -d $TP/count/mine
is "count/mine/control tpstat_test_fire: accepted" \
	"$(ctl 'count/mine/control tpstat_test_fire')" accepted
rm -f /tmp/gate
mkfifo /tmp/gate
sh -c "read x < /tmp/gate; echo 6 > $PARAM" &
scoped=$!
is "count/mine/scope PID: accepted" "$(ctl "count/mine/scope $scoped")" accepted
is "one task in its scope" "$(stat_of count/mine scope.tasks)" 1
fire_as tpfire 4
echo go > /tmp/gate
wait $scoped
is "it counts its scope's 6 events, not the 4 beside them" \
	"$(stat_of count/mine tpstat_test_fire.hits)" 6
is "a pid no task has: ESRCH, as from the file" \
	"$(ctl 'count/mine/scope 4000000')" ESRCH
is "count/mine/scope 0: accepted" "$(ctl 'count/mine/scope 0')" accepted
fire_as tpfire 2
is "every task in scope again: 8" "$(stat_of count/mine tpstat_test_fire.hits)" 8
is "its own reset, count/mine/reset 1: accepted" "$(ctl 'count/mine/reset 1')" accepted
is "its count 0, count's own not reset" \
	"$(stat_of count/mine tpstat_test_fire.hits) $(stat_of count tpstat_test_fire.hits)" "0 18"

# The network set's filter, against pings of known sizes: each of 100 or
# 1000 bytes, 142 or 1042 on the wire each way (t-45). Its reset first,
# with counts to drop.
ping_lo 1 100
before=$(net_lo)
is "net/reset 1: accepted" "$(ctl 'net/reset 1')" accepted
is "net's counts, a ping's at least, dropped by the reset with lo's row" \
	"$([ "${before%% *}" -ge 2 ] && echo counted) $(net_lo)" "counted none none none none"
is "net/filter len > 500 && dev == lo: accepted" \
	"$(ctl 'net/filter len > 500 && dev == lo')" accepted
ping_lo 3 100
ping_lo 2 1000
is "only the 2 pings of 1000 bytes counted" "$(net_lo)" "4 4168 4 4168"
is "a bad one refused" "$(ctl 'net/filter len >')" EINVAL
ctl 'net/reset 1' > /dev/null
ping_lo 1 100
ping_lo 1 1000
is "and the old one still in force" "$(net_lo)" "2 2084 2 2084"
is "net/filter 0: accepted" "$(ctl 'net/filter 0')" accepted
ping_lo 1 100
is "no filter: the ping of 100 bytes counted too" "$(net_lo)" "4 2368 4 2368"

# The stack set's control, and an entry's own files.
is "stack/control tpstat_test_fire by comm: accepted" \
	"$(ctl 'stack/control tpstat_test_fire by comm')" accepted
fire_as tpstack 9
is "the entry counts tpstack's 9" "$(stat_of stack/tpstat_test_fire row.comm.tpstack)" 9
is "stack/tpstat_test_fire/enable 0: accepted" \
	"$(ctl 'stack/tpstat_test_fire/enable 0')" accepted
fire_as tpstack 3
is "the entry disabled: still 9" "$(stat_of stack/tpstat_test_fire row.comm.tpstack)" 9
# A line of 256 bytes, its newline included, is the longest any file takes.
pad=$(printf '%231s' '')
is "a line of 256 bytes: accepted, its entry made" \
	"$(ctl "stack/control ${pad}tpstat_test_pair by comm") $(ls $TP/stack/tpstat_test_pair/stacks)" \
	"accepted $TP/stack/tpstat_test_pair/stacks"
is "one of 257: EINVAL" "$(ctl "stack/control  ${pad}tpstat_test_pair by comm")" EINVAL

# Now that nested sets are there too: every file with a write bit refuses
# to open, for writing or reading; every other file reads.
bad=
n=0
for f in $(find $TP -type f -perm /222); do
	n=$((n + 1))
	got=$(write_error "$f" '1\n')
	[ "$got" = EPERM ] || bad="$bad ${f#$TP/}:$got"
	cat "$f" > /dev/null 2>&1 && bad="$bad ${f#$TP/}:read"
done
is "each of the $n files with a write bit refuses to open, to write or read: EPERM" "$bad" ""
missing=
for f in test/enable test/reset count/control count/filter count/instances \
	count/mine/scope count/mine/enable net/filter stack/control \
	stack/tpstat_test_fire/reset; do
	[ -n "$(find $TP/$f -perm /222)" ] || missing="$missing $f"
done
is "among them each kind of control, nested sets' too" "$missing" ""
bad=
n=0
for f in $(find $TP -type f ! -perm /222); do
	n=$((n + 1))
	cat "$f" > /dev/null || bad="$bad ${f#$TP/}"
done
is "each of the $n read-only files reads" "$bad" ""
# A loop that ran no time would pass: as many as ls lists without a write
# bit must have been read, each kind of read-only file among them.
want=$(ls -lR $TP | awk '/^-/ && $1 !~ /w/' | wc -l)
missing=
for f in probes test/stats test/hist test/table count/counts count/mine/counts \
	net/devices stack/tpstat_test_fire/stacks; do
	[ -f $TP/$f ] && [ -z "$(find $TP/$f -perm /222)" ] || missing="$missing $f"
done
is "they are the $want read-only files ls lists, each kind among them" "$n$missing" "$want"

# Errors: each case as the file gives it.
while IFS='|' read -r path line errno; do
	is "'$path $line': $errno" "$(ctl "$path $line")" "$errno"
done < /tmp/cases
if [ -n "$raise" ]; then
	while IFS='|' read -r path line errno; do
		echo "$path|$line|$(ctl "$path $line")"
	done < /tmp/cases > /tmp/cases-control
	same "each error is what the file gave before lockdown" /tmp/cases-control /tmp/cases-file
fi
is "a path no set has: ENOENT" "$(ctl 'nosuch/enable 1')" ENOENT
is "a file a set does not have: ENOENT" "$(ctl 'test/nosuch 1')" ENOENT
is "a file outside the sets: ENOENT" "$(ctl 'version 1')" ENOENT
is "no path, an empty line: EINVAL" "$(ctl_raw '\n')" EINVAL
is "a NUL in the line: EINVAL" "$(ctl_raw 'test/enable 1\0000\n')" EINVAL
is "a 1 MiB write: EINVAL" \
	"$(head -c 1048576 /dev/zero | tr '\0' x | /payload/bin/write-once $CTL)" EINVAL
is "test still enabled after them all" "$(stat_of test enabled)" 1

# Entries removed through control: their files are gone for it too.
is "count/instances !mine: accepted" "$(ctl 'count/instances !mine')" accepted
is "its files gone: ENOENT" "$(ctl 'count/mine/scope 0')" ENOENT
is "stack/control !tpstat_test_fire: accepted" "$(ctl 'stack/control !tpstat_test_fire')" accepted
is "its files gone: ENOENT" "$(ctl 'stack/tpstat_test_fire/enable 1')" ENOENT

# Writes racing the removal of their set: each is let in and done, or
# finds no file; the removal waits for those let in (the log check after
# this file, and KASAN and lockdep on the debug kernel, see one it did not).
rm -f /tmp/race-stop
(while [ ! -e /tmp/race-stop ]; do ctl 'count/racer/enable 1'; done > /tmp/race) &
racer=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	ctl 'count/instances racer' > /dev/null
	ctl 'count/instances !racer' > /dev/null
done
touch /tmp/race-stop
wait $racer
echo "# racing writes: $(grep -cx accepted /tmp/race) accepted, $(grep -cx ENOENT /tmp/race) ENOENT"
is "writes racing their set's removal: each accepted or ENOENT" \
	"$(grep -cvxE 'accepted|ENOENT' /tmp/race) $([ -s /tmp/race ] && echo some)" "0 some"

# The tpstat command, from 10 events counted anew.
ctl 'test/reset 1' > /dev/null
fire_as tpfire 10
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
out=$($TOOL watch -i 0.5 -n 1 -t 0 -c 'tpstat_test_fire.*' test 2>&1)
is "watch works" "$? $(echo "$out" | wc -l)" "0 3"
$TOOL export --prometheus > /tmp/prom 2>&1
is "export --prometheus works" "$? $(grep '^tpstat_test_hits_total{tracepoint="tpstat_test_fire"}' /tmp/prom)" \
	"0 tpstat_test_hits_total{tracepoint=\"tpstat_test_fire\"} 10"
$TOOL export --json > /tmp/json 2>&1
is "export --json works" "$? $(grep -c '"tpstat_test_fire.hits": 10' /tmp/json)" "0 1"

# tpstat stat makes, scopes and removes its instance through the control
# file: its command's 7 events counted, and no instance left.
$TOOL stat -e tpstat_test_fire -- sh -c "echo 7 > $PARAM" 2> /tmp/stat
is "stat: exit 0, its command's 7 events counted" \
	"$? $(awk '$NF == "tpstat_test_fire" { print $1 }' /tmp/stat)" "0 7"
is "stat: no instance left" "$(ls -d $TP/count/stat_* 2>/dev/null | wc -l)" 0

# The tpstat command's controls write through the control file: their
# effect on events fired on purpose, and a refused line's errno as the
# file's (count/control 1bad: EINVAL, among the cases above).
hits=$(stat_of test tpstat_test_fire.hits)
out=$($TOOL enable test 0 2>&1)
rc=$?
fire_as tpfire 5
is "tpstat enable test 0: exit 0, detached, 5 fired not counted" \
	"$rc $out|$(stat_of test enabled)|$(stat_of test tpstat_test_fire.hits)" "0 |0|$hits"
out=$($TOOL enable test 2>&1)
rc=$?
out2=$($TOOL reset test 2>&1)
rc2=$?
fire_as tpfire 6
is "tpstat enable test, tpstat reset test: attached and zeroed, 6 fired counted" \
	"$rc $out|$rc2 $out2|$(stat_of test enabled)|$(stat_of test tpstat_test_fire.hits)" \
	"0 |0 |1|6"
out=$($TOOL add count 1bad 2>&1)
is "tpstat add count 1bad: EINVAL, one line naming the file, exit 1" "$? $out" \
	"1 tpstat: count/control: cannot add '1bad': Invalid argument"
# remove and filter through it too: count's probe on the tracepoint gone
# from the probes file and back; then, filtered to tpmine, 4 fired as
# tpmine counted and 5 as tpother rejected; the filter removed, 2 fired
# as tpother counted.
out=$($TOOL remove count tpstat_test_fire 2>&1)
is "tpstat remove count TP: exit 0, count's probe on it gone" \
	"$? $out|$(grep -c '^count  *tpstat_test_fire ' $TP/probes)" "0 |0"
out=$($TOOL add count tpstat_test_fire 2>&1)
rc=$?
out2=$($TOOL filter count comm == tpmine 2>&1)
rc2=$?
hits=$(stat_of count tpstat_test_fire.hits)
rejected=$(stat_of count filter.rejected)
fire_as tpmine 4
fire_as tpother 5
is "tpstat add count TP, tpstat filter count comm == tpmine: exit 0, tpmine's 4 counted, tpother's 5 rejected" \
	"$rc $out|$rc2 $out2|$(grep -c '^count  *tpstat_test_fire ' $TP/probes)|$(($(stat_of count tpstat_test_fire.hits) - hits)) $(($(stat_of count filter.rejected) - rejected))" \
	"0 |0 |1|4 5"
out=$($TOOL filter count 2>&1)
rc=$?
hits=$(stat_of count tpstat_test_fire.hits)
fire_as tpother 2
is "tpstat filter count: exit 0, no filter, tpother's 2 counted" \
	"$rc $out|$(($(stat_of count tpstat_test_fire.hits) - hits))" "0 |2"
