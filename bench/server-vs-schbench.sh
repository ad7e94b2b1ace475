#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interbench's Server against schbench, side by side on the same machine,
# in alternating rounds (the order flips each round, so drift falls on
# both), with the same shape: 1 message thread, WORKERS workers, 256 KB
# footprint, 5 operations, 100 us sleep, each tool's defaults otherwise
# (both lock a per-CPU lock by default). Prints each round, then medians
# and the ratios interbench/schbench of RPS p50, request p50 and p99 and
# wakeup p50 and p99. Target: within 10 % on RPS and request latency.
#
#   bench/server-vs-schbench.sh [ROUNDS [SECONDS [WORKERS [EXTRA]]]]
#       (3 rounds of 8 s, workers: CPUs; EXTRA "-L" compares with the
#        lock off: schbench -L against --server-no-lock)
#
# schbench is built from ../shared/anchors (or $SCHBENCH_TGZ) into a
# temporary directory; without its source or a compiler it skips.
set -u
ROUNDS=${1:-3}
SECS=${2:-8}
WORKERS=${3:-$(getconf _NPROCESSORS_ONLN)}
EXTRA=${4:-}
TOP=$(cd "$(dirname "$0")/.." && pwd)
IB="$TOP/interbench"
TGZ=${SCHBENCH_TGZ:-$(ls "$TOP"/../shared/anchors/schbench-*.tar.gz 2>/dev/null | head -n 1)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x "$IB" ] || { echo "build interbench first (make)"; exit 2; }
[ -n "$TGZ" ] && [ -f "$TGZ" ] || { echo "skip: no schbench source (set SCHBENCH_TGZ)"; exit 0; }
tar xzf "$TGZ" -C "$TMP" && make -C "$TMP/schbench" >/dev/null 2>&1 &&
	[ -x "$TMP/schbench/schbench" ] ||
	{ echo "skip: schbench does not build here"; exit 0; }
SB="$TMP/schbench/schbench"
IBX=
[ "$EXTRA" = "-L" ] && IBX=--server-no-lock

# "rps_p50 req_p50 req_p99 wake_p50 wake_p99" from schbench's last report
sb_run() {
	"$SB" -m 1 -t "$WORKERS" -F 256 -n 5 -s 100 -r "$SECS" $EXTRA \
		>"$TMP/sb" 2>&1 || return 1
	awk '/^Wakeup Latencies/ { s = "w" } /^Request Latencies/ { s = "r" }
	     /^RPS percentiles/ { s = "p" }
	     /th: / { for (i = 1; i < NF; i++) if ($i ~ /th:$/) { k = $i; x = $(i + 1) }
		     if (k == "50.0th:") v[s "50"] = x
		     if (k == "99.0th:") v[s "99"] = x }
	     END { printf "%s %s %s %s %s\n", v["p50"], v["r50"], v["r99"], v["w50"], v["w99"] }' \
		"$TMP/sb"
}

ib_run() {
	(cd "$TMP" && "$IB" -c -t "$SECS" -W Server -w None --server-threads 1 \
		--server-workers "$WORKERS" --server-footprint 256 \
		--server-ops 5 --server-sleep 100 $IBX --json ib.json \
		>ib.out 2>&1) || return 1
	# An object opens on a line ending "{": keep the ones wanted.
	awk '/\{$/ { s = "" } /"latency_us": \{/ { s = "r" }
	     /"wakeup_latency_us": \{/ { s = "w" } /"rate_per_s": \{/ { s = "p" }
	     s != "" && /"p50":/ { gsub(/[,"]/, ""); v[s "50"] = $2 }
	     s != "" && /"p99":/ { gsub(/[,"]/, ""); v[s "99"] = $2 }
	     END { printf "%s %s %s %s %s\n", v["p50"], v["r50"], v["r99"], v["w50"], v["w99"] }' \
		"$TMP/ib.json"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$TMP/all"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then order="sb ib"; else order="ib sb"; fi
	for t in $order; do
		v=$(${t}_run) || { echo "round $r: $t failed"; continue; }
		echo "round $r $t: rps p50, request p50 p99, wakeup p50 p99 (us): $v"
		echo "$t $v" >>"$TMP/all"
	done
	r=$((r + 1))
done

echo
echo "medians of $ROUNDS rounds of $SECS s, $WORKERS workers${EXTRA:+, lock off}"
printf '%-10s %9s %12s %12s %12s %12s\n' "" "rps p50" "req p50 us" "req p99 us" "wake p50 us" "wake p99 us"
for t in sb ib; do
	line=$t
	for k in 2 3 4 5 6; do
		line="$line $(awk -v t=$t -v k=$k '$1 == t { print $k }' "$TMP/all" | median)"
	done
	echo "$line" >>"$TMP/med"
	set -- $line
	printf '%-10s %9s %12s %12s %12s %12s\n' \
		"$( [ $t = sb ] && echo schbench || echo interbench)" "$2" "$3" "$4" "$5" "$6"
done
awk '$1 == "sb" { for (i = 2; i <= 6; i++) s[i] = $i }
     $1 == "ib" { for (i = 2; i <= 6; i++) b[i] = $i }
     END { printf "%-10s", "ratio"
	   for (i = 2; i <= 6; i++) printf (i == 2 ? " %9.2f" : " %12.2f"), (s[i] > 0 ? b[i] / s[i] : 0)
	   printf "\n" }' "$TMP/med"
