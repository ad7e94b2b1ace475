#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/effects.sh - the known-effects atlas: real `interbench ab` runs of
# settings whose direction is known, and what ab's verdict said of each.
#
#   bench/effects.sh collect DIR [CASE...]   each CASE (default: all) once
#   bench/effects.sh aa DIR RUNS             RUNS A/A runs (aa.1 ... aa.RUNS)
#   bench/effects.sh runs DIR CASE RUNS      RUNS runs of CASE (CASE.1 ...)
#   bench/effects.sh table DIR               the atlas from DIR's files
#
# Cases (B against A; every run -t $T -n $N pairs of $MATRIX):
#   aa       nothing differs: any cell marked is a false mark
#   stall    B: a SCHED_FIFO 99 spinner, 5 ms every 97 ms, on CPU 0
#            (the run's CPU with -u): worse
#   rare     B: the same spinner, 20 ms every 2 s: worse, in the max and
#            the misses, if the data can see it at all
#   nice19   B: the loads at nice 19: better under load
#   idle     B: the loads SCHED_IDLE: better under load
#   cgroup10 A: the loads in their own cgroup at weight 100; B: weight 10:
#            better under load
#   slack    A: timer slack 1 ns; B: 50 us, on Cyclic run SCHED_OTHER
#            (a task that sleeps on its own timer) and Audio (woken by
#            its real-time timing thread, which has no slack): Cyclic's
#            p50 worse by about 50 us, Audio unchanged
# T (2), N (10) and MATRIX (-u -W audio -W video -w none -w burn) may be
# set; N auto runs ab's -n auto as it is. Needs root (SCHED_FIFO),
# tests/noise, and jq and bc for the table. table re-judges the files
# with this tree's compare, so it shows today's verdicts of data taken
# before; from runs of 10 pairs it also judges their first 3 and 5, and
# stops where ab's -n auto would have (with and without --bisect), with
# the machine-minutes each would have cost.
cd "$(dirname "$0")/.." || exit 1
IB=${IB:-$PWD/interbench}
T=${T:-2}
N=${N:-10}
MATRIX=${MATRIX:--u -W audio -W video -w none -w burn}
ALL="aa stall rare nice19 idle cgroup10 slack"
[ -x "$IB" ] || make -s interbench || exit 1
[ -x tests/noise ] || make -s tests/noise || exit 1

# The B command that starts the spinner (SPIN ms every PERIOD ms on CPU 0)
# and waits until it runs; its undo stops it.
spinner() {
	echo "taskset -c 0 $PWD/tests/noise $1 $2 3600 >$D/noise.out 2>&1 &
		echo \$! >$D/noise.pid; i=0
		while ! grep -q '^noise: ready' $D/noise.out && [ \$i -lt 100 ]
		do sleep 0.05; i=\$((i + 1)); done
		grep -q '^noise: ready' $D/noise.out"
}

# One ab run of case $1 into $D/$2.{A,B}.json, its output in $2.out and
# its wall time in seconds in $2.secs.
one() {
	c=$1 out=$2 m=$MATRIX
	case $c in
	aa) set -- ;;
	stall) set -- --b "$(spinner 5 97)" --b-undo "kill \$(cat $D/noise.pid)" ;;
	rare) set -- --b "$(spinner 20 2000)" --b-undo "kill \$(cat $D/noise.pid)" ;;
	nice19) set -- --b-opts "-N 19" ;;
	idle) set -- --b-opts "--load-policy idle" ;;
	cgroup10) set -- --a-opts "--load-group cgroup" \
		--b-opts "--load-group cgroup:10" ;;
	slack) set -- --a-opts "--timer-slack 1" \
		--b-opts "--timer-slack 50000"
		m="-u -W cyclic --cyclic-policy other -W audio -w none -w burn" ;;
	*) echo "effects.sh: no case $c (cases: $ALL)" >&2; exit 2 ;;
	esac
	# another interbench measuring (exit 3): wait for it, 10 min at most
	w=0
	while :; do
		t0=$(date +%s)
		# shellcheck disable=SC2086
		"$IB" ab -c -t "$T" -n "$N" $m -o "$D/$out" "$@" >"$D/$out.out" 2>&1
		rc=$?
		[ $rc = 3 ] && grep -q "another interbench" "$D/$out.out" &&
			[ $w -lt 120 ] || break
		w=$((w + 1))
		sleep 5
	done
	echo $(($(date +%s) - t0)) >"$D/$out.secs"
	echo "$out: exit $rc"
	[ $rc -le 1 ] || { tail -5 "$D/$out.out" >&2; exit 1; }
}

# Each cell's verdict line from compare's table: "Audio/None worse: ...".
verdicts() {
	"$IB" compare "$1" "$2" | awk '
		/^[A-Za-z][A-Za-z0-9]*\/[A-Za-z]/ { cell = $1 }
		/^ +=> / { sub(/^ +=> /, ""); print cell, $0 }'
}

# The first $3 pairs of files $1 and $2 into $4.A.json and $4.B.json,
# judged as if ab had made $5 looks (1: a fixed -n; 4: -n auto's).
first() {
	for s in A B; do
		f=$1
		[ $s = B ] && f=$2
		jq --argjson n "$3" --argjson l "$5" \
			'.results |= map(select(.repeat <= $n)) | .ab.looks = $l |
			 del(.ab.stopped)' "$f" >"$4.$s.json" || return 1
	done
}

# compare's exit and its cells' verdicts on the first $3 pairs, looks $4.
judge_first() {
	first "$a" "$b" "$1" "$TMPD/j" "$2" || return 2
	"$IB" compare "$TMPD/j.A.json" "$TMPD/j.B.json" >"$TMPD/j.out" 2>&1
	echo $?
}

# -n auto on the pairs kept: looks after 3, 5, 8 and 10 (those there
# are), each at alpha / 4, stopping when no cell is undecided (bisect:
# also when one is worse). "PAIRS EXIT", or "- -" with too few pairs;
# the cells worse or mixed at the stop in $TMPD/stop.$1.
auto_stop() {
	bisect=$1 last="- -"
	: >"$TMPD/stop.$1"
	for k in 3 5 8 10; do
		[ "$k" -le "$pairs" ] || break
		rc=$(judge_first "$k" 4)
		last="$k $rc"
		awk '/^[A-Za-z][A-Za-z0-9]*\/[A-Za-z]/ { cell = $1 }
		     /^ +=> (worse|mixed)/ { printf "%s%s", n++ ? ", " : "", cell }
		     END { print "" }' "$TMPD/j.out" >"$TMPD/stop.$1"
		und=$(grep -c "^ *=> inconclusive" "$TMPD/j.out")
		[ "$und" -eq 0 ] && break
		[ "$bisect" = 1 ] && [ "$rc" = 1 ] && break
	done
	echo "$last"
}

table() {
	TMPD=$(mktemp -d) || exit 1
	trap 'rm -rf "$TMPD"' EXIT
	echo "Each case: compare's exit (1: a cell worse or mixed) and machine-minutes at"
	echo "a fixed -n 3 and -n 5, and -n auto's stop (pairs, exit, minutes) as ab would"
	echo "have stopped on these pairs (looks 3, 5, 8, 10 at alpha / 4; --bisect: at"
	echo "the first look with a cell worse); then every cell's verdict on all pairs."
	printf "%-9s %5s %6s  %-10s %-10s %-14s %-14s\n" case pairs "min" \
		"-n 3" "-n 5" "-n auto" "auto --bisect"
	for a in "$D"/*.A.json; do
		[ -e "$a" ] || continue
		b=${a%.A.json}.B.json n=$(basename "${a%.A.json}")
		[ -e "$b" ] || continue
		"$IB" compare "$a" "$b" >/dev/null 2>&1
		rc=$?
		pairs=$(jq '[.results[] | .repeat] | max' "$a")
		secs=$(cat "${a%.A.json}.secs" 2>/dev/null || echo 0)
		per=$(echo "$secs / 60 / $pairs" | bc -l)
		n3="-" n5="-"
		[ "$pairs" -ge 3 ] && n3="$(judge_first 3 1) $(printf %.1f "$(echo "$per * 3" | bc -l)")"
		[ "$pairs" -ge 5 ] && n5="$(judge_first 5 1) $(printf %.1f "$(echo "$per * 5" | bc -l)")"
		set -- $(auto_stop 0)
		au="$1 pairs, $2"
		[ "$1" != - ] && au="$au $(printf %.1f "$(echo "$per * $1" | bc -l)")"
		set -- $(auto_stop 1)
		bi="$1 pairs, $2"
		[ "$1" != - ] && bi="$bi $(printf %.1f "$(echo "$per * $1" | bc -l)")"
		printf "%-9s %5s %6.1f  %-10s %-10s %-14s %-14s exit %s\n" "$n" \
			"$pairs" "$(echo "$secs / 60" | bc -l)" "$n3" "$n5" \
			"$au" "$bi" "$rc"
		echo "      worse or mixed at -n auto's stop: $(cat "$TMPD/stop.0");" \
			"with --bisect: $(cat "$TMPD/stop.1")"
		verdicts "$a" "$b" | sed 's/^/      /'
	done
}

[ $# -ge 2 ] || { sed -n '3,9p' "$0" >&2; exit 2; }
cmd=$1 D=$(mkdir -p "$2" && cd "$2" && pwd) || exit 1
shift 2
case $cmd in
collect)
	for c in ${*:-$ALL}; do one "$c" "$c"; done ;;
aa)
	i=1
	while [ "$i" -le "${1:-20}" ]; do one aa "aa.$i"; i=$((i + 1)); done ;;
runs)
	i=1
	while [ "$i" -le "${2:-5}" ]; do one "$1" "$1.$i"; i=$((i + 1)); done ;;
table)
	table ;;
*)
	sed -n '3,9p' "$0" >&2; exit 2 ;;
esac
