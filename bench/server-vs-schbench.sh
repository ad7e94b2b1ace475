#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interbench's Server against schbench, on the same machine with the same
# settings, run alternately so that drift of the machine is shared: one
# message thread, 2 workers, 256 KB footprint, 5 operations, 100 us sleep.
#
#   bench/server-vs-schbench.sh [ROUNDS] [SECONDS] [MODES]
#       (default 3 rounds of 8 s, modes "lock nolock lock-1cpu work-1cpu")
#
# lock is both tools' default (schbench, and -W server); nolock is
# schbench -L against --server-no-lock; lock-1cpu is lock with both run
# on CPU 1 alone (taskset), where the workers contend for the lock and
# a CPU; work-1cpu times the work alone (schbench -C with one worker
# against one worker, no lock, no sleep), on CPU 1: what a request costs
# each build, which the other modes' RPS and request latency follow.
# Prints each run's RPS p50,
# request p50/p99 and wakeup p50/p99 (us), then the medians per tool and
# interbench's over schbench's (the ratio of the medians, and the median
# of each round's ratio, which cancels drift shared by a round's two
# runs). Target: within 10 % on RPS and request
# latency. Wakeup latencies of a few microseconds differ by more
# (doc/agreement.txt, "Server against schbench"). The load average is
# printed too: on a shared machine the figures are only as good as its
# quiet.
#
# schbench is $SCHBENCH if set, else built from the source tarball in
# $SCHBENCH_SRC (default: ../shared/anchors/schbench-*.tar.gz beside the
# tree), else one on the PATH; without any the script says "skip:" and
# exits 0. interbench never uses schbench itself.
set -u
ROUNDS=${1:-3}
SECS=${2:-8}
MODES=${3:-lock nolock lock-1cpu work-1cpu}
WORKERS=2
FOOT_KB=256
OPS=5
SLEEP_US=100
. "$(dirname "$0")/lib.sh"

find_schbench() {
	if [ -n "${SCHBENCH:-}" ]; then
		[ -x "$SCHBENCH" ] && { echo "$SCHBENCH"; return 0; }
		return 1
	fi
	src=${SCHBENCH_SRC:-}
	[ -n "$src" ] || src=$(ls "$TOP"/../shared/anchors/schbench-*.tar.gz \
				   2>/dev/null | head -n 1)
	if [ -n "$src" ] && [ -f "$src" ] &&
	   tar xzf "$src" -C "$TMP" 2>/dev/null; then
		dir=$(ls -d "$TMP"/schbench* 2>/dev/null | head -n 1)
		if [ -n "$dir" ] && make -C "$dir" >"$TMP/build.log" 2>&1 &&
		   [ -x "$dir/schbench" ]; then
			echo "$dir/schbench"
			return 0
		fi
	fi
	command -v schbench
}

# loop_phase BIN FUNC: where FUNC's innermost loop (its first backward
# conditional jump's span) lies: "start-end, N bytes into a 64-byte line
# (straddles|fits)". A loop that straddles a line costs more on some
# CPUs (16 % a request on the 2-CPU VM's Zen 5, server_run.c's multiply):
# both tools' multiplications must lie alike. Needs objdump.
loop_phase() {
	command -v objdump >/dev/null || { echo "unknown (no objdump)"; return; }
	objdump -d --no-show-raw-insn "$1" 2>/dev/null | awk -v f="<$2>:" '
		$2 == f { on = 1; next }
		on && /^$/ { exit }
		on && $2 ~ /^j/ && $2 != "jmp" { sub(/:/, "", $1); print $1, $3 }' |
	while read -r at to; do
		[ $((0x$to)) -lt $((0x$at)) ] || continue
		s=$((0x$to)) e=$((0x$at + 1))
		printf '%x-%x, %d bytes into a 64-byte line (%s)\n' $s $e \
			$((s % 64)) "$([ $((s / 64)) = $((e / 64)) ] && echo fits ||
					echo straddles)"
		return
	done
}

SB=$(find_schbench) || { echo "skip: schbench cannot be built or found"; exit 0; }
echo "schbench: $SB"
echo "inner loop: interbench's multiply $(loop_phase "$IB" multiply);" \
     "schbench's do_some_math $(loop_phase "$SB" do_some_math)"
echo "settings: 1 message thread, $WORKERS workers, $FOOT_KB KB, $OPS ops," \
     "$SLEEP_US us sleep, $ROUNDS rounds of $SECS s, $(nproc) CPUs"

# Each run prints: rps_p50 req_p50 req_p99 wake_p50 wake_p99
# Is another interbench measuring? Its run lock (lock.c) is a record
# lock, which flock(1) cannot see; python3 can. Without python3: no.
LOCKFILE=${INTERBENCH_LOCK:-}
[ -n "$LOCKFILE" ] || { [ -d /run/lock ] && LOCKFILE=/run/lock/interbench.lock ||
			LOCKFILE=/tmp/interbench.lock; }
ib_busy() {
	[ -e "$LOCKFILE" ] && command -v python3 >/dev/null || return 1
	python3 - "$LOCKFILE" <<'PY' 2>/dev/null
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
except OSError:
    sys.exit(0)
sys.exit(1)
PY
}

# schbench knows nothing of interbench's lock: so that it does not run
# beside another interbench's measurement while interbench itself would
# wait, wait for the same (a minute at most).
wait_quiet() {
	n=0
	while ib_busy && [ $n -lt 30 ]; do
		sleep 2
		n=$((n + 1))
	done
}

# pin MODE: the command that runs a tool in that mode
pin() {
	case $1 in
	*-1cpu) echo "taskset -c 1" ;;
	*) echo "env" ;;
	esac
}

sb_run() {
	case $1 in
	nolock) args="-L -t $WORKERS" ;;
	work-1cpu) args="-C -t 1" ;;
	*) args="-t $WORKERS" ;;
	esac
	wait_quiet
	$(pin $1) "$SB" $args -m 1 -F $FOOT_KB -n $OPS -s $SLEEP_US \
		-r "$SECS" -i $((SECS + 100)) -j "$TMP/sb.json" \
		>"$TMP/sb.out" 2>&1 || return 1
	awk '{
		for (i = 1; i <= NF; i++) {
			k = $i; gsub(/[",:{}]/, "", k)
			v = $(i + 1); gsub(/[",:{}]/, "", v)
			f[k] = v
		}
	}
	END {
		if (f["rps_pct50.0"] == "") exit 1
		printf "%s %s %s %s %s\n", f["rps_pct50.0"],
		       f["request_latency_pct50.0"], f["request_latency_pct99.0"],
		       f["wakeup_latency_pct50.0"], f["wakeup_latency_pct99.0"]
	}' "$TMP/sb.json"
}

ib_run() {
	case $1 in
	nolock) args="--server-no-lock --server-workers $WORKERS" ;;
	work-1cpu) args="--server-no-lock --server-workers 1 --server-sleep 0" ;;
	*) args="--server-workers $WORKERS" ;;
	esac
	tries=0
	# Another interbench measuring refuses the run (status 3): wait for
	# it, a minute at most, rather than measure beside it.
	until (cd "$TMP" && $(pin $1) "$IB" -c -l 1000000 -t "$SECS" -W server \
		-w none --server-threads 1 --server-footprint $FOOT_KB \
		--server-ops $OPS --server-sleep $SLEEP_US $args \
		--json ib.json >ib.out 2>&1); do
		grep -q "another interbench" "$TMP/ib.out" && [ $tries -lt 30 ] ||
			return 1
		tries=$((tries + 1))
		sleep 2
	done
	awk '/"(latency_us|wakeup_latency_us|rate_per_s)": \{/ {
		obj = $1; gsub(/[":]/, "", obj); next }
	     /}/ { obj = "" }
	     obj != "" && /"p(50|99)":/ {
		k = $1; gsub(/[":]/, "", k); v = $2; gsub(/,/, "", v)
		f[obj "." k] = v }
	     END {
		if (f["rate_per_s.p50"] == "") exit 1
		printf "%s %s %s %s %s\n", f["rate_per_s.p50"],
		       f["latency_us.p50"], f["latency_us.p99"],
		       f["wakeup_latency_us.p50"], f["wakeup_latency_us.p99"]
	     }' "$TMP/ib.json"
}


for mode in $MODES; do
	case $mode in
	lock|nolock) ;;
	lock-1cpu|work-1cpu) command -v taskset >/dev/null ||
		{ echo "$mode: no taskset, skipped"; continue; } ;;
	*) echo "unknown mode $mode (lock, nolock, lock-1cpu," \
		"work-1cpu)"; exit 2 ;;
	esac
	: >"$TMP/all"
	echo
	echo "== $mode: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	r=1
	while [ $r -le "$ROUNDS" ]; do
		# Alternate which goes first.
		if [ $((r % 2)) = 1 ]; then order="sb ib"; else order="ib sb"; fi
		for t in $order; do
			case $t in
			sb) v=$(sb_run $mode) ;;
			ib) v=$(ib_run $mode) ;;
			esac || { echo "round $r $t failed: $(tail -n 1 "$TMP/$t.out")"; continue; }
			set -- $v
			printf 'round %d %-10s RPS p50 %6s  request p50 %8s p99 %8s  wakeup p50 %7s p99 %8s\n' \
				$r "$([ $t = sb ] && echo schbench || echo interbench)" "$@"
			echo "$t $v $r" >>"$TMP/all"
		done
		r=$((r + 1))
	done
	echo "== $mode: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-14s %10s %12s %12s %12s %12s\n' "median ($mode)" "RPS p50" \
		"req p50 us" "req p99 us" "wake p50 us" "wake p99 us"
	for t in sb ib; do
		line=""
		for c in 2 3 4 5 6; do
			m=$(awk -v t=$t -v c=$c '$1 == t { print $c }' "$TMP/all" | median)
			line="$line $m"
			eval "med_${t}_$c=\$m"
		done
		set -- $line
		printf '%-14s %10s %12s %12s %12s %12s\n' \
			"$([ $t = sb ] && echo schbench || echo interbench)" "$@"
	done
	line=""
	for c in 2 3 4 5 6; do
		eval "a=\${med_ib_$c:-} b=\${med_sb_$c:-}"
		line="$line $(awk -v a="$a" -v b="$b" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }')"
	done
	set -- $line
	printf '%-14s %10s %12s %12s %12s %12s\n' "ratio ib/sb" "$@"
	# Each round's two runs were neighbours in time: their ratio
	# cancels drift a burst of other work adds to both.
	line=""
	for c in 2 3 4 5 6; do
		line="$line $(awk -v c=$c '$1 == "sb" { sb[$7] = $c }
			$1 == "ib" { ib[$7] = $c }
			END { for (r in ib) if ((r in sb) && sb[r] > 0)
				printf "%.4f\n", ib[r] / sb[r] }' "$TMP/all" |
			median | awk '{ if ($1 == "-") print "-"; else printf "%.2f", $1 }')"
	done
	set -- $line
	printf '%-14s %10s %12s %12s %12s %12s\n' "round ratios" "$@"
done
