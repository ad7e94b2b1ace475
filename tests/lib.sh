# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - git-style helpers for interbench's shell tests, TAP output.
#
#   . "$(dirname "$0")/lib.sh"
#   test_expect_success 'what it checks' 'commands'
#   test_skip 'what' 'why'
#   test_done
#
# Each test runs in its own scratch directory ($TRASH), removed at the end.
# IB is the binary under test; tests/run sets it (default ../interbench).

IB=${IB:-$(cd "$(dirname "$0")/.." && pwd)/interbench}
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/ibtest.XXXXXX")
# Every test script has its own run lock (see lib/lock.h): the runs of one
# script still exclude each other, and test suites in two worktrees, or
# another user's runs on the machine, cannot make each other's tests fail.
# t0106-lock.sh tests the machine-wide default in a mount namespace.
INTERBENCH_LOCK=$TRASH/interbench.lock
export INTERBENCH_LOCK
# The calibration is kept per machine in $XDG_STATE_HOME/interbench
# (lib/system.h): each script keeps its own, and no test writes to the
# real home or /var/lib (t0020 and t0102-files test the defaults).
XDG_STATE_HOME=$TRASH/.state
export XDG_STATE_HOME
test_n=0
test_fail=0
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1

test_expect_success() {
	test_n=$((test_n + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_n - $1"
	else
		echo "not ok $test_n - $1"
		sed "s/^/#   /" "$TRASH/.out" | tail -n ${TEST_TAIL:-25}
		test_fail=$((test_fail + 1))
	fi
}

test_skip() {
	test_n=$((test_n + 1))
	echo "ok $test_n # skip $1: $2"
}

test_done() {
	echo "1..$test_n"
	[ "$test_fail" -eq 0 ]
}

# A run says so when the host is busy (lib/cpuwork.c's check of the burn,
# session/session.c): an honest line on stderr that a quiet machine never
# prints. A test that wants "one line of error" counts the lines of
# stderr but these (err_lines FILE), so that it holds on a busy machine
# too (make check-noisy); t0020 holds the pattern to the source's text.
BUSY_WARNING='^interbench: warning: the machine is busy: other tasks or the host held the CPU [0-9.]* % of the burn check.s time (more than [0-9.]* %), and burning CPU cost [-+][0-9.]* % of what it asks$'
err_lines() { grep -vc -- "$BUSY_WARNING" "$1"; }
# Likewise a table's row ends in "  [steal N %]" when the hypervisor took
# enough of its cell (outputs/output.c): a grep for a whole row ends in
# $STEAL_MARK$ so that it holds on a host that steals (t0070 once failed
# so on a clean CI run).
# A machine's other marks come the same way: [busy N %] when other tasks
# (make check-noisy's spinners, another suite) took the run's CPUs.
STEAL_MARK='\(  \[\(steal\|busy\) [0-9.e+]* %\]\)*'
# report says the same marks of each file on stdout (report/report.c's
# report_print_marks): a file's line, then a line a mark. unmarked FILE
# prints FILE without them, for a test that wants report's other words.
MARKS_LINES='^\(.*: [0-9]* of [0-9]* cells marked:\|  .*, marked \[\(steal\|busy\|throttled\|no rt\|stalled\)\].*\)$'
unmarked() { grep -v -- "$MARKS_LINES" "$1"; }

# measured CMD...: CMD makes an interbench run that measures. tests/run
# runs a script whose opening comment says "# tests/run: in parallel"
# beside others, and gives it IB_MEASURE_LOCK: CMD then holds that lock,
# which every measuring script holds from start to end, so that no two
# runs measure at once. Anywhere else CMD just runs. (interbench's own
# lock, INTERBENCH_LOCK, refuses rather than waits, and stays the
# script's own: our_procs finds our processes by it.)
# tests/run runs a script beside the measuring lane at nice 19; CMD
# measures at nice 0. TO_NICE0 is the nice(1) adjustment that does it
# (nice execs the command: a background run's $! is still its own).
TO_NICE0=$((0 - $(nice)))
measured() {
	if [ -n "$IB_MEASURE_LOCK" ]; then
		flock -o "$IB_MEASURE_LOCK" nice -n $TO_NICE0 "$@"
	else
		"$@"
	fi
}
# The same lock around a run started in the background (whose $! must be
# interbench's own, to signal it): measured_begin on a line of its own
# (joined by && to "RUN &", it would go to the background with the run),
# then the run as "nice -n $TO_NICE0 RUN 9>&- &" (at nice 0, and nothing
# it starts holds the lock), measured_end once it has ended. Inside a
# test body (a subshell), a failure on the way closes fd 9 and so lets
# the lock go.
measured_begin() {
	[ -z "$IB_MEASURE_LOCK" ] || { exec 9>>"$IB_MEASURE_LOCK" && flock 9; }
}
measured_end() {
	[ -z "$IB_MEASURE_LOCK" ] || exec 9>&-
}

# Helpers for assertions inside test bodies.
# Test bodies run in a subshell: fail ends the body.
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$2" "$1" || { echo "'$2' not in $1:"; cat "$1"; return 1; }; }
hasnt() { ! grep -q -- "$2" "$1" || { echo "'$2' unexpectedly in $1:"; cat "$1"; return 1; }; }
is_root() { [ "$(id -u)" = 0 ]; }
# Expect exit status $1 from the rest of the command line.
status_is() {
	want=$1; shift
	"$@"; got=$?
	[ "$got" = "$want" ] || { echo "exit status $got, wanted $want: $*"; return 1; }
}

# Our processes named $1 (a shell pattern on comm, e.g. "ib:*"), zombies
# left out: those that carry this script's INTERBENCH_LOCK in their
# environment (interbench's children inherit it). A user's own run, or
# another suite's, beside this one is never counted, stopped or killed.
our_procs() {
	ps -eo pid=,stat=,comm= | while read -r pid st comm; do
		case $st in Z*) continue ;; esac
		case $comm in $1) ;; *) continue ;; esac
		tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null |
			grep -qxF "INTERBENCH_LOCK=$INTERBENCH_LOCK" && echo "$pid"
	done
}
# Send signal $1 to our processes named $2: fails if there is none.
our_kill() {
	pids=$(our_procs "$2")
	[ -n "$pids" ] && kill -"$1" $pids
}
# Wait up to $2 seconds (default 10) for a process of ours named $1.
wait_proc() {
	i=0
	while [ -z "$(our_procs "$1")" ]; do
		i=$((i + 1)); [ $i -gt $((${2:-10} * 20)) ] && return 1
		sleep 0.05
	done
}
# Wait up to $2 seconds for pid $1 to end; its exit status goes in $rc.
wait_pid() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt $((${2:-10} * 20)) ] && return 1
		sleep 0.05
	done
	wait "$1"; rc=$?
}
# No process this script's interbench started is left (they are all
# named ib:...).
no_ib_procs() {
	sleep 0.2
	left=$(our_procs "ib:*")
	[ -z "$left" ] || { echo "processes left behind: $(ps -o pid=,stat=,comm= -p "$(echo $left | tr ' ' ,)")"; return 1; }
}
# A file the project's own JSON reader accepts as a result file (a file of
# fewer than 3 repeats is read whole, and judged nothing: exit 8).
valid_json() {
	"$IB" compare "$1" "$1" >/dev/null 2>"$TRASH/.json_err"
	case $? in
	0|8) ;;
	*) echo "$1 is not a valid result file:"; cat "$TRASH/.json_err"; return 1 ;;
	esac
}

# Can the Write and Read loads run in directory $1 (default .)? They leave
# max(10 %, 1 GiB) of the filesystem free and want a few hundred MiB more.
# A machine short of disk skips their tests (test_skip) instead of failing.
disk_loads_ok() {
	df -Pk "${1:-.}" | awk 'NR == 2 {
		keep = $2 / 10; if (keep < 1048576) keep = 1048576
		exit !($4 - keep >= 2 * 1048576) }'
}
DISK_WHY="less than 2 GiB free beyond the reserve for Write and Read"

# The culprit of the trace tests, ./ibculprit MARKER FIFO (a script's comm
# is its name): it first tells the trace who it is by writing its name to
# MARKER (its pid as the trace sees it, which is not $! inside a PID
# namespace; /dev/null if unwanted), then, run SCHED_FIFO, takes its CPU
# in bursts of 4 ms (timed with bash's EPOCHREALTIME, not counted in
# iterations, whose speed is the machine's) every 14 ms or so. A fair
# busy loop would seldom delay a simulated thread: it wakes while the
# FIFO timing thread is on the CPU and EEVDF picks the sleeper first.
# read -t on FIFO sleeps without forking, so no child shares its comm.
# CULPRIT_CPU: the CPU the benchmark and the culprit share, the last one
# we may use (CPU 1 on the 2-CPU VM; any machine has one).
make_culprit() {
	mkfifo culprit.fifo &&
	CULPRIT_CPU=$(taskset -pc $$ | sed "s/.*: //" | tr , "\n" |
		tail -n 1 | sed "s/.*-//") &&
	cat >ibculprit <<'EOF' &&
#!/bin/bash
echo ibculprit >"$1"
exec 3<>"$2"
while :; do
	end=$(( ${EPOCHREALTIME/./} + 4000 ))
	while [ ${EPOCHREALTIME/./} -lt $end ]; do :; done
	read -t 0.01 -u 3 _
done
EOF
	chmod +x ibculprit
}
