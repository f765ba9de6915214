# SPDX-License-Identifier: GPL-2.0
# The torture of the core's shared tables: tpstat_torture.ko drives the
# pairing map, the task table, keyed data and stack counts from more
# threads than CPUs and from an hrtimer in hard IRQ context on each CPU,
# and holds the tables' own counts to what its callers tallied. A clean run
# reports 0 errors after a minimum of calls; a run with ends skipped on
# purpose must report the two checks that catch them, and no other; an
# unload in the middle of a run ends it, checked.

plan 13

SUM=/sys/kernel/debug/tpstat_torture/summary
# Longer where lockdep, KASAN and kmemleak watch.
SECS=10
debug_kernel && SECS=60

# until_ran LIMIT: the summary once the run is over, polled for at most
# LIMIT seconds; "running" if it is not.
until_ran() {
	n=0
	while [ "$(cat $SUM)" = running ] && [ $n -lt $(($1 * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	cat $SUM
}

# field N LINE: the Nth word of LINE.
field() {
	shift "$1"
	echo "$1"
}

# On the map before the review's fix this run's checks of lost starts and
# of starts held at the end failed together once, 1 and 1 (6.12, four
# vCPUs, a host thread each): most likely a start saved behind a slot
# that went free between the look for an empty slot and its hold, which
# no end finds (the ABA the host's torture reproduces every time).
load tpstat
load tpstat_torture seconds=$SECS
is "no run before one is asked for" "$(cat $SUM)" none
before=$(kmsg_lines)
echo run > $SUM
is "a second run is refused while one goes on" "$(write_error $SUM 'run\n')" EBUSY
# Threads, tasks and timers of the run share two emulated CPUs with the
# rest of the guest: its end may come well after its length.
line=$(until_ran $((SECS * 6 + 60)))
echo "# $line"
ops=$(field 2 $line)
is "the run's summary line" "$line" "tpstat_torture: $ops ops, 0 errors"
within "it made a minimum of calls into the tables" "$ops" 20000 100000000000
is "and logged it" \
	"$(kmsg_since "$before" | grep -c "tpstat_torture: $ops ops, 0 errors")" 1
kmsg_since "$before" | grep 'tpstat_torture:' | grep -v ' ops, ' | sed 's/^/# /'
grep -E '^(pairs|tasks)\.' $TP/torture/stats | tr '\n' ' ' | sed 's/^/# /; s/ $/\n/'
is "the map holds no start, the table no task's words" \
	"$(stat_of torture pairs.held) $(stat_of torture tasks.held)" "0 0"
rmmod tpstat_torture

# A map of 8 for the 20 starts kept open, whose starts expire after
# 500 us: full all the time, it evicts. Every start an end did not find
# must be one it counted as expired, and none may go younger. The map
# before the review's fix failed the last now and then: it picked an
# expired start to evict by its time, read before it held the slot, so a
# fresh start saved in that slot meanwhile was evicted instead.
load tpstat_torture seconds=$((SECS / 2)) pair_slots=8 pair_age_us=500
before=$(kmsg_lines)
echo run > $SUM
line=$(until_ran $((SECS * 3 + 60)))
echo "# $line"
ops=$(field 2 $line)
is "evicting: the run's summary line" "$line" "tpstat_torture: $ops ops, 0 errors"
kmsg_since "$before" | grep 'tpstat_torture:' | grep -v ' ops, ' | sed 's/^/# /'
grep -E '^pairs\.' $TP/torture/stats | tr '\n' ' ' | sed 's/^/# /; s/ $/\n/'
within "evicting: the full map evicted expired starts" \
	"$(stat_of torture pairs.expired)" 1 100000000000
rmmod tpstat_torture

# Three ends skipped, counted by their callers as made: the map's pairs
# fall three short, and it still holds the three starts (or, full, has
# evicted them).
load tpstat_torture seconds=2 plant_skip_ends=3
before=$(kmsg_lines)
echo run > $SUM
line=$(until_ran 120)
ops=$(field 2 $line)
is "planted: three skipped ends make two errors" "$line" \
	"tpstat_torture: $ops ops, 2 errors"
errors=$(kmsg_since "$before" | grep 'tpstat_torture:' | grep -v ' ops, ')
echo "$errors" | sed 's/^/# /'
is "planted: the map's pairs fall three short of the callers' tally" \
	"$(echo "$errors" | awk '/ends the map counted as paired: / { print $NF - $(NF - 2) }')" 3
# The three starts no end took are still held, or, once the map filled,
# evicted without being counted as the callers' lost ones: three either way.
is "planted: the map holds the three starts, or evicted them unseen" \
	"$(echo "$errors" | awk '/starts held once all were ended: / { sub(/,/, "", $(NF - 2)); n += $(NF - 2) - $NF }
		/saved starts lost, against those counted as expired: / { sub(/,/, "", $(NF - 2)); n += $NF - $(NF - 2) }
		END { print n + 0 }')" 3
is "planted: no other check fails" "$(echo "$errors" |
	grep -cvE 'counted as paired: |starts held once all were ended: |saved starts lost, against those counted as expired: ')" 0
rmmod tpstat_torture

# An unload ends a run early, and still checks and logs it.
load tpstat_torture seconds=3600 run_at_load=1
before=$(kmsg_lines)
sleep 2
rmmod tpstat_torture
is "an unload ends the run, which logs 0 errors" \
	"$(kmsg_since "$before" | grep -c 'tpstat_torture: [0-9]* ops, 0 errors')" 1
