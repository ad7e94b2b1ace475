#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boots-job.sh - a LAVA job that boots the device K times and runs
# interbench in each boot (the test definition boots.yaml), a result
# file per boot kept in the log:
#
#   boots-job.sh K [TEMPLATE] >job.yaml
#   lavacli jobs submit job.yaml
#   lavacli jobs logs --raw JOB >job.log; boots-collect.sh job.log DIR
#   interbench study DIR
#
# TEMPLATE (default boots-job.yaml beside this: QEMU and a Debian image)
# has the job's head and, between "# @boot" and "# @end", the boot and
# test actions repeated K times. The environment fills it in:
#   IB_REPO         the repository LAVA clones on the device (default:
#                   this tree's remote origin)
#   IB_REVISION     its commit (default: this tree's HEAD)
#   IB_OPTIONS      interbench's options (default: -t 1 -n 3 -W audio
#                   -W video -w none -w burn)
#   IB_SETTLE       seconds a boot waits before measuring (default 60)
#   IB_ROOTFS       the root file system image's URL (QEMU's template)
#   IB_TEST_MINUTES minutes each boot's test may take (default 30)
# Exit status: 0 the job printed; 2 bad command line or environment.
me=boots-job.sh
die() { echo "$me: $1" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd) || die "cannot find my own directory"

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $me K [TEMPLATE] >job.yaml"
k=$1 tpl=${2:-$here/boots-job.yaml}
case $k in
''|*[!0-9]*) die "K '$k' is not a whole number" ;;
esac
[ "${#k}" -le 3 ] && [ "$k" -ge 1 ] || die "K '$k' is out of range (1 to 999)"
[ -r "$tpl" ] || die "cannot read the template '$tpl'"
grep -q '^# @boot$' "$tpl" && grep -q '^# @end$' "$tpl" ||
	die "the template '$tpl' has no '# @boot' ... '# @end' block"
repo=${IB_REPO:-$(git -C "$here" remote get-url origin 2>/dev/null)}
[ -n "$repo" ] || die "no IB_REPO, and this tree has no remote origin: set IB_REPO"
rev=${IB_REVISION:-$(git -C "$here" rev-parse HEAD 2>/dev/null)}
[ -n "$rev" ] || die "no IB_REVISION, and this tree is no git tree: set IB_REVISION"
opts=${IB_OPTIONS:--t 1 -n 3 -W audio -W video -w none -w burn}
settle=${IB_SETTLE:-60}
rootfs=${IB_ROOTFS:-https://images.example.org/debian-bookworm-amd64.img}
tmin=${IB_TEST_MINUTES:-30}
for v in "$settle" "$tmin"; do
	case $v in ''|*[!0-9]*) die "IB_SETTLE and IB_TEST_MINUTES must be whole numbers ('$v')" ;; esac
done
[ "$tmin" -ge 1 ] || die "IB_TEST_MINUTES must be at least 1"
# Each value goes into a YAML double-quoted string or a plain scalar.
for v in "$repo" "$rev" "$opts" "$rootfs"; do
	case $v in
	*[\"\\@\&]*|*"
"*) die "'$v' holds a character the job cannot carry (\" \\ @ & or a newline)" ;;
	esac
done
# Every boot (10 minutes) and test, and the deploy (15).
jmin=$((15 + k * (10 + tmin)))
awk -v k="$k" -v repo="$repo" -v rev="$rev" -v opts="$opts" \
    -v settle="$settle" -v rootfs="$rootfs" -v tmin="$tmin" -v jmin="$jmin" '
function fill(s, n) {
	gsub(/@K@/, k, s); gsub(/@REPO@/, repo, s); gsub(/@REVISION@/, rev, s)
	gsub(/@OPTIONS@/, opts, s); gsub(/@SETTLE@/, settle, s)
	gsub(/@ROOTFS@/, rootfs, s); gsub(/@TEST_MINUTES@/, tmin, s)
	gsub(/@JOB_MINUTES@/, jmin, s); gsub(/@N@/, n, s)
	return s
}
/^# @boot$/ { inboot = 1; next }
/^# @end$/ {
	for (n = 1; n <= k; n++)
		for (i = 1; i <= nb; i++)
			print fill(b[i], n)
	inboot = 0; next
}
inboot { b[++nb] = $0; next }
{ print fill($0, "") }
' "$tpl"
