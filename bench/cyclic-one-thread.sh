#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of interbench's Cyclic simulator against cyclictest (rt-tests)
# and stress-ng's cyclic test, on the same idle machine, same interval
# and priority, run alternately so that drift of the machine is shared.
#
#   bench/cyclic-one-thread.sh [ROUNDS] [SECONDS]   (default 5 rounds of 5 s)
#
# Prints each run's p50 and p99 in microseconds, then the medians per tool
# and interbench's difference to cyclictest. Target: within 10 % or 2 us
# (whichever is larger) of cyclictest's p50 and p99. Needs root.
# cyclictest and stress-ng are used where installed (apt-get install
# rt-tests stress-ng); interbench never uses them itself.
set -u
ROUNDS=${1:-5}
SECS=${2:-5}
PRIO=95
INTERVAL_US=1000
. "$(dirname "$0")/lib.sh"
have_ct=$(command -v cyclictest || true)
have_sn=$(command -v stress-ng || true)
[ -n "$have_ct" ] || echo "cyclictest not installed: comparing nothing to it"

loops=$((SECS * 1000000 / INTERVAL_US))

# p50 and p99 (us) from cyclictest's 1-us histogram (-h): nearest rank.
ct_run() {
	cyclictest -q -m -p $PRIO -i $INTERVAL_US -l $loops -h 20000 \
		>"$TMP/ct" 2>&1 || return 1
	awk '/^[0-9]+/ { n[$1 + 0] = $2; tot += $2 }
	     /# Histogram Overflows/ { over = $4 + 0 }
	     END { tot += over
		   r50 = int(tot * 0.50 + 0.9999); r99 = int(tot * 0.99 + 0.9999)
		   for (v = 0; v <= 20000; v++) { c += n[v]
			if (!p50 && c >= r50) p50 = v
			if (!p99 && c >= r99) p99 = v }
		   printf "%s %s\n", p50, p99 }' "$TMP/ct"
}

ib_run() {
	(cd "$TMP" && "$IB" -c -l 1000000 -t "$SECS" -W cyclic -w none \
		--cyclic-prio $PRIO --cyclic-interval $INTERVAL_US \
		--json ib.json >/dev/null 2>&1) || return 1
	awk '/"latency_percentiles_us"/ { on = 1 }
	     on && /"50":/ { gsub(/[,"]/, ""); p50 = $2 }
	     on && /"99":/ { gsub(/[,"]/, ""); p99 = $2 }
	     on && /}/ { on = 0 }
	     END { printf "%s %s\n", p50, p99 }' "$TMP/ib.json"
}

sn_run() {
	stress-ng --cyclic 1 --cyclic-policy fifo --cyclic-prio $PRIO \
		--cyclic-method clock_ns --cyclic-sleep $((INTERVAL_US * 1000)) \
		-t "$SECS" >"$TMP/sn" 2>&1 || return 1
	# stress-ng prints its percentiles in ns (labelled us in 0.15)
	awk '/ 50.00%:/ { p50 = $(NF - 1) / 1000 }
	     / 99.00%:/ { p99 = $(NF - 1) / 1000 }
	     END { printf "%.3f %.3f\n", p50, p99 }' "$TMP/sn"
}


: >"$TMP/all"
r=1
while [ $r -le "$ROUNDS" ]; do
	# Alternate the order each round.
	if [ $((r % 2)) = 1 ]; then order="ct ib sn"; else order="sn ib ct"; fi
	for t in $order; do
		case $t in
		ct) [ -n "$have_ct" ] || continue; v=$(ct_run) ;;
		ib) v=$(ib_run) ;;
		sn) [ -n "$have_sn" ] || continue; v=$(sn_run) ;;
		esac || { echo "$t failed"; continue; }
		echo "round $r $t p50 $(echo $v | cut -d' ' -f1) us, p99 $(echo $v | cut -d' ' -f2) us"
		echo "$t $v" >>"$TMP/all"
	done
	r=$((r + 1))
done

echo
printf '%-12s %10s %10s\n' tool "p50 (us)" "p99 (us)"
for t in ct ib sn; do
	grep -q "^$t " "$TMP/all" || continue
	p50=$(awk -v t=$t '$1 == t { print $2 }' "$TMP/all" | median)
	p99=$(awk -v t=$t '$1 == t { print $3 }' "$TMP/all" | median)
	case $t in ct) n=cyclictest ;; ib) n=interbench ;; sn) n=stress-ng ;; esac
	printf '%-12s %10s %10s\n' $n "$p50" "$p99"
	eval "${t}50=$p50 ${t}99=$p99"
done
if [ -n "${ct50:-}" ] && [ -n "${ib50:-}" ]; then
	awk -v a="$ib50" -v b="$ct50" -v c="$ib99" -v d="$ct99" 'BEGIN {
		ok50 = (a - b < 0 ? b - a : a - b) <= (b * 0.1 > 2 ? b * 0.1 : 2)
		ok99 = (c - d < 0 ? d - c : c - d) <= (d * 0.1 > 2 ? d * 0.1 : 2)
		printf "interbench/cyclictest: p50 %.2fx (%+.2f us) %s, p99 %.2fx (%+.2f us) %s\n",
			a / b, a - b, ok50 ? "within target" : "OUTSIDE target",
			c / d, c - d, ok99 ? "within target" : "OUTSIDE target" }'
fi
