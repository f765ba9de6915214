# SPDX-License-Identifier: GPL-2.0
# Each probe set's memory, as the memory file counts it, against the
# kernel's own accounting around its insmod: what /proc/meminfo's Percpu,
# Slab and VmallocUsed grew by, less the module's own size in
# /proc/modules. The file counts what the allocators gave (a kvmalloc()
# of 33 KiB takes 64 in Slab), so the two agree within a slack: what a set
# holds beside its data (its debugfs files' inodes and dentries, its
# module's sysfs directory, its probes' names), slab pages that its small
# objects start or find free, the loader's vmalloc() pages not yet freed,
# 128 KiB for those (32 to 72 KiB seen); and the per-CPU pages, which the
# kernel populates a page for every possible CPU at a time, or had
# populated already. Before the memory file counted what the allocators
# gave, tpstat_kmem was 530 KiB short, tpstat_net 365 KiB. The counters
# are folded (vm/stat_refresh) before each reading: per-CPU differences
# not yet in /proc/meminfo were worth 64 KiB of Slab. One load can still
# be caught by another's deferred frees (an RCU-freed inode, a module's
# init pages): each set loads five times and the middle of its five
# differences is checked.

plan 10

LOADS=5
possible=$(cat /sys/devices/system/cpu/possible)
ncpus=$((${possible##*[-,]} + 1))
slack=$((131072 + 4096 * ncpus))
# On the debug kernel KASAN's quarantine keeps what a load frees, and
# kmemleak tracks each object with one of its own: the kernel grows by
# more than a set holds, so only the other side is checked there, that the
# file never counts more than the kernel gave.
upper=$slack
lower=$slack
agreement="agrees with the kernel's, within $slack bytes"
# There, too, KASAN frees its quarantine in batches of hundreds of KiB, in
# whichever load fills it: single differences from -1564 to +776 KiB were
# seen there (under 80 KiB on the production kernels), and the middle of
# five as low as -223 KiB in CI runs. Its lower side allows 512 KiB more:
# the last two sets' tables (2 and 3 MiB) counted twice would still fail.
if debug_kernel; then
	upper=$((1 << 40))
	lower=$((slack + 524288))
	agreement="is no more than the kernel's growth, within $lower bytes"
fi

meminfo() {
	awk -v k="$1:" '$1 == k { print $2 * 1024 }' /proc/meminfo
}

# Percpu + Slab + VmallocUsed, in bytes, every CPU's part folded in.
kernel_bytes() {
	echo 1 > /proc/sys/vm/stat_refresh
	echo $(($(meminfo Percpu) + $(meminfo Slab) + $(meminfo VmallocUsed)))
}

total() {
	awk '$1 == "total" { print $2 }' $TP/memory
}

# median N...: the middle one of an odd number of numbers.
median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[(NR + 1) / 2] }'
}

# agrees MODULE ARGS...: loads MODULE with ARGS $LOADS times; each time
# the kernel's growth beyond the module's size, less the memory file's.
agrees() {
	m=$1
	shift
	diffs=
	held=
	i=0
	while [ $i -lt $LOADS ]; do
		mem0=$(total)
		k0=$(kernel_bytes)
		load "$m" "$@" || { echo "# $m: does not load"; return 1; }
		k1=$(kernel_bytes)
		held=$(($(total) - mem0))
		size=$(awk -v m="$m" '$1 == m { print $2 }' /proc/modules)
		diffs="$diffs $((k1 - k0 - size - held))"
		rmmod "$m" || return 1
		i=$((i + 1))
	done
	echo "# $m: memory $held, the kernel's growth beyond it:$diffs"
	d=$(median $diffs)
	if [ "$held" -gt 0 ] && [ "$d" -le "$upper" ] && [ "$d" -ge $((-lower)) ]; then
		return 0
	fi
	echo "# $m: the middle difference, $d, is not within -$lower to $upper"
	return 1
}

load tpstat
is "memory: nothing before the sets" "$(total)" 0
for s in irq kmem net sched; do
	check "tpstat_$s: memory $agreement" \
		agrees tpstat_$s
done
check "tpstat_stack by stack: memory $agreement" \
	agrees tpstat_stack 'tracepoints="kmalloc by stack"'
# Large enough that their pages are most of the growth, and each table
# under 2 MiB: a vmalloc() of more may take huge pages, which the memory
# file cannot see.
check "tpstat_kmem with 2048 sites: memory $agreement" \
	agrees tpstat_kmem max_sites=2048
check "tpstat_stack with 4096 stacks of 32 frames: memory $agreement" \
	agrees tpstat_stack 'tracepoints="kmalloc by stack"' max_stacks=4096 depth=32
# By set: each set's line is what loading it added to the total, and a
# set gone has none.
set_bytes() {
	awk -v k="set.$1" '$1 == k { print $2 }' $TP/memory
}
load tpstat_irq
t_irq=$(total)
load tpstat_net
t_both=$(total)
both="$(set_bytes irq) $(set_bytes net)"
rmmod tpstat_irq
is "memory by set: irq's line and net's what each load added, irq's gone with it" \
	"$both [$(set_bytes irq)]" "$t_irq $((t_both - t_irq)) []"
rmmod tpstat_net
is "memory: nothing left after the sets" "$(total)" 0
unload_all
