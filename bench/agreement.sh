#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/agreement.sh - agreement kept, not assumed: interbench side by side
# with the tools its users trust, and --trace against no trace, in one
# table with an interval and an A/A beside every figure.
#
#   bench/agreement.sh [ROUNDS] [SECONDS] [TRACE_SECONDS] [TRACE_PAIRS]
#       (default 8 rounds of 5 s; the trace's cells 1 s, 40 pairs)
#   ONLY="cyclic server rtapp trace"   the parts to run (default: all)
#   TRACE_MODES="trace timer"          the trace part's runs (default: both)
#   KEEP=DIR                           keep every part's output in DIR
#   FROM=DIR                           measure nothing: the table again
#                                      from a KEEP directory's pairs
#
# The parts, each in rounds that alternate who goes first, so that what
# the machine does meanwhile falls on both sides alike:
#   cyclic  Cyclic against cyclictest (rt-tests), a thread a CPU, both at
#           priority 95 and PM QoS 0 (bench/cyclic-vs-cyclictest.sh;
#           every CPU's samples together): p50, p99
#   server  Server against schbench, both tools' defaults, 2 workers
#           (bench/server-vs-schbench.sh, mode lock): RPS, request and
#           wakeup p50 and p99; and a request's work alone on CPU 1
#           (mode work-1cpu: one worker, no lock, no sleep), what a
#           request costs each build, which a busy machine blurs least
#   rtapp   RtApp against rt-app, SCHED_FIFO and SCHED_OTHER, PM QoS 0
#           (QOS=0 bench/rtapp-vs-rtapp.sh): wu_lat p50, p99
#   trace   --trace and --trace-timer against no trace, in runs (of at
#           most 50 pairs) that trace half their passes (--trace-alternate: T U U T T U
#           ...; in one process, so that only the trace differs), Audio
#           and Video under None and Burn, TRACE_PAIRS pairs of passes:
#           p50, p99, max
#
# Every figure's row: the medians of both sides over the rounds, the
# median of the rounds' own ratios (interbench / anchor, traced /
# untraced: a round's two runs are neighbours in time) and its 95 %
# interval (order statistics of the median: no assumption about the
# shape; with fewer than 6 rounds the widest there is, its coverage
# said), and the A/A of the same bench: for an anchor, each tool against
# itself in the next round, where the runs are neighbours too (the
# second of a round runs first in the next: A B | B A | A B), both tools'
# pairs together; for the trace, the neighbouring passes of the same
# kind in the same run (the U U and T T between the pairs).
# A ratio is no finding while the A/A's interval is as wide.
#
# Goals: within 5 % at p50 (and RPS), 10 % at p99. PASS: the ratio's
# whole 95 % interval lies within the goal; FAIL (off): all of it lies
# outside (a difference, shown); FAIL (noise): it reaches across the
# goal's edge (the data cannot tell: more rounds, or a quieter machine,
# decide it, and the A/A says how wide the machine alone makes it); FAIL
# (few): fewer than 6 pairs, too few for a 95 % interval. max has no
# goal.
#
# Needs root (SCHED_FIFO, PM QoS, tracefs) and jq; a part whose tool is
# missing (cyclictest, schbench's source or binary, rt-app, tracefs)
# says "skip:" and the others run. ROUNDS 8 takes about 20 minutes.
set -u
ROUNDS=${1:-8}
SECS=${2:-5}
TSECS=${3:-1}
TPAIRS=${4:-40}
ONLY=${ONLY:-cyclic server rtapp trace}
. "$(dirname "$0")/lib.sh"
BENCH=$TOP/bench
command -v jq >/dev/null || { echo "skip: needs jq"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 0; }
[ "$ROUNDS" -ge 3 ] 2>/dev/null ||
	{ echo "ROUNDS must be 3 or more"; exit 2; }
[ "$TPAIRS" -ge 3 ] 2>/dev/null ||
	{ echo "TRACE_PAIRS must be 3 or more"; exit 2; }

# The rows: "key|label|goal" in order; the data: "key a b" (a pair:
# anchor or untraced, interbench or traced) and "key earlier later" (an
# A/A pair).
: >"$TMP/rows"
: >"$TMP/cmp"
: >"$TMP/aa"
: >"$TMP/skips"

row() { echo "$1|$2|$3" >>"$TMP/rows"; }
skip() { echo "$1: $2" >>"$TMP/skips"; echo "$1: $2" >&2; }

# From "ROUND TOOL FIG VALUE" lines in run order (stdin): a pair per
# round and figure, anchor first, and an A/A pair at each round's end:
# the tool that ran last in round r ran first in round r + 1. Of that
# pair the earlier run followed the other tool, the later one itself,
# so the A/A's numerator alternates between them from round to round,
# as the trace's does: what the run before does cancels.
pairs() {
	awk -v part="$1" -v anchor="$2" -v ib="$3" -v cmp="$TMP/cmp" \
	    -v aa="$TMP/aa" '
	$4 == "" || $4 == "-" { next }
	{
		v[$1, $2, $3] = $4; figs[$3] = 1
		if (!(($1, $2) in seq)) seq[$1, $2] = ++n
		if ($1 > last) last = $1
	}
	END {
		for (r = 1; r <= last; r++)
			for (f in figs) {
				if ((r, anchor, f) in v && (r, ib, f) in v)
					print part "." f, v[r, anchor, f],
					      v[r, ib, f] >>cmp
				t = seq[r, anchor] > seq[r, ib] ? anchor : ib
				if (!((r, t, f) in v && (r + 1, t, f) in v))
					continue
				if (r % 2)
					print part "." f, v[r, t, f],
					      v[r + 1, t, f] >>aa
				else
					print part "." f, v[r + 1, t, f],
					      v[r, t, f] >>aa
			}
	}'
}

# A part's script, its output kept in $TMP/NAME.out: 1 if it skipped.
part_run() {
	name=$1
	shift
	echo "== $name: $* ($(date +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
	"$@" >"$TMP/$name.out" 2>&1
	if grep -q "^skip:" "$TMP/$name.out"; then
		skip "$name" "$(grep "^skip:" "$TMP/$name.out" | head -n 1)"
		return 1
	fi
	grep "failed" "$TMP/$name.out" >&2
	return 0
}

part_cyclic() {
	row cyclic.p50 "Cyclic / cyclictest   p50 us" 5
	row cyclic.p99 "Cyclic / cyclictest   p99 us" 10
	[ -z "${FROM:-}" ] || return 0
	part_run cyclic sh "$BENCH/cyclic-vs-cyclictest.sh" "$ROUNDS" "$SECS" ||
		return 0
	awk '$1 == "round" && $5 == "all:" {
		gsub(/,/, "")
		print $2, $3, "p50", $7; print $2, $3, "p99", $10 }' \
		"$TMP/cyclic.out" | pairs cyclic ct ib
}

part_server() {
	row server.rps "Server / schbench     RPS" 5
	row server.req50 "Server / schbench     request p50 us" 5
	row server.req99 "Server / schbench     request p99 us" 10
	row server.wake50 "Server / schbench     wakeup p50 us" 5
	row server.wake99 "Server / schbench     wakeup p99 us" 10
	row server.work50 "Server / schbench     work alone p50 us" 5
	[ -z "${FROM:-}" ] || return 0
	part_run server sh "$BENCH/server-vs-schbench.sh" "$ROUNDS" "$SECS" \
		"lock work-1cpu" || return 0
	awk '$1 == "==" { mode = $2; sub(/:$/, "", mode) }
	     $1 == "round" && $4 == "RPS" && mode == "lock" {
		print $2, $3, "rps", $6; print $2, $3, "req50", $9
		print $2, $3, "req99", $11; print $2, $3, "wake50", $14
		print $2, $3, "wake99", $16 }' "$TMP/server.out" |
		pairs server schbench interbench
	awk '$1 == "==" { mode = $2; sub(/:$/, "", mode) }
	     $1 == "round" && $4 == "RPS" && mode == "work-1cpu" {
		print $2, $3, "work50", $9 }' "$TMP/server.out" |
		pairs server schbench interbench
}

part_rtapp() {
	for w in fifo other; do
		row rtapp.$w.p50 "RtApp / rt-app $w  wu_lat p50 us" 5
		row rtapp.$w.p99 "RtApp / rt-app $w  wu_lat p99 us" 10
	done
	[ -z "${FROM:-}" ] || return 0
	part_run rtapp env QOS=0 sh "$BENCH/rtapp-vs-rtapp.sh" "$ROUNDS" \
		"$SECS" || return 0
	awk '$1 == "round" && $5 == "p50" {
		w = $4; sub(/:$/, "", w); gsub(/,/, "")
		print $2, $3, w ".p50", $6; print $2, $3, w ".p99", $9 }' \
		"$TMP/rtapp.out" | pairs rtapp ra ib
}

# trace_run NAME OPT: the trace's cells in runs of at most 50 pairs of
# passes (-n's bound is 100), TPAIRS pairs in all, OPT on half of each
# run's passes (--trace-alternate: T U U T T U ...), into NAME.1.json,
# NAME.2.json, ... Exit 3 (another run holds the lock or the trace
# instance, a test suite's): again after 20 s, a few times. 0, or 1
# having said why.
trace_run() {
	name=$1 left=$TPAIRS k=0
	while [ "$left" -gt 0 ]; do
		k=$((k + 1)) n=$left
		[ $n -gt 50 ] && n=50
		left=$((left - n))
		for try in 1 2 3 4 5 6; do
			"$IB" -c -t "$TSECS" -n $((2 * n)) -W audio -W video \
				-w none -w burn "$2" --trace-alternate \
				--json "$TMP/$name.$k.json" \
				>"$TMP/$name.$k.out" 2>&1
			rc=$?
			[ $rc = 3 ] || break
			grep -q "another interbench\|instances/interbench" \
				"$TMP/$name.$k.out" || break
			echo "trace $name: exit 3, again in 20 s" >&2
			sleep 20
		done
		# 4: some cells failed or were skipped; the pairs that have both
		case $rc in
		0|4) [ -s "$TMP/$name.$k.json" ] && continue ;;
		esac
		skip "trace $name" "exit $rc: $(grep "^interbench" \
			"$TMP/$name.$k.out" | tail -n 1)"
		return 1
	done
}

# trace_pairs PART FILE: from "cell repeat traced p50 p99 max", the
# traced pass against the untraced of each pair of passes into cmp
# (untraced first), and the neighbouring passes of the same kind (the
# second of one pair, the first of the next: U U or T T) into aa. A
# cell's pass runs after a different cell in the first member of a pair
# than in the second (the passes run the matrix forwards, then back), so
# the traced pass is first in half the pairs and the A/A's later pass
# the numerator in half: what the cell before does to a cell cancels in
# both alike.
trace_pairs() {
	jq -r '.results[] | select(.status == "ok") |
		"\(.bench)/\(.load) \(.repeat) \(has("trace_lost_events")) \(.latency_us.p50) \(.latency_us.p99) \(.latency_us.max)"' \
		"$2" | awk -v part="$1" -v cmp="$TMP/cmp" -v aa="$TMP/aa" '
	{ v[$1, $2] = $4 " " $5 " " $6; t[$1, $2] = $3; cells[$1] = 1
	  if ($2 > last) last = $2 }
	function out(f, c, x, y,    a, b) {
		split(v[c, x], a, " "); split(v[c, y], b, " ")
		print part "." c ".p50", a[1], b[1] >>f
		print part "." c ".p99", a[2], b[2] >>f
		print part "." c ".max", a[3], b[3] >>f
	}
	END {
		for (c in cells)
			for (r = 1; r < last; r++) {
				if (!((c, r) in v) || !((c, r + 1) in v))
					continue
				if (r % 2 && t[c, r] != t[c, r + 1])
					out(cmp, c, t[c, r] == "true" ? r + 1 : r,
					    t[c, r] == "true" ? r : r + 1)
				else if (!(r % 2) && t[c, r] == t[c, r + 1])
					out(aa, c, r / 2 % 2 ? r : r + 1,
					    r / 2 % 2 ? r + 1 : r)
			}
	}'
}

part_trace() {
	for mode in ${TRACE_MODES:-trace timer}; do
		for cell in Audio/None Audio/Burn Video/None Video/Burn; do
			opt=--trace
			[ $mode = timer ] && opt=--trace-timer
			row $mode.$cell.p50 "$opt $cell  p50 us" 5
			row $mode.$cell.p99 "$opt $cell  p99 us" 10
			row $mode.$cell.max "$opt $cell  max us" -
		done
	done
	if [ -n "${FROM:-}" ]; then
		# the pairs again from the kept runs, as this script makes them
		for mode in ${TRACE_MODES:-trace timer}; do
			ls "$FROM/$mode".*.json >/dev/null 2>&1 || continue
			grep -v "^$mode\." "$TMP/cmp" >"$TMP/cmp.keep"
			grep -v "^$mode\." "$TMP/aa" >"$TMP/aa.keep"
			mv "$TMP/cmp.keep" "$TMP/cmp"
			mv "$TMP/aa.keep" "$TMP/aa"
			for f in "$FROM/$mode".*.json; do
				trace_pairs $mode "$f"
			done
		done
		return 0
	fi
	for mode in ${TRACE_MODES:-trace timer}; do
		opt=--trace
		[ $mode = timer ] && opt=--trace-timer
		echo "== $mode: $opt --trace-alternate, $TPAIRS pairs of $TSECS s cells ($(date +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
		trace_run $mode $opt || continue
		for f in "$TMP/$mode".*.json; do
			trace_pairs $mode "$f"
		done
	done
}

echo "bench/agreement.sh: $ROUNDS rounds of $SECS s (trace: $TPAIRS pairs of $TSECS s cells)" \
     "on $(uname -r), $(nproc) CPUs, $(date '+%Y-%m-%d %H:%M')"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
if [ -n "${FROM:-}" ]; then
	cp "$FROM/cmp" "$FROM/aa" "$TMP"/ || exit 1
	cp "$FROM/skips" "$TMP"/ 2>/dev/null
	echo "(the table again from $FROM: nothing measured now)"
fi
for p in $ONLY; do
	case $p in
	cyclic|server|rtapp|trace) part_$p ;;
	*) echo "unknown part $p (cyclic, server, rtapp, trace)"; exit 2 ;;
	esac
done
[ -n "${FROM:-}" ] ||
	echo "load average: $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" && cp "$TMP"/*.out "$TMP"/cmp "$TMP"/aa \
		"$TMP"/skips "$KEEP"/ &&
		cp "$TMP"/*.json "$KEEP"/ 2>/dev/null
fi
echo

# The table: medians, the ratio's median and interval, the A/A's, goal
# and verdict, a row a figure.
awk -F'|' -v cmpf="$TMP/cmp" -v aaf="$TMP/aa" -v skipf="$TMP/skips" '
function sort(x, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
			t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
		}
}
function med(x, n) {
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
# The 95 % interval of the median of n sorted values: ranks k and
# n + 1 - k, k as large as keeps P(Bin(n, 1/2) < k) at 2.5 % or less.
# Sets lo, hi and cov, the coverage it has (below 95 % under 6 values).
function interval(x, n,    k, c, p, cdf) {
	p = 0.5 ^ n; c = 1; cdf = p; k = 1	# cdf: P(X <= k - 1)
	while (k < n / 2) {
		c = c * (n - k + 1) / k		# C(n, k)
		if (cdf + c * p > 0.025)
			break
		cdf += c * p
		k++
	}
	lo = x[k]; hi = x[n + 1 - k]; cov = 1 - 2 * cdf
}
function pct(f) { return sprintf("%.2f", f) }
BEGIN {
	while ((getline line <cmpf) > 0) {
		split(line, w, " ")
		if (w[2] > 0 && w[3] != "") {
			k = w[1]; n = ++nc[k]
			ra[k, n] = w[3] / w[2]; va[k, n] = w[2]; vb[k, n] = w[3]
		}
	}
	while ((getline line <aaf) > 0) {
		split(line, w, " ")
		if (w[2] > 0 && w[3] != "") {
			k = w[1]; n = ++na[k]; aa[k, n] = w[3] / w[2]
		}
	}
	while ((getline line <skipf) > 0)
		skipped = skipped "  skipped " line "\n"
	printf "%-38s %9s %9s %6s %15s %6s %15s %3s %4s  %s\n", "figure",
	       "anchor", "interb.", "ratio", "95 % interval", "A/A",
	       "A/A 95 %", "n", "goal", "verdict"
}
{
	k = $1; label = $2; goal = $3
	if (prev != "" && substr(k, 1, 4) != substr(prev, 1, 4))
		print ""
	prev = k
	n = nc[k] + 0
	if (!n) {
		printf "%-38s %9s %9s %6s %15s %6s %15s %3d %4s  %s\n", label,
		       "-", "-", "-", "-", "-", "-", 0,
		       goal == "-" ? "-" : goal "%", "no data"
		nodata++
		next
	}
	for (i = 1; i <= n; i++) { x[i] = va[k, i]; y[i] = vb[k, i]; z[i] = ra[k, i] }
	sort(x, n); sort(y, n); sort(z, n)
	ma = med(x, n); mb = med(y, n); mr = med(z, n)
	interval(z, n); rlo = lo; rhi = hi; rcov = cov
	m = na[k] + 0; aas = "-"; aai = "-"
	if (m) {
		for (i = 1; i <= m; i++) q[i] = aa[k, i]
		sort(q, m)
		aas = pct(med(q, m)); interval(q, m)
		aai = "[" pct(lo) ", " pct(hi) "]" (cov < 0.95 ? "*" : "")
	}
	ci = "[" pct(rlo) ", " pct(rhi) "]" (rcov < 0.95 ? "*" : "")
	if (rcov < 0.95) thin = 1
	if (goal == "-") {
		verdict = "(no goal)"
	} else {
		g = goal / 100
		if (rcov < 0.95) { verdict = "FAIL (few)"; nfail++ }
		else if (rlo >= 1 - g && rhi <= 1 + g) { verdict = "PASS"; npass++ }
		else if (rhi < 1 - g || rlo > 1 + g) { verdict = "FAIL (off)"; nfail++ }
		else { verdict = "FAIL (noise)"; nfail++ }
	}
	printf "%-38s %9.1f %9.1f %6.2f %15s %6s %15s %3d %4s  %s\n", label,
	       ma, mb, mr, ci, aas, aai, n, goal == "-" ? "-" : goal "%",
	       verdict
}
END {
	print ""
	printf "%d PASS, %d FAIL, %d without data\n", npass, nfail, nodata
	if (thin)
		print "* fewer than 6 pairs: the interval is all of them, " \
		      "below 95 % coverage"
	printf "%s", skipped
}' "$TMP/rows"
