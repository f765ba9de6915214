# SPDX-License-Identifier: GPL-2.0
# tpstat_net against traffic driven on purpose and the kernel's own
# counters: loopback pings, exact per device and equal to what
# /proc/net/dev grew by, bytes from the size sent; a length filter that
# counts and times only the larger pings, bad filters refused and the old
# one still counting exactly; UDP to a closed port dropped as NO_SOCKET in
# __udp4_lib_rcv, as many as /proc/net/snmp's NoPorts grew by; a dummy
# device made and deleted in the window, its row kept under its name; the
# lo of another network namespace in a row of its own, and of two made one
# after the other, which may share an inode number, two rows; the
# README's filter over UDP datagrams read back, whose frees have no device;
# a veth pair's packets through GRO, and through the backlogs, as its ends
# count them; a driver that refuses packets (tpstat_test_netdev.ko), its
# refusals in not_sent.

plan 50

NET=$TP/net

load tpstat
check "tpstat_net.ko loads" load tpstat_net

# lo's received packets and bytes, sent packets and bytes, in
# /proc/net/dev's counting, and in the set's: the row of ifindex 1 in the
# initial namespace.
proc_lo() {
	sed 's/:/ /' /proc/net/dev | awk '$1 == "lo" { print $3, $2, $11, $10 }'
}
net_dev() {
	echo "$(stat_of net "dev.$1.rx_packets") $(stat_of net "dev.$1.rx_bytes")" \
		"$(stat_of net "dev.$1.tx_packets") $(stat_of net "dev.$1.tx_bytes")"
}
# What the four numbers of $2 grew by since $1.
grown() {
	set -- $1 $2
	echo "$(($5 - $1)) $(($6 - $2)) $(($7 - $3)) $(($8 - $4))"
}

# Each ping is an ICMP echo of SIZE bytes and 8 of header, in 20 of IPv4
# and 14 of Ethernet header: 42 more than SIZE, both ways. The loopback
# driver counts a packet's bytes once it has pulled the Ethernet header
# off, where other drivers count all of it, as tpstat does for every
# device: 14 fewer a packet in /proc/net/dev.
echo 1 > $NET/reset
before=$(proc_lo)
ping_lo 5 100
after=$(proc_lo)
is "5 pings of 100 bytes: 10 packets of 142 bytes each way" \
	"$(net_dev lo.1)" "10 1420 10 1420"
is "as /proc/net/dev grew, less 14 bytes of Ethernet header a packet" \
	"$(net_dev lo.1 | awk '{ print $1, $2 - 14 * $1, $3, $4 - 14 * $3 }')" \
	"$(grown "$before" "$after")"
is "each came through a backlog (netif_rx) and into the protocols" \
	"$(stat_of net rx_path.backlog) $(stat_of net received)" "10 10"
is "each was timed from its queueing to its transmission" \
	"$(stat_of net queue.paired) $(stat_of net queue.unpaired)" "10 0"
is "the sizes: 10 each way, all of 142 bytes" \
	"$(stat_of net sizes.rx.count) $(stat_of net sizes.rx.max) $(stat_of net sizes.tx.count) $(stat_of net sizes.tx.min)" \
	"10 142 10 142"
row=$(awk '$1 == "lo" && $2 == 1 {
	for (i = 9; i <= NF; i++) cpus += $i
	print $4, $5, $6, $7, $8, cpus }' $NET/devices)
is "the devices file: lo's row, its CPU columns summing both ways" \
	"$row" "10 1420 10 1420 0 20"

# With a filter, only the matching packets count, anywhere in the set.
F=$NET/filter
echo 'len > 500 && dev == lo' > $F
echo 1 > $NET/reset
ping_lo 3 100
ping_lo 4 1000
is "with 'len > 500 && dev == lo': only the 4 pings of 1000 bytes" \
	"$(net_dev lo.1)" "8 8336 8 8336"
is "and only they were timed; the others' transmissions counted nowhere" \
	"$(stat_of net queue.paired) $(stat_of net queue.unpaired)" "8 0"
for bad in 'len >' 'dev < lo' 'lenn > 5' 'len > 500 &&' '(len > 500' \
	'dev == "lo' 'protocol == ip'; do
	is "'$bad' is refused" "$(write_error $F "$bad")" EINVAL
done
is "the filter in force is kept" "$(cat $F)" 'len > 500 && dev == lo'
echo 1 > $NET/reset
ping_lo 2 100
ping_lo 3 1000
is "and still counts exactly" "$(net_dev lo.1)" "6 6252 6 6252"
echo 0 > $F

# Nothing listens on UDP port 9 here: each datagram is dropped where the
# socket is looked up, and counted by the kernel as NoPorts.
noports() { awk '$1 == "Udp:" { if (seen) print $3; seen = 1 }' /proc/net/snmp; }
echo 1 > $NET/reset
n0=$(noports)
/payload/bin/udp-send 127.0.0.1 9 7 32
n1=$(noports)
is "7 datagrams to a closed port: the kernel's NoPorts grew by 7" $((n1 - n0)) 7
is "drops: 7 under the kernel's NO_SOCKET" "$(stat_of net drop.NO_SOCKET)" 7
is "drops: 7 in __udp4_lib_rcv" "$(awk '
	index($1, "drop_site.__udp4_lib_rcv+") == 1 { n += $2 } END { print n + 0 }' \
	$NET/stats)" 7
check "the drops file names the reason as the kernel spells it" \
	grep -q '^NO_SOCKET  *7 ' $NET/drops
check "and the function, never an address" \
	grep -q '^__udp4_lib_rcv+0x[0-9a-f]*/0x[0-9a-f]*  *7 ' $NET/drops

# A device made, used and deleted between two reads keeps its row. Three
# pings through a dummy device, which drops what it is given as sent; no
# IPv6 on it, whose own packets would count too. Made first, with what
# went wrong said: its being gone below means nothing otherwise.
err=$(ip link add tpnet0 type dummy 2>&1) ||
	err="$err; $(insmod "/lib/modules/$(uname -r)/extra/dummy.ko" 2>&1 &&
		ip link add tpnet0 type dummy 2>&1)"
made=no
if [ -e /sys/class/net/tpnet0 ]; then
	made=yes
	pass "a dummy device is made"
else
	fail "a dummy device is made ($err)"
fi
echo 1 > /proc/sys/net/ipv6/conf/tpnet0/disable_ipv6 2>/dev/null
check "it takes an address and comes up" sh -c \
	'ip addr add 10.99.0.1/24 dev tpnet0 && ip link set tpnet0 up'
ifi=$(cat /sys/class/net/tpnet0/ifindex)
# The device's own counts, as net_dev prints the set's.
dev_counts() {
	for c in rx_packets rx_bytes tx_packets tx_bytes; do
		cat /sys/class/net/tpnet0/statistics/$c
	done | xargs
}
before=$(dev_counts)
echo 1 > $NET/reset
ping -q -c 3 -i 0.2 -w 5 10.99.0.2 > /dev/null
after=$(dev_counts)
ip link del tpnet0
check "the dummy device, made above, is gone" \
	sh -c '[ "$1" = yes ] && ! [ -e /sys/class/net/tpnet0 ]' sh "$made"
is "its row stays, named, with its 3 packets sent" \
	"$(net_dev "tpnet0.$ifi")" "0 0 3 294"
is "as its own statistics counted them before it went" \
	"$(net_dev "tpnet0.$ifi")" "$(grown "$before" "$after")"

# Another network namespace's lo is a device of its own: same name, same
# ifindex.
echo 1 > $NET/reset
ping_lo 1 100
unshare -n sh -c 'ip link set lo up; ping -A -q -c 2 -s 100 127.0.0.1 > /dev/null'
is "lo of another namespace: a row of its own, in a namespace of its own" \
	"$(awk '$1 == "lo" && $2 == 1 { print $3 }' $NET/devices | sort -u | wc -l)" 2
is "with its 2 pings" "$(netns_lo_rx)" 4
is "beside this namespace's lo, with its one" "$(net_dev lo.1)" "2 284 2 284"

# A namespace's inode number goes back to the kernel's pool when it dies
# (ns_free_inum(), an IDA that hands out its lowest free number), so the
# next namespace made usually gets it again: each must still have a row of
# its own. The first is gone once its cleanup (a work item) has run.
echo 1 > $NET/reset
ns1=$(ns_ping 2)
sleep 2
ns2=$(ns_ping 3)
echo "# the namespaces' inodes: $ns1 and $ns2"
is "two namespaces one after the other: two rows of their own, with 2 and 3 pings" \
	"$(netns_lo_rx)" "4 6"

# A packet freed has no device: by then the field that held it holds
# other state, such as a UDP datagram's, kept there once it is queued to
# its socket, until it is read (consumed) or its socket closes unread
# (dropped). A filter on the device, the README's own, sees 0 in its
# fields for it, and counts it nowhere. A socket is freed after a grace
# period once closed: its datagrams are dropped a little after.
dropped_by() {
	i=0
	while [ "$(stat_of net dropped)" -lt "$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	stat_of net dropped
}
echo 'len > 128 && dev == lo' > $F
echo 1 > $NET/reset
check "50 datagrams of 300 bytes sent to a socket on 127.0.0.1 never read" \
	/payload/bin/udp-echo 127.0.0.1 50 300 unread
check "200 more sent to one and read back" /payload/bin/udp-echo 127.0.0.1 200 300
sleep 1
is "with 'len > 128 && dev == lo': each received and sent, of 342 bytes" \
	"$(net_dev lo.1)" "250 85500 250 85500"
is "and none dropped or consumed: a packet freed has no device" \
	"$(stat_of net dropped) $(stat_of net consumed)" "0 0"
echo 'ifindex == 0 && len == 342' > $F
echo 1 > $NET/reset
/payload/bin/udp-echo 127.0.0.1 50 300 unread
/payload/bin/udp-echo 127.0.0.1 200 300
is "with 'ifindex == 0 && len == 342': the 50 unread dropped, the 200 read consumed" \
	"$(dropped_by 50) $(stat_of net consumed) $(stat_of net received)" "50 200 0"
echo 0 > $F

# The GRO path: a veth pair into a namespace, GRO on at the far end and TSO
# off at the near one (veth then hands what the near end sends to NAPI and
# napi_gro_receive(), drivers/net/veth.c): each packet the far end receives
# is one of rx_path.gro, as its own count in /proc/net/dev there says, and
# what comes back (the replies, and ARP's) arrives through the near end's
# backlog. GRO off, both ways go through the backlogs.
# rx_of DEV [NSPID]: DEV's received packets, in namespace NSPID's count.
rx_of() {
	if [ -n "$2" ]; then
		nsenter -t "$2" -n cat /proc/net/dev
	else
		cat /proc/net/dev
	fi | sed 's/:/ /' | awk -v d="$1" '$1 == d { print $3 }'
}
# rx_ends: the far end's and the near end's received packets.
rx_ends() { echo "$(rx_of $VETH_PEER $VETH_NS) $(rx_of tpveth0)"; }
# veth_window PINGS: over PINGS pings to the far end, the set's GRO and
# backlog paths, then what the far end and the near end received over the
# window just inside the set's (from after its reset to before its read)
# and just outside it: "GRO BACKLOG FAR_IN FAR_OUT NEAR_IN NEAR_OUT". A
# packet of the kernel's own at an edge (an ARP probe of a neighbour gone
# stale) lies between the two.
veth_window() {
	r0=$(rx_ends)
	echo 1 > $NET/reset
	r1=$(rx_ends)
	ping -A -q -c "$1" -W 5 10.98.0.2 > /dev/null
	r2=$(rx_ends)
	paths="$(stat_of net rx_path.gro) $(stat_of net rx_path.backlog)"
	r3=$(rx_ends)
	set -- $r0 $r1 $r2 $r3
	echo "$paths $(($5 - $3)) $(($7 - $1)) $(($6 - $4)) $(($8 - $2))"
}
# between N LOW HIGH: LOW <= N <= HIGH.
between() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
# Each of these takes veth_window's six numbers.
gro_on() { [ "$gro" = 0 ] && [ "$3" -ge 6 ] && between "$1" "$3" "$4"; }
replies() { [ "$5" -ge 6 ] && between "$2" "$5" "$6"; }
gro_off() {
	[ "$1" = 0 ] && [ "$3" -ge 4 ] && [ "$5" -ge 4 ] &&
		between "$2" $(($3 + $5)) $(($4 + $6))
}
if veth_ns tpveth0 10.98.0.1 10.98.0.2 2> /tmp/veth-err; then
	/payload/bin/offload tpveth0 tso off &&
		nsenter -t $VETH_NS -n /payload/bin/offload $VETH_PEER gro on
	gro=$?
	set -- $(veth_window 6)
	check "GRO on: 6 pings at least, each packet the far end counted through GRO ($1; it counted $3 to $4)" \
		gro_on "$@"
	check "and each reply through the backlog, as the near end counts ($2; it counted $5 to $6)" \
		replies "$@"
	nsenter -t $VETH_NS -n /payload/bin/offload $VETH_PEER gro off
	set -- $(veth_window 4)
	check "GRO off: none through GRO, all through the backlogs ($1 and $2; the ends counted $(($3 + $5)) to $(($4 + $6)))" \
		gro_off "$@"
	ip link del tpveth0
	kill $VETH_NS
else
	fail "a veth pair into a namespace: $(head -n 1 /tmp/veth-err)"
	fail "(the GRO path: no veth)"
	fail "(the backlogs: no veth)"
fi

# A driver that refuses: tpbusy0 answers NETDEV_TX_BUSY to its first 5
# packets, which its qdisc hands it again from the transmit softirq. Each
# refusal counts in not_sent, overall and in the device's row, and each
# hand-over as sent: 3 pings, 5 of them again, as the driver counted them.
check "tpstat_test_netdev.ko loads, its tpbusy0 refusing 5 packets" \
	load tpstat_test_netdev busy=5
no_ipv6 tpbusy0
check "tpbusy0 takes an address and comes up" sh -c \
	'ip addr add 10.96.0.1/24 dev tpbusy0 && ip link set tpbusy0 up'
busy_ifi=$(cat /sys/class/net/tpbusy0/ifindex)
echo 1 > $NET/reset
ping -q -c 3 -i 0.2 -w 5 10.96.0.2 > /dev/null
busy_param=/sys/module/tpstat_test_netdev/parameters
is "a refusing driver: not_sent, overall and in its row, as it refused" \
	"$(stat_of net not_sent) $(stat_of net "dev.tpbusy0.$busy_ifi.not_sent")" \
	"$(cat $busy_param/refused) $(cat $busy_param/refused)"
is "and it refused the 5 it was told to" "$(cat $busy_param/refused)" 5
is "each hand-over counted as sent, as the driver was handed them: 8" \
	"$(stat_of net "dev.tpbusy0.$busy_ifi.tx_packets") $(cat $busy_param/calls)" \
	"8 8"

# A driven queue delay: tpbusy0's queue stopped, as a driver stops it when
# its ring is full, 3 pings queued behind it, then 0.25 s slept before it
# is woken. Each waited at least the sleep and at most the time from
# before the pings to after their transmission, by /proc/uptime: every
# packet in the buckets those bounds allow, none outside.
echo 1 > $busy_param/stopped
echo 1 > $NET/reset
t0=$(uptime_cs)
pings=
for i in 1 2 3; do
	ping -q -c 1 -w 2 10.96.0.2 > /dev/null &
	pings="$pings $!"
done
n=0
while [ "$(stat_of net queued)" -lt 3 ] && [ $n -lt 100 ]; do
	n=$((n + 1))
	sleep 0.02
done
sleep 0.25
echo 0 > $busy_param/stopped
n=0
while [ "$(stat_of net queue.paired)" -lt 3 ] && [ $n -lt 100 ]; do
	n=$((n + 1))
	sleep 0.02
done
t1=$(uptime_cs)
wait $pings
# Buckets are queue.ns.bucket_LO_HI: a packet is too early in one whose
# HI is below the sleep, too late in one whose LO is above t1 - t0.
queue_waits() {
	awk -v lo=250000000 -v hi="$((($1 + 1) * 10000000))" '
	/^queue\.ns\.bucket_/ {
		split(substr($1, 17), b, "_")
		n += $2
		if (b[2] + 0 < lo || b[1] + 0 > hi)
			out += $2
	}
	END { printf "%d %d\n", n, out }' $NET/stats
}
is "a stopped queue: 3 pings timed in it, each from its queueing to its waking, 0.25 s to $(((t1 - t0) * 10)) ms (packets in the histogram, outside those bounds)" \
	"$(stat_of net queue.paired) $(queue_waits $((t1 - t0)))" "3 3 0"
check "tpstat_test_netdev.ko unloads, tpbusy0 with it" rmmod tpstat_test_netdev

# max_devices=1: the first device seen has the row, and every other
# device's packets go to "other", none lost. A dummy device, made up
# and quiet (no IPv6) before the set is loaded again, so that lo, pinged
# first, is the first seen; then 3 pings out of the dummy, which its own
# statistics count as sent and nothing else does. lo's row holds what
# /proc/net/dev counted for lo (its bytes as above), "other" what the
# dummy counted, and no third device had a packet.
ip link add tpnet1 type dummy 2> /dev/null
no_ipv6 tpnet1
ip addr add 10.97.0.1/24 dev tpnet1 2> /dev/null
ip link set tpnet1 up 2> /dev/null
dummy_counts() {
	for c in rx_packets rx_bytes tx_packets tx_bytes; do
		cat /sys/class/net/tpnet1/statistics/$c
	done | xargs
}
rmmod tpstat_net
check "tpstat_net.ko loads with max_devices=1" load tpstat_net max_devices=1
lo0=$(proc_lo)
d0=$(dummy_counts)
ping_lo 2 100
ping -q -c 3 -i 0.2 -w 5 10.97.0.2 > /dev/null
lo1=$(proc_lo)
d1=$(dummy_counts)
ip link del tpnet1
is "one row, lo's, as /proc/net/dev grew (less 14 bytes a packet), and other" \
	"$(grep -c '^dev\..*\.rx_packets ' $NET/stats) $(net_dev lo.1 |
		awk '{ print $1, $2 - 14 * $1, $3, $4 - 14 * $3 }')" \
	"2 $(grown "$lo0" "$lo1")"
is "the dummy's 3 pings in other, as its own statistics counted them" \
	"$(net_dev other); $(grown "$d0" "$d1")" "0 0 3 294; 0 0 3 294"
unload_all
