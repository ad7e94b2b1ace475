#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boots-collect.sh - the result files a LAVA job of boots-job.sh printed
# into its log, back as files:
#
#   lavacli jobs logs --raw JOB >job.log    (or the log's page, saved)
#   boots-collect.sh job.log DIR
#
# writes DIR/boot-N.json for each file boots-run.sh printed (lines
# "interbench-b64 boot-N.json DATA", in the log as text or inside
# LAVA's YAML log lines), and lists them; then `interbench study DIR`.
# Exit status: 0 files written; 1 none in the log, or one broken; 2 bad
# command line.
me=boots-collect.sh
[ $# -eq 2 ] || { echo "$me: usage: $me LOG DIR" >&2; exit 2; }
log=$1 dir=$2
[ -r "$log" ] || { echo "$me: cannot read the log '$log'" >&2; exit 2; }
mkdir -p "$dir" || { echo "$me: cannot make '$dir'" >&2; exit 2; }
lines=$(mktemp) || exit 2
trap 'rm -f "$lines"' EXIT
grep -o 'interbench-b64 boot-[0-9]*\.json [A-Za-z0-9+/=]*' "$log" >"$lines"
names=$(cut -d ' ' -f 2 "$lines" | sort -u -V)
[ -n "$names" ] || { echo "$me: no result file in $log" >&2; exit 1; }
rc=0
for f in $names; do
	grep "^interbench-b64 $f " "$lines" | cut -d ' ' -f 3 |
		base64 -d | gunzip >"$dir/$f.tmp" 2>/dev/null &&
		mv "$dir/$f.tmp" "$dir/$f" && echo "$dir/$f" ||
		{ echo "$me: $f is broken in the log" >&2; rm -f "$dir/$f.tmp"; rc=1; }
done
exit $rc
