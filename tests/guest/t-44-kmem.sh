# SPDX-License-Identifier: GPL-2.0
# tpstat_kmem against slab allocations driven on purpose
# (tpstat_test_kmem.ko, each kind from a function of its own): a call
# site's exact hits, bytes and frees, the allocated bytes of its size class
# as the kernel's own kmalloc event gives them, a leak outstanding until it
# is freed and its age against /proc/uptime, the test's own cache, page
# allocations and frees against /proc/vmstat,
# a site named only while its code is there, a table too small for every
# site, and a pairing map full of allocations freed where no tracepoint
# fires.

plan 44

K=$TP/kmem
TK=/sys/kernel/debug/tpstat_test_kmem
TR=/sys/kernel/tracing

# site FUNCTION FIELD [FILE]: FIELD of the call sites in FUNCTION, summed,
# from the stats or FILE, a copy of them
# ("site.<function>+0x<off>/0x<size>_[module].<field>").
site() {
	awk -v f="site.$1+" -v k=".$2" '
		index($1, f) == 1 && substr($1, length($1) - length(k) + 1) == k {
			s += $2; n++
		}
		END { print n ? s : "none" }' "${3:-$K/stats}"
}

# value KEY FILE: KEY's value in FILE, a copy of the stats, or "none".
value() {
	awk -v k="$1" '$1 == k { v = $2 } END { print v == "" ? "none" : v }' "$2"
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

t0=$(uptime_cs)
echo "300 64" > $TK/leak
t1=$(uptime_cs)
is "a leak of 300: outstanding" "$(site tpstat_test_kmem_leak outstanding)" 300
is "a leak of 300: outstanding bytes" \
	"$(site tpstat_test_kmem_leak outstanding_bytes)" 19200
row=$(awk '$1 ~ /^tpstat_test_kmem_leak\+/ { print $3, $4 }' $K/outstanding)
is "outstanding shows it: count and bytes" "$row" "300 19200"
# Its oldest's age against /proc/uptime: made between t0 and t1, read
# between t2 and t3 (centiseconds), give or take a jiffy and a read's
# rounding.
sleep 1
t2=$(uptime_cs)
age=$(awk '$1 ~ /^tpstat_test_kmem_leak\+/ { print $5 }' $K/outstanding)
t3=$(uptime_cs)
within "a second later, its oldest's age is the time since it was made" \
	"$age" $(((t2 - t1) * 10 - 20)) $(((t3 - t0) * 10 + 20))
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
# and pgfree counters, read four times: before the reset (a), after it
# (b), before the disable (c) and after it (d). Whatever the set counted
# happened between a and d, and it saw all that happened between b and
# c: d - a is its upper bound, c - b its lower, whatever else the guest
# allocates or frees around the window (the debug kernel frees slabs late,
# from KASAN's quarantine and RCU). pgalloc_* also counts the bulk
# allocator's pages, which fire no mm_page_alloc (README); its users are
# vmalloc (a fork's stack among others) and page_pool, and the window
# holds neither: no fork, the test's array of 200 pointers is kmalloc'd,
# and the guest has no network card.
vmstat_pages() {
	vm=0 vmf=0
	while read -r k v; do
		case $k in
		pgalloc_*) vm=$((vm + v)) ;;
		pgfree) vmf=$v ;;
		esac
	done < /proc/vmstat
}
set_pages() {
	pages=0 order2=0 fpages=0 forder2=0 unmovable=0 movable=0 reclaimable=0
	while read -r k v; do
		case $k in
		pages.unmovable) unmovable=$v ;;
		pages.movable) movable=$v ;;
		pages.reclaimable) reclaimable=$v ;;
		pages.order*.allocs)
			o=${k#pages.order}
			o=${o%.allocs}
			pages=$((pages + (v << o)))
			[ "$o" = 2 ] && order2=$v ;;
		pages.order*.frees)
			o=${k#pages.order}
			o=${o%.frees}
			fpages=$((fpages + (v << o)))
			[ "$o" = 2 ] && forder2=$v ;;
		esac
	done < $K/stats
}
# page_window FILE DRIVE: DRIVE written to the test module's FILE in the
# window; the four reads in $va..$vd (pgalloc_*) and $vfa..$vfd (pgfree),
# the set's counts as set_pages gives them.
page_window() {
	vmstat_pages
	va=$vm vfa=$vmf
	echo 1 > $K/reset
	vmstat_pages
	vb=$vm vfb=$vmf
	echo "$2" > "$TK/$1"
	vmstat_pages
	vc=$vm vfc=$vmf
	echo 0 > $K/enable
	vmstat_pages
	vd=$vm vfd=$vmf
	set_pages
	echo 1 > $K/enable
}
page_window pages "200 2"
within "pages: 200 of order 2 driven, as /proc/vmstat counts them around the window" \
	"$pages" $((vc - vb)) $((vd - va))
within "pages: order 2 has the 200, no more than the window's pages" \
	"$order2" 200 $(((vd - va) / 4))
within "pages freed: the 200 of order 2 back, as /proc/vmstat's pgfree counts them around the window" \
	"$fpages" $((vfc - vfb)) $((vfd - vfa))
within "pages freed: order 2 has the 200, no more than the window's pages" \
	"$forder2" 200 $(((vfd - vfa) / 4))

# Migrate types, as the allocations asked for them: GFP_KERNEL's are
# unmovable, and the test module asks for movable and reclaimable pages
# too. Each other allocation in the window is at most one more of a type:
# the window's pages less the driven ones bound them.
within "migrate types: the 200 asked unmovable, counted so" \
	"$unmovable" 200 $((200 + vd - va - 800))
for type in movable reclaimable; do
	page_window pages_$type "100 1"
	within "migrate types: 100 of order 1 asked $type, counted so" \
		"$(eval echo "\$$type")" 100 $((100 + vd - va - 200))
done

# The sizes asked for, by call site: after a reset, 300 kmallocs of 700
# bytes and 200 of 3000, and the site's histogram in the sizes file holds
# exactly them, each in its power of two: 300 in 512 -> 1023, 200 in
# 2048 -> 4095, no other bucket.
echo 1 > $K/reset
echo "300 700" > $TK/alloc
echo "200 3000" > $TK/alloc
got=$(awk '/^tpstat_test_kmem_alloc\+/ { in_site = 1; next }
	/^$/ { in_site = 0 }
	in_site && $2 == "->" && $5 > 0 { printf "%s:%s ", $1, $5 }' $K/sizes)
is "sizes: the site's buckets hold the 300 of 700 bytes and the 200 of 3000" \
	"$got" "512:300 2048:200 "

# A call site is named when it allocates, while its code is surely there,
# never when a free comes: by then the code may be gone. The test module's
# init code makes 200 objects and is discarded when the load ends; after
# a reset, which empties the rows, the objects are freed. Naming their
# site then would look an address up where no code is any more (labelled
# "unknown"), or code loaded there since (someone else's name).
rmmod tpstat_test_kmem
check "tpstat_test_kmem.ko loads, its init code keeping 200 objects" \
	load tpstat_test_kmem init_leak=200
is "the init code's 200 outstanding, under its name" \
	"$(site tpstat_test_kmem_init_alloc outstanding)" 200
echo 1 > $K/reset
echo 0 > $TK/leak
cat $K/stats > /tmp/kmem-freed
is "their frees after the reset name no site: no 'unknown' row" \
	"$(value site.unknown.frees /tmp/kmem-freed)" none
unnamed=$(awk '$1 ~ /^site\..*\.hits$/ && $1 != "site.other.hits" && $2 == 0 {
	print $1 }' /tmp/kmem-freed)
is "every call site row was made by an allocation (none with 0 hits)" \
	"$unnamed" ""
within "the 200 count in other's frees, the row that needs no name" \
	"$(value site.other.frees /tmp/kmem-freed)" 200 1000000000

# One row: every other site's events go to "other", none lost. The set
# is detached before its stats are read, so that one read holds still:
# the rows, other's included, add up to every allocation the probes were
# hit by that did not fail (a NULL pointer names no site), counted by the
# core apart from any row. Other alone cannot show it: under kmemleak
# each kmalloc brings a kmem_cache_alloc of kmemleak's, other's whatever
# the test's row holds. 50 kmallocs of a size no kmalloc can give fail
# in the window, asked without a warning: the failed, exactly those.
rmmod tpstat_kmem
check "tpstat_kmem.ko loads with one call site row" load tpstat_kmem max_sites=1
echo "1000 100" > $TK/alloc
is "50 kmallocs of an impossible size, each NULL" "$(write_error $TK/fail 50)" \
	accepted
echo 0 > $K/enable
cat $K/stats > /tmp/kmem-one
hits=$(site tpstat_test_kmem_alloc hits /tmp/kmem-one)
other=$(value site.other.hits /tmp/kmem-one)
in_other=no
[ "$hits" = none ] && [ "$other" -ge 1000 ] && in_other=yes
check "1000 kmallocs in their row ($hits) or, with none, in other ($other)" \
	[ "$hits" = 1000 -o "$in_other" = yes ]
rows=$(awk '$1 ~ /^site\..*\.hits$/ { s += $2 } END { print s + 0 }' \
	/tmp/kmem-one)
probed=$(($(value kmalloc.hits /tmp/kmem-one) + \
	$(value kmem_cache_alloc.hits /tmp/kmem-one) - \
	$(value failed /tmp/kmem-one)))
is "one row: the rows' hits, other's among them, are the probes' hits less the failed" \
	"$rows" "$probed"
is "the failed allocations: the 50, named by no site" \
	"$(value failed /tmp/kmem-one) $(site tpstat_test_kmem_fail hits /tmp/kmem-one)" \
	"50 none"

# Frees no tracepoint sees: kfree_bulk() and kmem_cache_free_bulk() fire
# no kfree or kmem_cache_free event, so the map keeps their allocations as
# if never freed. From the test's own cache, whose freed objects nothing
# else takes meanwhile (a kmalloc'd one would soon be reused, replacing
# its entry: the reader's own buffers did so).
rmmod tpstat_kmem
load tpstat_kmem
echo 100 > $TK/kfree_bulk
is "100 objects freed by kfree_bulk(): outstanding still, as README says" \
	"$(site tpstat_test_kmem_kfree_bulk outstanding)" 100
echo 100 > $TK/cache_bulk
is "100 objects freed by kmem_cache_free_bulk(): outstanding still" \
	"$(site tpstat_test_kmem_fill outstanding)" 100

# Hours of such frees fill the map. Filled on purpose: 4096 allocations
# freed in bulk into a map of 1024, then 400 kmallocs held at once and
# freed. (Under kmemleak each object brings one of kmemleak's own, freed
# with it: the fill leaves the map half full, and the 400 fill the rest.)
# The map must make room for each by evicting its oldest starts (the
# fill's, which no end will ever take) and go on following new ones: all
# 400 counted, their frees paired but for the few evicted in a window
# holding only newer ones (under kmemleak, kmemleak's own). The fill's
# entries leave only by eviction (their frees are never seen, the cache
# is the test's alone): each one lost, and each of the 400 unpaired, is
# one of the evictions counted between two reads of the stats
# (live.expired), none dropped.
evictions() { awk '$1 == "live.expired" { print $2 }' "$1"; }
rmmod tpstat_kmem
check "tpstat_kmem.ko loads with room for 1024 allocations" \
	load tpstat_kmem max_outstanding=1024
echo 4096 > $TK/cache_bulk
cat $K/stats > /tmp/kmem-full
cat $K/stats > /tmp/kmem-full2
echo "400 100" > $TK/alloc
cat $K/stats > /tmp/kmem-after
cat $K/stats > /tmp/kmem-again
is "a full map: 400 kmallocs all counted at their site" \
	"$(site tpstat_test_kmem_alloc hits /tmp/kmem-after)" 400
paired=$(site tpstat_test_kmem_alloc frees /tmp/kmem-after)
is "a full map: none of the 400 left outstanding" \
	"$(site tpstat_test_kmem_alloc outstanding /tmp/kmem-after)" 0
fill0=$(site tpstat_test_kmem_fill outstanding /tmp/kmem-full)
fill1=$(site tpstat_test_kmem_fill outstanding /tmp/kmem-after)
ev=$(($(evictions /tmp/kmem-after) - $(evictions /tmp/kmem-full)))
check "the map stayed full of the fill's entries ($fill0, then $fill1)" \
	[ "$fill1" -gt 0 ] 2>/dev/null
check "room was made by evicting ($ev)" [ "$ev" -gt 0 ]
# The fill's entries lost and the 400's unpaired were each evicted and
# counted: at most the evictions counted, which may also take others'
# (the oldest in a key's window goes, not the oldest of all: under
# kmemleak, 306 evictions took 304 of the fill's). A read walks the map,
# then prints the counts: allocations meanwhile (the read's own) may
# evict between the two, as many as the read after it measures: after
# the full map's read too, whose own evictions, counted before its
# count, took entries its walk had seen (6.12 in CI: 357 lost, 356 in
# the window, 0 in the read after the 400).
d0=$(($(evictions /tmp/kmem-full2) - $(evictions /tmp/kmem-full)))
d=$(($(evictions /tmp/kmem-again) - $(evictions /tmp/kmem-after)))
within "the fill's lost ($((fill0 - fill1))) and the 400's unpaired ($((400 - paired))) were evicted and counted ($ev, $d0 and $d in the reads)" \
	$((fill0 - fill1 + 400 - paired)) 1 $((ev + d0 + d))

# A start from before the set's probes were last attached is never paired:
# such entries are the first to go. The map is still full of the fill's;
# detached and attached again, reset, it must follow 200 more kmallocs.
echo 0 > $K/enable
echo 1 > $K/enable
echo 1 > $K/reset
echo "200 100" > $TK/alloc
is "re-attached with a full map of old entries: 200 frees paired" \
	"$(site tpstat_test_kmem_alloc hits) $(site tpstat_test_kmem_alloc frees)" \
	"200 200"
