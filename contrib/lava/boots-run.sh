#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boots-run.sh - one boot of a LAVA job that boots K times
# (boots-job.sh, the test definition boots.yaml): from the top of the
# tree,
#
#   boots-run.sh N SETTLE [INTERBENCH OPTIONS...]
#
# says the boot's id, and fails the case interbench-new-boot if it is
# the previous boot's (kept in IB_BOOTS_STATE, default
# /var/lib/interbench-boots, where the device's root file system lasts
# from boot to boot): no reboot happened. Then it waits SETTLE seconds
# (the boot's own work done: services, timers due at boot), runs
# ./interbench with the options and --json boot-N.json, reports its
# cells with lava-results.sh, and prints the file into the log, gzip in
# base64, each line "interbench-b64 boot-N.json DATA", for
# boots-collect.sh. IB_BOOT_ID_FILE (default
# /proc/sys/kernel/random/boot_id) is a test hook. Exit status:
# interbench's; 1 no reboot happened; 2 bad command line.
me=boots-run.sh
case_cmd=lava-test-case
command -v lava-test-case >/dev/null 2>&1 || case_cmd="echo lava-test-case"
die() { echo "$me: $2" >&2; exit "$1"; }

[ $# -ge 2 ] || die 2 "usage: $me N SETTLE [INTERBENCH OPTIONS...]"
n=$1 settle=$2
shift 2
case $n$settle in
*[!0-9]*) die 2 "N '$n' and SETTLE '$settle' must be whole numbers" ;;
esac
[ -n "$n" ] && [ -n "$settle" ] || die 2 "N and SETTLE must be whole numbers"

id=$(head -n 1 "${IB_BOOT_ID_FILE:-/proc/sys/kernel/random/boot_id}")
echo "interbench-boot $n boot_id $id"
state=${IB_BOOTS_STATE:-/var/lib/interbench-boots}
if [ -n "$id" ] && [ "$(cat "$state/boot_id" 2>/dev/null)" = "$id" ]; then
	$case_cmd interbench-new-boot --result fail
	die 1 "boot $n has the previous boot's id ($id): no reboot happened"
fi
mkdir -p "$state" 2>/dev/null && echo "$id" >"$state/boot_id"
$case_cmd interbench-new-boot --result pass

sleep "$settle"
f=boot-$n.json
./interbench "$@" --json "$f" >"boot-$n.out" 2>&1
st=$?
cat "boot-$n.out"
./contrib/lava/lava-results.sh "$f" "boot-$n.out" "$st"
# The file kept in the log: LAVA keeps what the device prints.
if [ -s "$f" ]; then
	gzip -9c "$f" | base64 | sed "s/^/interbench-b64 $f /"
fi
exit "$st"
