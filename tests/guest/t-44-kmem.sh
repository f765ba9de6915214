# SPDX-License-Identifier: GPL-2.0
# tpstat_kmem against slab allocations driven on purpose
# (tpstat_test_kmem.ko, each kind from a function of its own): a call
# site's exact hits, bytes and frees, the allocated bytes of its size class
# as the kernel's own kmalloc event gives them, a leak outstanding until it
# is freed, the test's own cache, page allocations against /proc/vmstat,
# and a table too small for every site.

plan 20

K=$TP/kmem
TK=/sys/kernel/debug/tpstat_test_kmem
TR=/sys/kernel/tracing

# site FUNCTION FIELD: FIELD of the call sites in FUNCTION, summed, from
# the stats ("site.<function>+0x<off>/0x<size>_[module].<field>").
site() {
	awk -v f="site.$1+" -v k=".$2" '
		index($1, f) == 1 && substr($1, length($1) - length(k) + 1) == k {
			s += $2; n++
		}
		END { print n ? s : "none" }' $K/stats
}

load tpstat
check "tpstat_kmem.ko loads" load tpstat_kmem
check "tpstat_test_kmem.ko loads" load tpstat_test_kmem

# The bytes a kmalloc of 100 is given, by the kernel's own event.
[ -d $TR/events ] || mount -t tracefs nodev $TR
echo > $TR/trace
echo 1 > $TR/events/kmem/kmalloc/enable
echo "1 100" > $TK/alloc
echo 0 > $TR/events/kmem/kmalloc/enable
class=$(grep 'call_site=tpstat_test_kmem_alloc+' $TR/trace | head -n 1 |
	sed -n 's/.*bytes_alloc=\([0-9]*\).*/\1/p')
echo > $TR/trace
check "the kernel's kmalloc event gives a size class for 100 bytes ($class)" \
	[ -n "$class" ]

echo 1 > $K/reset
echo "1000 100" > $TK/alloc
is "1000 kmallocs: hits" "$(site tpstat_test_kmem_alloc hits)" 1000
is "1000 kmallocs: bytes requested" "$(site tpstat_test_kmem_alloc bytes_req)" 100000
is "1000 kmallocs: bytes allocated, the size class's" \
	"$(site tpstat_test_kmem_alloc bytes_alloc)" $((1000 * class))
is "1000 kmallocs: frees, counted at the allocating site" \
	"$(site tpstat_test_kmem_alloc frees)" 1000
is "1000 kmallocs: none outstanding" "$(site tpstat_test_kmem_alloc outstanding)" 0
check "callsites names the site, never an address" \
	grep -q '^tpstat_test_kmem_alloc+0x[0-9a-f]*/0x[0-9a-f]* \[tpstat_test_kmem\] ' \
	$K/callsites

echo "300 64" > $TK/leak
is "a leak of 300: outstanding" "$(site tpstat_test_kmem_leak outstanding)" 300
is "a leak of 300: outstanding bytes" \
	"$(site tpstat_test_kmem_leak outstanding_bytes)" 19200
row=$(awk '$1 ~ /^tpstat_test_kmem_leak\+/ { print $3, $4 }' $K/outstanding)
is "outstanding shows it: count and bytes" "$row" "300 19200"
echo 0 > $TK/leak
is "freed: none outstanding" "$(site tpstat_test_kmem_leak outstanding)" 0
is "freed: 300 frees" "$(site tpstat_test_kmem_leak frees)" 300

echo 1 > $K/reset
echo 500 > $TK/cache
is "the test's cache: allocations, frees, bytes" \
	"$(stat_of kmem cache.1212-byte_objects.count) $(stat_of kmem cache.1212-byte_objects.frees) $(stat_of kmem cache.1212-byte_objects.sum)" \
	"500 500 606000"
# The cache's objects have one size: a second number is refused.
is "the test's cache refuses a size" "$(write_error $TK/cache '5 7')" EINVAL

# Pages: the set's pages of every order against the kernel's pgalloc_*
# counters. The set counts from its reset to its disable, /proc/vmstat is
# read inside that window, without a fork: the difference is what the two
# writes at the edges allocate, measured three times with nothing driven.
vmstat_pages() {
	vm=0
	while read -r k v; do
		case $k in pgalloc_*) vm=$((vm + v)) ;; esac
	done < /proc/vmstat
}
set_pages() {
	pages=0 order2=0
	while read -r k v; do
		case $k in
		pages.order*.allocs)
			o=${k#pages.order}
			o=${o%.allocs}
			pages=$((pages + (v << o)))
			[ "$o" = 2 ] && order2=$v ;;
		esac
	done < $K/stats
}
# page_window DRIVE: $pages and $order2 of the set, $vm of /proc/vmstat.
page_window() {
	echo 1 > $K/reset
	vmstat_pages
	vm0=$vm
	[ -n "$1" ] && echo "$1" > $TK/pages
	vmstat_pages
	echo 0 > $K/enable
	vm=$((vm - vm0))
	set_pages
	echo 1 > $K/enable
}
edge=0
for i in 1 2 3; do
	page_window ""
	[ $((pages - vm)) -gt $edge ] && edge=$((pages - vm))
done
page_window "200 2"
within "pages: 200 of order 2 driven, as /proc/vmstat counts them (edges $edge)" \
	"$pages" "$vm" $((vm + 2 * edge + 2))
within "pages: order 2 has the 200" "$order2" 200 $((200 + 2 * edge + 2))

# One row: every other site's events go to "other", none lost.
rmmod tpstat_kmem
check "tpstat_kmem.ko loads with one call site row" load tpstat_kmem max_sites=1
echo "1000 100" > $TK/alloc
hits=$(site tpstat_test_kmem_alloc hits)
other=$(stat_of kmem site.other.hits)
check "1000 kmallocs in their row ($hits) or in other ($other)" \
	[ "$hits" = 1000 -o "$other" -ge 1000 ]
