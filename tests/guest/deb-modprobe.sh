# SPDX-License-Identifier: GPL-2.0
# The modules the Debian package made, loaded as a user loads them. Not in
# the suite (not t-*): make check's deb stage boots this file alone, with
# what DKMS installed for this kernel in /lib/modules/<version>/updates/dkms/
# and a modules.dep depmod made for it, no module in /payload/ko, and the
# package's /usr/bin/tpstat with the libraries it loads.
# On 6.12 they are .ko.xz: busybox's modprobe hands the kernel the file as
# it is first, which the kernel logs as "Invalid ELF header magic", then
# unpacks it itself.

plan 10

dkms=/lib/modules/$(uname -r)/updates/dkms
check "the package's tpstat_irq is in updates/dkms" ls "$dkms"/tpstat_irq.ko*
check "modprobe tpstat_irq loads it" modprobe tpstat_irq
check "modprobe loaded the core, tpstat, first by itself" grep -q '^tpstat ' /proc/modules
is "the core's version is the package's" "$(cat $TP/version)" "$DEB_VERSION"
is "irq/hardirq starts with its time since reset" \
	"$(sed -n '1s/[0-9]*\.[0-9]* s /N s /p' $TP/irq/hardirq)" "# irq/hardirq: N s since reset"
is "then its column header" "$(sed -n '2p' $TP/irq/hardirq | awk '{ print $1, $2, $3, $4 }')" \
	"irq handler count handled"
is "the package's command, /usr/bin/tpstat, runs here at the package's version" \
	"$(/usr/bin/tpstat --version 2>&1)" "tpstat $DEB_VERSION"
is "and finds the one set modprobe loaded" \
	"$(/usr/bin/tpstat list 2>&1 | sed -n 's/^\(tpstat .*: [0-9]* sets* loaded\),.*/\1/p')" \
	"tpstat $DEB_VERSION: 1 set loaded"
check "modprobe -r tpstat_irq unloads it" modprobe -r tpstat_irq
check "and the core, which nothing uses any more" sh -c '! grep -q "^tpstat" /proc/modules'
