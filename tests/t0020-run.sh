#!/bin/sh
# Short runs of every benchmark under every load: the tables, the logfile,
# the calibration file and the load files.
. "$(dirname "$0")/lib.sh"

LOG="$(uname -r).log"

# check_table FILE BENCH LOADS...: a table for BENCH with a sane row per load
check_table() {
	f=$1 bench=$2; shift 2
	awk -v b="$bench" -v want="$*" '
		$0 == "--- Benchmarking simulated cpu of " b " in the presence of simulated ---" { in_t = 1; next }
		in_t && /^Load/ { head = $0; next }
		in_t && /^$/ { in_t = 0 }
		in_t && /^          load did:/ { next }
		in_t {
			dl = (head ~ /Deadlines/)
			n = dl ? 7 : 6
			if (NF < n || $3 != "+/-") { print "bad row: " $0; bad = 1; next }
			for (i = 2; i <= n; i++) if (i != 3 && $i !~ /^[0-9.e+-]+$/) { print "not a number: " $i " in " $0; bad = 1 }
			if ($6 < 0 || $6 > 100 || (dl && ($7 < 0 || $7 > 100))) { print "percent out of range: " $0; bad = 1 }
			if ($2 > $5 * 1.0001) { print "mean above max: " $0; bad = 1 }
			seen[$1] = 1
		}
		END {
			k = split(want, w, " ")
			for (i = 1; i <= k; i++) if (!seen[w[i]]) { print "no row for " w[i] " under " b; bad = 1 }
			exit bad
		}' "$f"
}

# The calibration is kept per machine (lib/system.h), in
# $XDG_STATE_HOME/interbench (lib.sh points it into $TRASH).
CAL="$XDG_STATE_HOME/interbench/$(uname -n).loops_per_ms"

test_expect_success 'a run without a saved calibration measures and saves it, per machine' '
	"$IB" -t 0.2 -c -W audio -w none >out 2>err &&
	sed -n 1p "$CAL" | grep -q "^[0-9][0-9]*$" &&
	[ "$(sed -n 2p "$CAL")" = "kernel $(uname -r)" ] &&
	sed -n 3p "$CAL" | grep -q "^cpu $(uname -m)" &&
	[ "$(stat -c %a "$XDG_STATE_HOME/interbench")" = 700 ] &&
	[ ! -e interbench.loops_per_ms ] &&
	has out "(measured now, saved in $CAL)" && has out "thread CPU time" &&
	check_table out Audio None
'

test_expect_success 'the busy-machine warning, as the source words it, is what err_lines leaves out' '
	sed -n "/the machine is busy: \"/,/\\\\n\",\$/p" "$TESTS_DIR/../session/session.c" |
		grep -o "\"[^\"]*\"" | sed "s/^\"//; s/\"\$//" | tr -d "\n" >fmt &&
	printf "$(cat fmt)" 50.5 2 25.91 >err && printf "$(cat fmt)" 3 2 -12.5 >>err &&
	echo "interbench: cannot write k.json: No space left on device" >>err &&
	cat err && [ $(wc -l <err) = 3 ] && [ $(err_lines err) = 1 ]
'

test_expect_success 'the saved calibration is reused in any directory, -l overrides it' '
	"$IB" -t 0.2 -c -W audio -w none >out 2>&1 &&
	has out "^Loops per ms: $(sed -n 1p "$CAL") (saved in $CAL)" &&
	mkdir -p elsewhere && (cd elsewhere && "$IB" -t 0.2 -c -W audio -w none) >out 2>&1 &&
	has out "(saved in $CAL)" && [ ! -e elsewhere/interbench.loops_per_ms ] &&
	"$IB" -t 0.2 -c -l 123456 -W audio -w none >out 2>&1 &&
	has out "Loops per ms: 123456 (from -l)"
'

test_expect_success 'a calibration of another kernel or CPU is not used' '
	cp "$CAL" saved &&
	sed "s/^kernel .*/kernel 2.6.0-other/" saved >"$CAL" &&
	"$IB" -t 0.2 -c -W audio -w none >out 2>err &&
	has err "^interbench: $CAL was measured on kernel 2.6.0-other, not this one: measuring again\$" &&
	has out "(measured now, saved in $CAL)" &&
	[ "$(sed -n 2p "$CAL")" = "kernel $(uname -r)" ] &&
	sed "s/^cpu .*/cpu z80 Zilog/" saved >"$CAL" &&
	"$IB" -t 0.2 -c -W audio -w none >out 2>err &&
	has err "was measured on CPU z80 Zilog, not this one" && has out "measured now" &&
	sed 2,3d saved >"$CAL" &&
	"$IB" -t 0.2 -c -W audio -w none >out 2>err &&
	has err "was measured on kernel (not said), not this one" && has out "measured now"
'

test_expect_success 'this directory'"'"'s interbench.loops_per_ms is used as is where it exists (as 0.31), and said' '
	mkdir -p old && echo 1234567 >old/interbench.loops_per_ms &&
	(cd old && "$IB" -t 0.2 -c -W audio -w none) >out 2>err &&
	has out "^Loops per ms: 1234567 (saved in this directory.s interbench.loops_per_ms)" &&
	(cd old && "$IB" -b -t 0.2 -c -W audio -w none) >out 2>err &&
	has out "(measured now, saved in this directory.s interbench.loops_per_ms)" &&
	grep -q "^[0-9][0-9]*$" old/interbench.loops_per_ms &&
	[ "$(cat old/interbench.loops_per_ms)" != 1234567 ] && [ $(wc -l <old/interbench.loops_per_ms) = 1 ]
'

test_expect_success 'a state directory others may write in is not saved in' '
	chmod 777 "$XDG_STATE_HOME/interbench" && cp "$CAL" saved &&
	"$IB" -b -t 0.2 -c -W audio -w none >out 2>err;
	rc=$?; chmod 700 "$XDG_STATE_HOME/interbench" && [ $rc = 0 ] &&
	has err "^interbench: warning: cannot save $CAL: $XDG_STATE_HOME/interbench is another user.s or writable by others\$" &&
	has out "(measured now, not saved)" && cmp saved "$CAL"
'

if disk_loads_ok; then
	ALL="None Video X Burn Write Read Ring Compile Memload Hack Net Fork Hell"
	NODISK=""
else
	ALL="None Video X Burn Ring Memload Hack Net Fork"
	NODISK="-x write -x read -x compile -x hell"
	test_skip 'the disk loads under every benchmark' "$DISK_WHY"
fi
except() { echo "$ALL" | tr " " "\n" | grep -vx "$1" | tr "\n" " "; }

test_expect_success 'every benchmark under every load: sane tables, a matching logfile' '
	mkdir d &&
	"$IB" -t 0.3 -C 20 -I 5000 -D d $NODISK -m "full matrix test" >out 2>err; rc=$?
	[ $rc = 0 ] || { cat out err; fail "exit status $rc"; } &&
	check_table out Audio $ALL Custom &&
	check_table out Video $(except Video) Custom &&
	check_table out X $(except X) Custom &&
	check_table out Gaming $ALL Custom &&
	check_table out Custom $ALL &&
	hasnt out "skipped" && hasnt out "died" && hasnt out "failed" &&
	[ -f "$LOG" ] &&
	has "$LOG" "^Benchmarking kernel $(uname -r) with datestamp [0-9]\{12\}" &&
	has "$LOG" "Comment: full matrix test" &&
	has "$LOG" "running every cell for 0.3 seconds" &&
	check_table "$LOG" Audio $ALL Custom &&
	# after the files are closed, stdout alone says where they went,
	# and that the log is new
	has out "^Logfile: $LOG (created)\$" &&
	if [ -z "$NODISK" ]; then
		has out "^Removed the Read load.s file d/interbench.read ([0-9.]* GiB); --keep-files keeps it for the next run\$"
	fi &&
	sed -n "/^--- Bench/,\$p" out |
		grep -v "^Logfile: \|^Removed the Read \|^interbench: [0-9]* of [0-9]* cells measured" >t.out &&
	sed -n "/^--- Bench/,\$p" "$LOG" >t.log &&
	cmp t.out t.log
'

if [ -z "$NODISK" ]; then
	test_expect_success 'load files are removed, the 1 GiB read file too' '
		ls -a d >files && [ $(wc -l <files) = 2 ] || { cat files; false; }
	'
	test_expect_success '--keep-files keeps the read file; the next run reuses it and removes it' '
		mkdir k &&
		"$IB" -t 0.2 -c -W audio -w read -D k --keep-files >out 2>err &&
		has out "^Kept for the next run.s Read load (--keep-files): k/interbench.read ([0-9.]* GiB); remove it when done: rm k/interbench.read\$" &&
		head -c 24 k/interbench.read | grep -q "^interbench read file v1" &&
		before=$(stat -c %i:%Y k/interbench.read) &&
		"$IB" -t 0.2 -c -W audio -w compile -D k --keep-files >out 2>err &&
		has out "^Kept for the next run.s Read load" &&
		[ "$(stat -c %i:%Y k/interbench.read)" = "$before" ] &&
		"$IB" -t 0.2 -c -W audio -w none -D k >out 2>err &&
		[ -f k/interbench.read ] && hasnt out "Read load" &&
		"$IB" -t 0.2 -c -W audio -w read -D k >out 2>err &&
		has out "^Removed the Read load.s file k/interbench.read" &&
		[ ! -e k/interbench.read ]
	'
	test_expect_success 'a file of another kind at the read file'"'"'s name is not removed by a run without Read' '
		echo mine >k/interbench.read &&
		"$IB" -t 0.2 -c -W audio -w burn -D k >out 2>err &&
		[ "$(cat k/interbench.read)" = mine ] && hasnt out "Read load" && rm k/interbench.read
	'
else
	test_skip 'load files are removed, the read file too' "$DISK_WHY"
fi

test_expect_success 'the logfile is appended to and says so, -c leaves it alone' '
	"$IB" -t 0.2 -W audio -w none >out 2>&1 &&
	has out "^Logfile: $LOG (appended to)\$" &&
	[ $(grep -c "^Benchmarking kernel" "$LOG") = 2 ] &&
	"$IB" -t 0.2 -c -W audio -w none >/dev/null 2>&1 &&
	[ $(grep -c "^Benchmarking kernel" "$LOG") = 2 ]
'

test_expect_success 'names are case-insensitive; -x and -X exclude' '
	"$IB" -t 0.2 -c -X AUDIO -X video -X x -w BURN -w nOnE >out 2>&1 &&
	check_table out Gaming None Burn && hasnt out "of Audio" && hasnt out "^Ring"
'

test_expect_success '-v adds percentiles and what the load did' '
	"$IB" -t 0.3 -c -v -W video -w burn >out 2>&1 &&
	has out "p50 ms *p90 ms *p99 ms *p99.9 ms" && has out "load did: .* Mloops/s"
'

test_expect_success '-u puts the benchmark and the load on CPU 0' '
	"$IB" -t 1.5 -c -u -W audio -w burn >out 2>&1 &
	pid=$! && wait_proc ib:bench:Audio 10 &&
	b=$(grep Cpus_allowed_list /proc/$(our_procs ib:bench:Audio)/status | cut -f2) &&
	l=$(grep Cpus_allowed_list /proc/$(our_procs ib:load:Burn)/status | cut -f2) &&
	wait_pid $pid 20 && [ "$rc" = 0 ] &&
	[ "$b" = 0 ] && [ "$l" = 0 ] || fail "bench on $b, load on $l, status $rc" &&
	has out "(all on CPU 0)"
'

test_expect_success '-B and -N nice the benchmarked thread and the load' '
	"$IB" -t 1.5 -c -B 3 -N 12 -W audio -w burn >out 2>&1 &
	pid=$! && wait_proc ib:bench:Audio 10 && sleep 0.3 &&
	ln=$(ps -o ni= -p $(our_procs ib:load:Burn) | tr -d " ") &&
	bn=$(for t in /proc/$(our_procs ib:bench:Audio)/task/*; do
		awk "{ print \$19 }" $t/stat; done | sort -n | tail -n 1) &&
	wait_pid $pid 20 && [ "$rc" = 0 ] &&
	[ "$ln" = 12 ] && [ "$bn" = 3 ] || fail "load nice $ln, bench thread nice $bn"
'

if command -v script >/dev/null; then
	test_expect_success 'on a terminal a progress line goes to stderr, none when not a tty' '
		script -qec "\"$IB\" -t 0.3 -c -W audio -w none -w burn" /dev/null >tty.out 2>&1 &&
		grep -q "\[1/2\] Audio under None, about [0-9]* s left" tty.out &&
		"$IB" -t 0.3 -c -W audio -w none -w burn >out 2>err && ! grep -q "s left" err
	'
else
	test_skip 'on a terminal a progress line goes to stderr' 'script(1) is not installed'
fi

if is_root; then
	test_expect_success '-r runs SCHED_FIFO with figures in microseconds' '
		"$IB" -t 0.3 -c -r -W audio -w none >out 2>&1 &&
		has out "Latency +/- SD (us)" && has out "SCHED_FIFO" &&
		check_table out Audio None
	'
else
	test_skip '-r runs SCHED_FIFO with figures in microseconds' 'not root'
fi
# The numbers are the machine's; what is asserted is that each cell's
# latency decision figures are named with their noise split in two,
# repeats at four lengths, and a conclusion line.
# Without -v a run ends on its closing line and gives no advice.
test_expect_success 'with -n 3 -v: each cell decision figures noise, split, with repeats per length' '
	"$IB" -l 1000000 -c -t 0.3 -n 3 -W audio -W x -w none >quiet 2>err &&
	hasnt quiet "Run-to-run noise" &&
	[ "$(tail -n 1 quiet)" = "interbench: 6 of 6 cells measured; exit 0 (every cell measured)" ] &&
	"$IB" -l 1000000 -c -t 0.3 -n 3 -v -W audio -W x -w none >out 2>err &&
	has out "^Run-to-run noise of each cell.s latency decision figures" &&
	has out "needs to find a 10 %$" &&
	has out "^change of it at -t 0.3, 0.6, 1.2 and 2.4:" &&
	grep -Eq "^Audio +None +p50 +[0-9.]+ % \((no split|all in the cell: its sampling alone, [0-9.]+ %, is above it| *[0-9]+ % between runs, +[0-9]+ % in the cell)\); -n [0-9>]+ [0-9>]+ [0-9>]+ [0-9>]+$" out ||
		fail "no Audio p50 line: $(cat out)"
	# the two shares add up (to 100, give or take their rounding)
	sed -n "s/.*( *\([0-9]*\) % between runs, *\([0-9]*\) % in the cell.*/\1 \2/p" out >shares &&
	while read -r b w; do
		[ $((b + w)) -ge 99 ] && [ $((b + w)) -le 101 ] ||
			fail "shares $b + $w"
	done <shares
	grep -Eq "^X +None +max +[0-9.]+ % " out &&
	grep -Eq "^Audio +None +p99 +[0-9.]+ % " out &&
	grep -Eq "^(Soonest to find a 10 % change in every cell: -t [0-9.]+ -n [0-9]+, about [0-9]+ min a file|No -t of these lets 1000 repeats)" out
'

test_expect_success '-n auto at its most names each cell still unsettled and what would settle it' '
	"$IB" -l 1000000 -c -t 0.3 -n auto:3 -W x -w none >out 2>err &&
	{ has out "^-n auto: every cell.s p50, p99 and max latency are known to 2.5 %" ||
	  { has out "^-n auto: after 3 repeats, the most asked, these cells. decision figures are$" &&
	    grep -Eq "^  X/None: (p50|p99|max) latency known to \+/-[0-9.]+ %; about [0-9]+ repeats would know it to 2.5 %$" out; }; }
'

test_done
