#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cyclic on every CPU against cyclictest's usual run, a thread per CPU:
#   cyclictest -S -m -p 95 -i 1000   (-S: -t -a -n, one pinned thread a CPU)
#   interbench -W Cyclic --cyclic-threads all --cyclic-prio 95
#              --cyclic-interval 1000 --dma-latency 0
# in alternating rounds on the same machine. cyclictest writes 0 to
# /dev/cpu_dma_latency unless --default-system: both sides hold it at 0
# here (--dma-latency 0), so that C-state exits count alike.
#
#   bench/cyclic-vs-cyclictest.sh [ROUNDS] [SECONDS]   (default 5 rounds of 5 s)
#
# Prints each round's p50/p99 per CPU for both, and of all CPUs' samples
# together (cpu "all", which bench/agreement.sh reads), then per CPU the
# medians over the rounds, interbench/cyclictest ratios, and how noisy the
# machine was: the spread (min..max) of cyclictest's own p99 over the
# rounds. Target: within 10 % on p50 and p99 per CPU. Needs root, and
# cyclictest (apt-get install rt-tests): skips cleanly without it.
set -u
ROUNDS=${1:-5}
SECS=${2:-5}
. "$(dirname "$0")/lib.sh"
command -v cyclictest >/dev/null ||
	{ echo "skip: cyclictest not installed (apt-get install rt-tests)"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 0; }

# "CPU p50 p99" lines from cyclictest's 1-us histogram, a column a thread
# (thread i is pinned to CPU i by -S), then "all p50 p99" of every
# thread's samples together; nearest rank, as interbench's.
ct_run() {
	cyclictest -q -S -m -p 95 -i 1000 -D "$SECS" -h 20000 >"$TMP/ct" 2>&1 ||
		return 1
	awk '/^[0-9]+/ { for (i = 2; i <= NF; i++) { n[i - 2, $1 + 0] = $i; tot[i - 2] += $i
						       n["all", $1 + 0] += $i; tot["all"] += $i }
			 nt = NF - 1 }
	     /# Histogram Overflows/ { for (i = 4; i <= NF; i++) { tot[i - 4] += $i; tot["all"] += $i } }
	     function pcts(t,    r50, r99, c, p50, p99, v) {
			r50 = int(tot[t] * 0.50 + 0.9999); r99 = int(tot[t] * 0.99 + 0.9999)
			c = 0; p50 = ""; p99 = ""
			for (v = 0; v <= 20000; v++) { c += n[t, v]
				if (p50 == "" && c >= r50) p50 = v
				if (p99 == "" && c >= r99) p99 = v }
			# past the histogram (-h): not known
			printf "%s %s %s\n", t, p50 == "" ? "-" : p50,
			       p99 == "" ? "-" : p99 }
	     END { for (t = 0; t < nt; t++) pcts(t); if (nt) pcts("all") }' "$TMP/ct"
}

ib_run() {
	(cd "$TMP" && ib_lockwait ib.out -c -t "$SECS" -W Cyclic -w None \
		--cyclic-threads all --cyclic-prio 95 --cyclic-interval 1000 \
		--dma-latency 0 --json ib.json) || return 1
	awk '/"per_cpu"/ { on = 1 }
	     on && /"cpu":/ { gsub(/[,"]/, ""); cpu = $2 }
	     on && /"p50_us":/ { gsub(/[,"]/, ""); p50 = $2 }
	     on && /"p99_us":/ { gsub(/[,"]/, ""); p99 = $2; printf "%d %s %s\n", cpu, p50, p99 }
	     on && /^ *\]/ { on = 0 }' "$TMP/ib.json"
	# every thread's samples together: the result's own latency
	awk '/"latency_us": \{/ { on = 1 }
	     on && /"p50":/ { gsub(/[,"]/, ""); p50 = $2 }
	     on && /"p99":/ { gsub(/[,"]/, ""); p99 = $2 }
	     on && /}/ { on = 0; if (p50 != "") { printf "all %s %s\n", p50, p99; exit } }' \
		"$TMP/ib.json"
}


: >"$TMP/all"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then order="ct ib"; else order="ib ct"; fi
	for t in $order; do
		v=$(${t}_run) || { echo "round $r: $t failed"; continue; }
		echo "$v" | while read -r cpu p50 p99; do
			echo "round $r $t cpu $cpu: p50 $p50 us, p99 $p99 us"
			echo "$t $cpu $p50 $p99" >>"$TMP/all"
		done
	done
	r=$((r + 1))
done

echo
echo "per CPU, medians over $ROUNDS rounds of $SECS s (us); both at dma latency 0"
printf '%4s %10s %10s %6s %10s %10s %6s  %s\n' cpu "ct p50" "ib p50" ratio \
	"ct p99" "ib p99" ratio "ct p99 spread"
for cpu in $(awk '{ print $2 }' "$TMP/all" | sort -u); do
	m() { awk -v t="$1" -v c="$cpu" -v k="$2" '$1 == t && $2 == c && $k != "-" { print $k }' "$TMP/all" | median; }
	c50=$(m ct 3) i50=$(m ib 3) c99=$(m ct 4) i99=$(m ib 4)
	spread=$(awk -v c="$cpu" '$1 == "ct" && $2 == c && $4 != "-" { print $4 }' "$TMP/all" |
		sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo ".." hi }')
	awk -v cpu="$cpu" -v a="$c50" -v b="$i50" -v c="$c99" -v d="$i99" -v s="$spread" 'BEGIN {
		printf "%4s %10.1f %10.1f %6.2f %10.1f %10.1f %6.2f  %s\n",
			cpu, a, b, (a > 0 ? b / a : 0), c, d, (c > 0 ? d / c : 0), s }'
done
