#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/json-bytes.sh - how many bytes interbench writes to keep its --json
# file whole after every cell, against the size of the file it ends with.
#
#   bench/json-bytes.sh [INTERBENCH...]     (default: ./interbench)
#
# Counts with strace (-y names the file of each write) the bytes of every
# write and pwrite64 to FILE.json and FILE.json.tmp, for a run of 40
# results (-t 0.2 -n 20 -W audio -w none -w burn), and a longer one of 200
# (-n 100). Needs strace; says so and exits 0 without it.
command -v strace >/dev/null || { echo "strace is not installed: skipped"; exit 0; }
[ $# -eq 0 ] && set -- ./interbench
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for ib in "$@"; do
	for n in 20 100; do
		rm -f "$dir"/r.json*
		strace -f -y -qq -e trace=write,pwrite64 -e signal=none \
			-o "$dir/trace" "$ib" -l 1000000 -t 0.2 -n $n -c \
			-W audio -w none -w burn --json "$dir/r.json" >/dev/null 2>&1
		written=$(grep -E "r\.json(\.tmp)?>" "$dir/trace" |
			sed -n 's/.*= \([0-9][0-9]*\)$/\1/p' |
			awk '{ s += $1 } END { print s + 0 }')
		size=$(wc -c <"$dir/r.json")
		echo "$ib: $((n * 2)) results: file $size bytes, written" \
			"$written bytes, $(awk "BEGIN { printf \"%.1f\", $written / $size }")x"
	done
done
