# SPDX-License-Identifier: GPL-2.0
# Module signatures under lockdown, on the debug kernel, which boots with
# lockdown=integrity as a Secure Boot machine boots Debian's: the copy of
# a module vm-payload left unsigned is refused, and every module of the
# payload, which it signed with the key the kernel's build made (built
# into the kernel's trusted keys), loads, none tainted as unsigned.
# lockdown.sh follows in the same boot (vm_lockdown).

plan 8

LOCKDOWN=/sys/kernel/security/lockdown
UNSIGNED=/payload/unsigned/tpstat_test_tp.ko
MARK='~Module signature appended~'

# signed FILE: whether FILE ends with a module signature's mark.
signed() { tail -c 28 "$1" | grep -qF "$MARK"; }

[ -e $LOCKDOWN ] || mount -t securityfs securityfs /sys/kernel/security
is "lockdown is integrity, from the command line" "$(cat $LOCKDOWN)" "none [integrity] confidentiality"
check "the copy of tpstat_test_tp is unsigned" sh -c "! tail -c 28 $UNSIGNED | grep -qF '$MARK'"
before=$(kmsg_lines)
is "the unsigned module is refused" "$(/payload/bin/load-once $UNSIGNED)" EPERM
is "lockdown says why" \
	"$(kmsg_since "$before" | grep -c 'Lockdown: load-once: unsigned module loading is restricted')" 1
is "nothing of it is loaded" "$(grep -c '^tpstat_test_tp ' /proc/modules)" 0

unsigned=
for ko in $KO/*.ko; do
	signed "$ko" || unsigned="$unsigned $(basename "$ko")"
done
is "every module of the payload is signed" "$unsigned" ""
load tpstat
load_everything
is "every one loads" "$(grep -c '^tpstat' /proc/modules)" "$(ls $KO/*.ko | wc -l)"
# E: a module loaded without a valid signature (O, out of tree, is expected).
is "none is tainted as unsigned (E)" "$(grep -l E /sys/module/tpstat*/taint)" ""
