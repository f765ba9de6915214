# SPDX-License-Identifier: GPL-2.0
# The failed state: the kernel refused a probe. tracepoint_probe_register()
# allocates the tracepoint's new array of probes; failslab makes that
# allocation fail (the Nth slab allocation of a write to count/control, by
# /proc/thread-self/fail-nth), for N = 1, 2, ... until a write that adds the
# name succeeds with an allocation failed: the one of the registration. The
# probe must then show as failed, count nothing, say why in one log line,
# and attach when its set is enabled again.

FS=/sys/kernel/debug/failslab
if [ ! -d $FS ]; then
	plan 1
	skip "a probe the kernel refused shows as failed" "this kernel has no fault injection"
	return 0
fi
plan 12

# counts_row NAME: NAME's state and total in count/counts.
counts_row() { awk -v n="$1" '$1 == n { print $2, $3 }' $TP/count/counts; }

load tpstat
load tpstat_test_tp
check "tpstat_count.ko loads with nothing to count" load tpstat_count

# Sleeping allocations fail too; the reports of failslab and of
# fail_page_alloc (a stack each) stay off.
FP=/sys/kernel/debug/fail_page_alloc
read -r gfp_wait < $FS/ignore-gfp-wait
read -r verbose < $FS/verbose
read -r page_verbose < $FP/verbose
echo N > $FS/ignore-gfp-wait
echo 0 > $FS/verbose
echo 0 > $FP/verbose
expect_alloc_failures

# fail-nth counts page allocations too, and KASAN's stack depot makes one
# now and then: the points of one write may shift by one from the last, and
# a pass may step over the registration's. Up to three passes.
pass=0 point= refused=0 survived=0 whole=0 result=
while [ -z "$point" ] && [ $pass -lt 3 ]; do
	pass=$((pass + 1))
	n=1
	while [ $n -le 200 ]; do
		lines=$(kmsg_lines)
		result=$(printf tpstat_test_fire |
			/payload/bin/write-once --fail-nth $n $TP/count/control)
		case $result in
		"ENOMEM reached")
			# Refused before the probe was added: nothing may be left.
			refused=$((refused + 1))
			[ "$(state_of count tpstat_test_fire)" = none ] ||
				fail "failed allocation $n refused the write but left the probe"
			;;
		"accepted reached")
			if [ "$(state_of count tpstat_test_fire)" = failed ]; then
				point=$n
				break
			fi
			# An allocation made up for (a fallback): the write must
			# have done all it does when nothing fails. Then again.
			survived=$((survived + 1))
			fire 3
			[ "$(counts_row tpstat_test_fire)" = "attached 3" ] &&
				whole=$((whole + 1))
			echo '!tpstat_test_fire' > $TP/count/control
			;;
		*) break ;;
		esac
		n=$((n + 1))
	done
	# A pass that ended with the write whole starts over without it.
	[ -n "$point" ] || echo '!tpstat_test_fire' > $TP/count/control
done
echo "$gfp_wait" > $FS/ignore-gfp-wait
echo "$verbose" > $FS/verbose
echo "$page_verbose" > $FP/verbose
echo "# $T: $refused refused, $survived survived, failed state at allocation ${point:-none} of pass $pass ($result)"

check "a failed allocation leaves a probe the kernel refused" [ -n "$point" ]
check "allocations before it refused the write" [ $refused -gt 0 ]
is "a write that survived a failed allocation attached and counts" $whole $survived
is "the probes file says failed" "$(state_of count tpstat_test_fire)" failed
is "counts says failed, nothing counted" "$(counts_row tpstat_test_fire)" "failed 0"
kmsg_noise 1
log=$(kmsg_ours_since "$lines")
is "one log line, saying why (lines, lines saying it)" \
	"$(echo "$log" | wc -l) $(echo "$log" | grep -c 'tpstat: count: cannot attach to tpstat_test_fire: -12$')" \
	"1 1"
fire 25
is "a failed probe counts nothing" "$(counts_row tpstat_test_fire)" "failed 0"
is "control lists it still" "$(cat $TP/count/control)" tpstat_test_fire

# Enabling the set again registers it again, this time with memory.
echo 0 > $TP/count/enable
is "disabled" "$(state_of count tpstat_test_fire)" disabled
echo 1 > $TP/count/enable
is "attached once enabled again" "$(state_of count tpstat_test_fire)" attached
fire 25
is "and counts exactly" "$(counts_row tpstat_test_fire)" "attached 25"
unload_all
