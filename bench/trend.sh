#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/trend.sh - `interbench trend`'s calibration and speed.
#
#   bench/trend.sh calib [FAMILIES]   tests/unit-changepoint at log-SDs
#                                     0.05 to 0.3 (a real -t 2 cell's
#                                     p99 is 0.05 to 0.6): 50 cells x 4
#                                     figures, 12 files of 3 repeats;
#                                     how often anything is found when
#                                     nothing changed; with a 30 % step
#                                     at file 8 in 1, 3 and 10 cells,
#                                     how often a cell that did not move
#                                     is flagged and how often the moved
#                                     are found there; the outlying
#                                     nights' line
#   bench/trend.sh files [FAMILIES [IB...]]
#                                     the same truths as result files
#                                     (tests/mknights.sh: 12 nights, 50
#                                     cells, 3 repeats, 3 % spread, the
#                                     max 25 %) through each IB given
#                                     (default this tree's), every IB on
#                                     the same files: any cell flagged
#                                     with nothing changed; a cell that
#                                     did not move flagged, and the moved
#                                     found at night 8, with 1, 3 and 10
#                                     of them 30 % slower from night 8
#   bench/trend.sh speed [IB]         12, 100 and 1000 nights of 50 cells
#                                     x 3 repeats, 600 KB a file as a
#                                     real run's (two cells 30 % slower
#                                     from the last quarter): each size's
#                                     wall time, median of 3 runs, and
#                                     peak memory (GNU time's max RSS).
#                                     Goal: 1000 nights in under 10 s
#                                     and 200 MB.
. "$(dirname "$0")/lib.sh"

calib() {
	make -C "$TOP" -s tests/unit-changepoint || exit 1
	for s in 0.05 0.10 0.15 0.20 0.30; do
		"$TOP/tests/unit-changepoint" families="${1:-200}" sigma=$s |
			sed -n 's/^# //p'
	done
}

# The cells moved, first K of them.
MOVED="Video/Burn Audio/Hack X/Compile Custom/Write Cyclic/Net Audio/None Video/Fork X/Memload Custom/Read Cyclic/Hell"

# count K IB FAMILIES: one line of rates over FAMILIES families of files
# with the first K of MOVED 30 % slower from night 8 (K = 0: nothing).
count() {
	k=$1 ib=$2 n=$3
	any=0 false_=0 found=0 i=1
	moved=$(echo $MOVED | tr ' ' '\n' | head -n "$k")
	while [ $i -le "$n" ]; do
		d="$TMP/f$k-$i"
		if [ ! -d "$d" ]; then
			mkdir -p "$d"
			steps=""
			for c in $moved; do steps="$steps -k $c:8:1.3"; done
			"$TOP/tests/mknights.sh" -s $((i * 101 + k)) $steps "$d" n ||
				exit 1
		fi
		"$ib" trend "$d"/n*.json >"$d/out" 2>&1
		[ $? -le 1 ] || { cat "$d/out"; exit 1; }
		grep -E "  (worse|better)$" "$d/out" | awk '{ print $1 }' | sort -u >"$d/cells"
		[ -s "$d/cells" ] && any=$((any + 1))
		for c in $(cat "$d/cells"); do
			echo "$moved" | grep -qx "$c" || { false_=$((false_ + 1)); break; }
		done
		for c in $moved; do
			grep -E "^$c +.* at  8 .*  (worse|better)$" "$d/out" >/dev/null &&
				found=$((found + 1))
		done
		i=$((i + 1))
	done
	if [ "$k" = 0 ]; then
		echo "nothing changed: a cell flagged in $any of $n ($(awk "BEGIN { printf \"%.1f\", 100 * $any / $n }") %)"
	else
		echo "$k cell(s) 30 % slower from night 8: a cell that did not move flagged in $false_ of $n ($(awk "BEGIN { printf \"%.1f\", 100 * $false_ / $n }") %); the moved found at night 8: $found of $((n * k)) ($(awk "BEGIN { printf \"%.1f\", 100 * $found / ($n * $k) }") %)"
	fi
}

files() {
	n=${1:-100}
	[ $# -gt 0 ] && shift
	[ $# -gt 0 ] || set -- "$IB"
	for ib in "$@"; do
		echo "== $ib"
		for k in 0 1 3 10; do
			count $k "$ib" "$n"
		done
	done
}

speed() {
	ib=${1:-$IB}
	command -v /usr/bin/time >/dev/null ||
		{ echo "speed needs GNU time (apt-get install time)"; exit 2; }
	for nights in 12 100 1000; do
		d="$TMP/s$nights"
		mkdir -p "$d"
		q=$((nights - nights / 4 + 1))
		"$TOP/tests/mknights.sh" -n $nights -B 150 -k Video/Burn:$q:1.3 \
			-k Audio/Hack:$q:1.3 "$d" n || exit 1
		times="" mem=""
		for i in 1 2 3; do
			/usr/bin/time -f "%e %M" -o "$d/time" "$ib" trend "$d"/n*.json >"$d/out" 2>&1
			rc=$?
			[ $rc -le 1 ] || { tail -n 5 "$d/out"; exit 1; }
			times="$times $(tail -n 1 "$d/time" | cut -d" " -f1)"
			mem="$mem $(tail -n 1 "$d/time" | cut -d" " -f2)"
		done
		echo "$nights nights ($(du -sk "$d" | cut -f1) KB of files): median $(echo "$times" | tr ' ' '\n' | grep . | median) s (runs:$times), peak RSS median $(echo "$mem" | tr ' ' '\n' | grep . | median | awk '{ printf "%.1f", $1 / 1024 }') MB; marked: $(grep -cE "  (worse|better)$" "$d/out") ($(grep -E "  (worse|better)$" "$d/out" | awk '{ print $1 }' | sort -u | tr '\n' ' '))"
		rm -rf "$d"
	done
}

case $1 in
calib) calib "$2" ;;
files) shift; files "$@" ;;
speed) speed "$2" ;;
*) echo "usage: bench/trend.sh calib [FAMILIES] | files [FAMILIES [IB...]] | speed [IB]" >&2; exit 2 ;;
esac
