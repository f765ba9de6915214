# SPDX-License-Identifier: GPL-2.0
# Bad input to every writable file and module parameter: refused with
# -EINVAL (or the errno that says why), at most one kernel log line, and
# nothing changes.

plan 121

# refused DESC FILE STRING [ERRNO]: a line of no tpstat module's in the
# window too, which the count must pass over.
refused() {
	lines=$(kmsg_lines)
	is "$1" "$(write_error "$2" "$3")" "${4:-EINVAL}"
	kmsg_noise 1
	within "$1: at most one log line" "$(kmsg_ours_since "$lines" | wc -l)" 0 1
}

load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_count tracepoints=tpstat_test_fire
fire 5

long=$(printf '%0300d' 0)
for bad in 2 -1 abc 0x1 '1 1' 01 ' 1' "$long" '1\0000' '\n' '\n\n'; do
	refused "enable refuses '$bad'" $TP/test/enable "$bad"
	refused "reset refuses '$bad'" $TP/test/reset "$bad"
done
refused "reset refuses 0" $TP/test/reset 0
# write(fd, buf, 0) may not reach the file at all; either way nothing moves.
within "an empty write is a no-op or refused" \
	"$(write_error $TP/test/enable '' | sed 's/accepted/0/; s/EINVAL/0/')" 0 0

is "a 1 MiB write is refused" \
	"$(head -c 1048576 /dev/zero | /payload/bin/write-once $TP/test/enable)" EINVAL

# A line one byte per write(), as a slow writer sends it, from the state
# opposite to the one it asks for, both ways. Each write is a line of its
# own: the digit alone is whole and taken, the newline after it an empty
# line, refused.
is "enabled before the one-byte writes" "$(cat $TP/test/enable)" 1
is "'0\\n' one byte at a time: the digit taken, the newline refused" \
	"$(printf '0\n' | /payload/bin/write-bytes $TP/test/enable)" "accepted EINVAL"
is "so the set is disabled" "$(cat $TP/test/enable)" 0
is "its probe detached" "$(state_of test tpstat_test_fire)" disabled
fire 3
is "and counting nothing" "$(stat_of test tpstat_test_fire.hits)" 5
is "'1\\n' one byte at a time: the digit taken, the newline refused" \
	"$(printf '1\n' | /payload/bin/write-bytes $TP/test/enable)" "accepted EINVAL"
is "so the set is enabled again" "$(cat $TP/test/enable)" 1
is "its probe attached again" "$(state_of test tpstat_test_fire)" attached

is "counts unchanged" "$(stat_of test tpstat_test_fire.hits)" 5
is "histogram unchanged" "$(stat_of test hist.count)" 5
is "reset '1\\n' one byte at a time: the digit taken, the newline refused" \
	"$(printf '1\n' | /payload/bin/write-bytes $TP/test/reset)" "accepted EINVAL"
is "so the counts are reset" \
	"$(stat_of test tpstat_test_fire.hits) $(stat_of test hist.count)" "0 0"

C=$TP/count/control
name128=$(printf 'a%0127d' 0)
for bad in 1abc foo-bar 'a b' 'sched_switch\0x' "$name128" '!' '!1abc' 'a,b' \
	'\001' '\377'; do
	refused "control refuses '$bad'" $C "$bad"
done
refused "control: removing what is not counted" $C '!sched_switch' ENOENT
is "control unchanged" "$(cat $C)" tpstat_test_fire
is "the longest name is accepted" "$(write_error $C "$(printf 'a%0126d' 0)")" accepted
is "a name nothing provides waits" "$(state_of count "$(printf 'a%0126d' 0)")" waiting
# The count set counted all 8 fired: 5, then 3 while the test set was off.
is "count unchanged" "$(stat_of count tpstat_test_fire.hits)" 8
rmmod tpstat_count

# refused_load DESC MODULE PARAMS ERRNO
refused_load() {
	lines=$(kmsg_lines)
	is "$1" "$(load_error "$2" "$3")" "$4"
	kmsg_noise 1
	within "$1: at most one log line" "$(kmsg_ours_since "$lines" | wc -l)" 0 1
}
for p in tracepoints=bad-name tracepoints=a,b-c tracepoints=a,b,a \
	max_tracepoints=0 max_tracepoints=4097 max_tracepoints=-1 \
	max_tracepoints=x; do
	refused_load "tpstat_count refuses $p" tpstat_count "$p" EINVAL
done
# The one line says which name and why.
lines=$(kmsg_lines)
load_error tpstat_count tracepoints=sched_switch,foo-bar >/dev/null
check "the log names the bad name" \
	sh -c "dmesg | tail -n +$((lines + 1)) | grep -q \"'foo-bar' is not a tracepoint name\""
lines=$(kmsg_lines)
load_error tpstat_count tracepoints=kfree,sched_switch,kfree >/dev/null
check "the log names the name listed twice" \
	sh -c "dmesg | tail -n +$((lines + 1)) | grep -q 'tracepoints= lists kfree twice'"
# Blanks around names and empty entries are not errors.
for p in 'tracepoints=kfree,' 'tracepoints=,' 'tracepoints=a,,b' \
	'tracepoints=" kfree , sched_switch "'; do
	is "tpstat_count loads with $p" "$(load_error tpstat_count "$p")" loaded
	rmmod tpstat_count
done
load tpstat_count 'tracepoints=" kfree , sched_switch "'
is "blanks are not part of a name" "$(cat $C | tr '\n' ' ')" "kfree sched_switch "
rmmod tpstat_count
refused_load "tpstat_count refuses an overflowing number" tpstat_count \
	max_tracepoints=99999999999 ERANGE
check "max_tracepoints bounds the control file" load tpstat_count max_tracepoints=1
echo tpstat_test_fire > $C
is "one more is refused" "$(write_error $C sched_switch)" ENOSPC
rmmod tpstat_count

rmmod tpstat_test_probe
for p in table_keys=0 table_keys=65537 table_keys=-5; do
	refused_load "tpstat_test_probe refuses $p" tpstat_test_probe "$p" EINVAL
done
# Its files and data listed in place inside init, on the stack: refused,
# the one line says why.
lines=$(kmsg_lines)
refused_load "tpstat_test_probe refuses lists on the stack" tpstat_test_probe \
	stack_lists=1 EINVAL
check "the log says the lists are on the stack" \
	sh -c "dmesg | tail -n +$((lines + 1)) | grep -q 'tpstat: test: the set or a list of it is on the stack'"
check "nothing is left of the refused loads" \
	sh -c "! grep -qE '^(tpstat_count|tpstat_test_probe) ' /proc/modules"
unload_all
