#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/ab-power.sh - how soon compare finds a known change on this
# machine, and that it finds none where there is none: real runs with a
# known truth.
#
#   bench/ab-power.sh collect DIR [ROUNDS [SECONDS [REPEATS]]]  (6, 1, 5)
#   bench/ab-power.sh collect-ab DIR [ROUNDS [SECONDS [REPEATS]]]
#   bench/ab-power.sh analyse DIR
#
# collect: ROUNDS rounds, each one run as it is (plain.R.json) and one
# while a SCHED_FIFO 99 process spins 2 ms every 97 ms on CPU 0 (2 % of
# one CPU; stall.R.json), in turn first so that drift falls on both
# alike; every run is Audio, Video, X and Gaming under None and Burn,
# -t SECONDS -n REPEATS. Needs root (SCHED_FIFO) and tests/noise.
# collect-ab: the same with `interbench ab`, each round one A/A run
# (abaa.R.A.json, abaa.R.B.json: no commands) and one whose B side
# starts the spinner and whose undo stops it (abstall.R.*), each cell's
# A and B side by side; -n REPEATS pairs.
# analyse: pairs of plain runs of neighbouring rounds (A/A: any mark is
# false) and the plain and stall runs of each round (the change is real),
# compared with each candidate primary figure (--primary) on the first K
# repeats of each file (K = 3 and all); prints, per task and figure, the
# A/A cells marked and the stalled cells found worse. Needs jq.
cd "$(dirname "$0")/.." || exit 1
IB=${IB:-./interbench}
[ -x "$IB" ] || make -s interbench || exit 1

collect() {
	dir=$1; rounds=${2:-6}; secs=${3:-1}; reps=${4:-5}
	mkdir -p "$dir" || exit 1
	[ -x tests/noise ] || make -s tests/noise || exit 1
	run() {	# run MODE ROUND
		if [ "$1" = stall ]; then
			taskset -c 0 tests/noise 2 97 3600 >"$dir/noise.out" &
			np=$!
			i=0; while ! grep -q "^noise: ready" "$dir/noise.out" &&
				[ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
		fi
		"$IB" -c -t "$secs" -n "$reps" -W Audio -W Video -W X \
			-W Gaming -w None -w Burn --json "$dir/$1.$2.json" \
			>"$dir/$1.$2.out" 2>&1
		rc=$?
		[ "$1" = stall ] && { kill $np; wait $np 2>/dev/null; }
		[ $rc = 0 ] || { cat "$dir/$1.$2.out" >&2; exit 1; }
	}
	r=1
	while [ $r -le "$rounds" ]; do
		if [ $((r % 2)) = 1 ]; then run plain $r; run stall $r
		else run stall $r; run plain $r; fi
		echo "round $r of $rounds done"
		r=$((r + 1))
	done
}

collect_ab() {
	dir=$1; rounds=${2:-6}; secs=${3:-1}; reps=${4:-5}
	mkdir -p "$dir" || exit 1
	[ -x tests/noise ] || make -s tests/noise || exit 1
	d=$(cd "$dir" && pwd)
	spin="taskset -c 0 $PWD/tests/noise 2 97 3600 >$d/noise.ab 2>&1 &
		echo \$! >$d/noise.pid; i=0
		while ! grep -q '^noise: ready' $d/noise.ab && [ \$i -lt 100 ]
		do sleep 0.05; i=\$((i + 1)); done"
	r=1
	while [ $r -le "$rounds" ]; do
		for mode in abaa abstall; do
			if [ $mode = abstall ]; then
				set -- --b "$spin" --b-undo "kill \$(cat $d/noise.pid)"
			else
				set --
			fi
			"$IB" ab -c -t "$secs" -n "$reps" -W Audio -W Video \
				-W X -W Gaming -w None -w Burn -o "$dir/$mode.$r" \
				"$@" >"$dir/$mode.$r.out" 2>&1
			rc=$?
			[ $rc = 0 ] || [ $rc = 1 ] ||
				{ cat "$dir/$mode.$r.out" >&2; exit 1; }
		done
		echo "round $r of $rounds done"
		r=$((r + 1))
	done
}

# minutes FILE...: the machine-minutes the files' runs took, summed
minutes() {
	jq -r '[.started, .finished] | map(sub("Z$"; "Z") | fromdate) |
		.[1] - .[0]' "$@" | awk '{ s += $1 } END { printf "%.1f", s / 60 }'
}

# first FILE K: the file with its first K repeats only
first() {
	jq --argjson k "$2" '.results |= map(select(.repeat <= $k))' "$1"
}

# cells JSON: "bench verdict p" per cell of a compare --json document,
# p the raw p of its primary figure
cells() {
	jq -r '.comparisons[0].cells[] | "\(.bench) \(.verdict) \(
		[.rows[] | select(.primary) | .p // 1][0] // 1)"' "$1"
}

analyse() {
	dir=$1
	command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	if [ -e "$dir/abaa.1.A.json" ]; then
		analyse_ab "$dir" "$tmp"
		return
	fi
	n=$(ls "$dir"/plain.*.json | wc -l)
	reps=$(jq '[.results[].repeat] | max' "$dir/plain.1.json")
	echo "separate runs: $n rounds of plain and stall runs took" \
		"$(minutes "$dir"/plain.*.json "$dir"/stall.*.json) machine-minutes"
	for k in 3 $reps; do
		for r in $(seq 1 "$n"); do
			first "$dir/plain.$r.json" $k >"$tmp/p$r.json"
			first "$dir/stall.$r.json" $k >"$tmp/s$r.json"
		done
		for fig in primary mean p50 p90 p99 max; do
			: >"$tmp/tally"
			for r in $(seq 1 "$n"); do
				"$IB" compare $(prim $fig) --json "$tmp/c.json" \
					"$tmp/p$r.json" "$tmp/s$r.json" >/dev/null
				cells "$tmp/c.json" | sed 's/^/stall /' >>"$tmp/tally"
				[ $r -lt "$n" ] || continue
				"$IB" compare $(prim $fig) --json "$tmp/c.json" \
					"$tmp/p$r.json" "$tmp/p$((r + 1)).json" >/dev/null
				cells "$tmp/c.json" | sed 's/^/aa /' >>"$tmp/tally"
			done
			# the geometric mean of the stall pairs' raw p:
			# how close the figure comes to finding it
			tally_table $k $fig "$tmp/tally"
		done
	done | sort -k2,2 -k1,1n -k3,3
}

# prim FIG: compare's option for it; "primary" is each task's own
prim() { [ "$1" = primary ] || echo "--primary $1"; }

# The tally's lines, "aa|stall task verdict p", as a table per figure,
# and for each task's own primary figure a line over every task.
tally_table() {	# K FIG TALLY
	awk -v fig=$2 -v k=$1 '
		{ key = $2; tasks[key] = 1; all[$1, key]++
		  if ($1 == "aa" && ($3 == "worse" || $3 == "better")) aa[key]++
		  if ($1 == "stall" && $3 == "worse") found[key]++
		  if ($1 == "stall") lp[key] += log($4 > 1e-12 ? $4 : 1e-12) }
		END { if (fig == "primary") {
			for (t in tasks) { A += aa[t]; N += all["aa", t]
				F += found[t]; S += all["stall", t] }
			printf "%-2s %-6s %-7s A/A marked %2d of %2d   stall found %2d of %2d\n",
				k, "(all)", fig, A, N, F, S }
		      for (t in tasks)
			printf "%-2s %-6s %-7s A/A marked %2d of %2d   stall found %2d of %2d   stall p (geo mean) %.3g\n",
				k, t, fig, aa[t], all["aa", t],
				found[t], all["stall", t],
				exp(lp[t] / all["stall", t]) }' "$3"
}

# ab's files: each round's A/A pair and its stall pair, judged in pairs
analyse_ab() {
	dir=$1; tmp=$2
	n=$(ls "$dir"/abaa.*.A.json | wc -l)
	reps=$(jq '[.results[].repeat] | max' "$dir/abaa.1.A.json")
	# an ab run's two files span the same time: A's only
	echo "interbench ab: $n rounds of A/A and stall runs took" \
		"$(minutes "$dir"/abaa.*.A.json "$dir"/abstall.*.A.json) machine-minutes"
	for k in 3 $reps; do
		for fig in primary mean p50 p90 p99 max; do
			: >"$tmp/tally"
			for r in $(seq 1 "$n"); do
				for m in abaa abstall; do
					first "$dir/$m.$r.A.json" $k >"$tmp/a.json"
					first "$dir/$m.$r.B.json" $k >"$tmp/b.json"
					"$IB" compare $(prim $fig) --json "$tmp/c.json" \
						"$tmp/a.json" "$tmp/b.json" >/dev/null
					w=aa; [ $m = abstall ] && w=stall
					cells "$tmp/c.json" | sed "s/^/$w /" >>"$tmp/tally"
				done
			done
			tally_table $k $fig "$tmp/tally"
		done
	done | sort -k2,2 -k1,1n -k3,3
}

case $1 in
collect) shift; collect "$@" ;;
collect-ab) shift; collect_ab "$@" ;;
analyse) shift; analyse "$@" ;;
*) sed -n "2,25p" "$0"; exit 2 ;;
esac
