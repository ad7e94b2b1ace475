#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sched-classes.sh - Audio and Video under Burn with the tasks and
# the loads scheduled four ways (the default; --load-policy idle;
# --bench-policy deadline; --bench-slice 300), in alternated rounds so
# that the machine's drift falls on every setting alike. Prints each
# setting's medians over the rounds: latency p50 and p99 (ms), p99's
# range, Video's deadlines met (%) and Burn's rate (Mloops/s). Needs
# root (deadline); waits for the machine's run lock rather than overlap
# another interbench's run.
#
#   bench/sched-classes.sh [ROUNDS [SECONDS]]   (8, 3)
make -s -C "$(dirname "$0")/.." interbench || exit 1
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
ROUNDS=${1:-8}
SECS=${2:-3}

SETTINGS="default load-idle deadline slice-300"

args() {
	case $1 in
	default) ;;
	load-idle) echo "--load-policy idle" ;;
	deadline) echo "--bench-policy deadline" ;;
	slice-300) echo "--bench-slice 300" ;;
	esac
}

# run NAME ROUND: one run of a setting; "bench p50 p99 met burn" lines
# into $TMP/NAME. Exit status 3 from a held run lock is waited out.
run() {
	tries=0
	while :; do
		# shellcheck disable=SC2046
		(cd "$TMP" && "$IB" -c -t "$SECS" -W Audio -W Video -w Burn \
			$(args "$1") --json "$TMP/r.json" >/dev/null 2>"$TMP/err")
		st=$?
		if [ $st = 3 ] && grep -q "another interbench" "$TMP/err"; then
			tries=$((tries + 1))
			[ $tries -gt 600 ] && return 1
			sleep 1
			continue
		fi
		[ $st = 0 ] || { cat "$TMP/err" >&2; return 1; }
		break
	done
	awk '/"bench":/ { gsub(/[",]/, "", $2); b = $2 }
	     /"latency_us":/ { on = 1 }
	     on && /"p50":/ { gsub(/,/, "", $2); p50 = $2 }
	     on && /"p99":/ { gsub(/,/, "", $2); p99 = $2 }
	     on && /}/ { on = 0 }
	     /"deadlines_met_pct":/ { gsub(/,/, "", $2); met = $2 }
	     /"burn_loops_per_s":/ { gsub(/,/, "", $2)
		printf "%s %g %g %g %g\n", b, p50 / 1000, p99 / 1000, met,
		       $2 / 1e6 }' "$TMP/r.json" >>"$TMP/$1"
}

col() { awk -v b="$2" -v c="$3" '$1 == b { print $c }' "$TMP/$1"; }

r=1
while [ $r -le "$ROUNDS" ]; do
	for s in $SETTINGS; do
		run "$s" || exit 1
	done
	echo "round $r of $ROUNDS done" >&2
	r=$((r + 1))
done

echo "Audio and Video under Burn: $ROUNDS alternated rounds of $SECS s; medians"
printf "%-10s %-6s %8s %8s %15s %7s %10s\n" setting bench "p50 ms" \
	"p99 ms" "p99 range" "met %" "Mloops/s"
for s in $SETTINGS; do
	for b in Audio Video; do
		lo=$(col "$s" $b 3 | sort -g | head -n 1)
		hi=$(col "$s" $b 3 | sort -g | tail -n 1)
		printf "%-10s %-6s %8.3f %8.3f %7.2f-%-7.2f %7.1f %10.0f\n" \
			"$s" $b "$(col "$s" $b 2 | median)" \
			"$(col "$s" $b 3 | median)" "$lo" "$hi" \
			"$(col "$s" $b 4 | median)" \
			"$(col "$s" $b 5 | median)"
	done
done
