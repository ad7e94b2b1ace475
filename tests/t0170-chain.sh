#!/bin/sh
# The chain tasks (AudioGraph, Compositor, GameFrame; simulators/chain.c):
# the set "modern", their rows, detail lines and JSON, their options and
# errors, the default matrix left as it was, the tasks as loads with the
# run's options, and a known stall (a SCHED_FIFO spinner on the CPU
# everything runs on) seen as misses of each task's kind, and not in the
# real-time AudioGraph above the spinner.
# tests/run: alone (it checks that a disturbance it plants is seen).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)

# misses FILE TASK: the misses on TASK's detail line ("... 3 xruns of 563").
misses() {
	awk -v t="$2" '
		$0 ~ "^--- Benchmarking simulated cpu of " t " " { in_t = 1; next }
		/^--- / { in_t = 0 }
		in_t && /release to done/ {
			for (i = 1; i < NF; i++)
				if ($(i + 1) ~ /^(xruns?|repeated|late)$/) { print $i; exit }
		}' "$1"
}

test_expect_success 'the set modern runs the three chain tasks, with rows, details and JSON' '
	"$IB" -c -t 1 -W modern -w None --json r.json >out 2>&1 &&
	for t in AudioGraph Compositor GameFrame; do
		has out "^--- Benchmarking simulated cpu of $t in the presence" || return 1
	done &&
	has out "wakeup by stage (us, p50/p99/max): client [0-9.]*/[0-9.]*/[0-9.]*, filter .*, device " &&
	has out "wakeup by stage (us, p50/p99/max): input .*, client .*, compose .*, scanout " &&
	has out "wakeup by stage (us, p50/p99/max): main .*, render .*, worker .*, present " &&
	has out "[0-9]* xruns\{0,1\} of [0-9]" &&
	has out "[0-9]* repeated frames\{0,1\} of [0-9]" &&
	has out "[0-9]* late frames\{0,1\} of [0-9]" &&
	[ "$(grep -c "^None  *[0-9.e+-]* +/- [0-9.e+-]*  *[0-9.e+-]*  *[0-9.]*  *[0-9.]*$STEAL_MARK$" out)" = 3 ] &&
	valid_json r.json &&
	has r.json "\"xruns\": " && has r.json "\"repeated_frames\": " &&
	has r.json "\"late_frames\": " && has r.json "\"chain_us\": {" &&
	has r.json "\"s3_p99\": " && has r.json "\"note\": \"SCHED_FIFO 88: client > filter > device\"" &&
	has r.json "\"note\": \"SCHED_OTHER nice 0: main > render+worker\( x[0-9]*\)\{0,1\} > present\""
'

test_expect_success 'a chain frame is never shorter than its work, and its counts add up' '
	"$IB" -c -t 1 -W GameFrame -w None --json g.json >out 2>&1 &&
	awk "/release to done/ { for (i = 1; i < NF; i++) if (\$i == \"p50\") { sub(/,/, \"\", \$(i+1)); print \$(i+1) } }" out >p50 &&
	p=$(cat p50) &&
	echo "GameFrame p50 release to done $p us, its path of work 3125 us" &&
	awk -v p="$p" "BEGIN { exit !(p >= 3125 * 0.95) }" &&
	m=$(misses out GameFrame) && [ -n "$m" ] &&
	n=$(awk "/release to done/ { print \$NF }" out) &&
	[ "$m" -le "$n" ]
'

test_expect_success 'the default matrix and loads are as before: no chain task unless named' '
	"$IB" --dry-run >all 2>&1 &&
	hasnt all "AudioGraph" && hasnt all "Compositor" && hasnt all "GameFrame" &&
	"$IB" --dry-run -W modern -w modern >m 2>&1 &&
	has m "Would run 6 cells" && has m "AudioGraph under GameFrame" &&
	"$IB" --list >list &&
	has list "^set   modern     AudioGraph Compositor GameFrame$" &&
	has list "^bench AudioGraph " && has list "^load  GameFrame "
'

test_expect_success 'bad chain options: one line, exit 2, nothing run' '
	status_is 2 "$IB" --graph-quantum 10 -W AudioGraph >e1 2>&1 &&
	has e1 "option --graph-quantum: 10 is out of range (16 to 8192)" &&
	status_is 2 "$IB" --graph-quantum 16 --graph-rate 768000 -W modern >e2 2>&1 &&
	has e2 "options for AudioGraph: a quantum of 16 frames at 768000 Hz is under 0.1 ms" &&
	status_is 2 "$IB" --game-workers 33 -W GameFrame >e3 2>&1 &&
	has e3 "option --game-workers: 33 is out of range (1 to 32)" &&
	status_is 2 "$IB" --compositor-hz 144 -W Audio >e4 2>&1 &&
	has e4 "options for Compositor are given but Compositor does not run (add -W Compositor or -w Compositor)" &&
	status_is 2 "$IB" -W modern -X Compositor >e5 2>&1 &&
	has e5 "options -W and -X both name benchmark .Compositor." &&
	for f in e1 e2 e3 e4 e5; do [ "$(err_lines $f)" = 1 ] || { cat $f; return 1; }; done &&
	! ls interbench.log* 2>/dev/null | grep -q .
'

# At 64 frames AudioGraph cycles 750 times a second (the default 256:
# 187.5). A busy machine makes a load drop cycles, so the bound tells 64
# from 128 (375) and more, not a quiet host from a busy one: beside
# other suites and make check-noisy it did 600 and less.
test_expect_success 'as loads they run with the run options (AudioGraph at 64 frames: 750 cycles/s)' '
	"$IB" -c -t 1 -v -W Audio -w AudioGraph -w Compositor -w GameFrame --graph-quantum 64 >out 2>&1 &&
	has out "^AudioGraph [0-9]" && has out "^Compositor [0-9]" && has out "^GameFrame  [0-9]" &&
	has out "^Load       Latency" &&
	awk "/^AudioGraph/ { a = 1; next } a && /load did:/ { print \$3; exit }" out >rate &&
	r=$(cat rate) && echo "AudioGraph load: $r frames/s" &&
	awk -v r="$r" "BEGIN { exit !(r > 750 * 0.55 && r <= 750 * 1.01) }"
'

if ! is_root || ! command -v taskset >/dev/null; then
	test_skip 'a FIFO spinner on the one CPU is seen as misses of each kind' \
		'needs root (SCHED_FIFO) and taskset'
else
	test_expect_success 'a FIFO spinner on the one CPU is seen as misses of each kind' '
		# Everything on CPU 0 (-u); a SCHED_FIFO 50 spinner there takes
		# 20 ms about every 100 ms: above the fair stages, below the
		# real-time AudioGraph (88) and the timing thread. What a host
		# takes from every priority (make check-noisy: 3 ms bursts,
		# 1 to 3 xruns each) the FIFO graph loses anyway: measured first,
		# without the spinner, and allowed for.
		"$IB" -c -u -t 3 -W AudioGraph -w None >base 2>&1 || { cat base; return 1; }
		base=$(misses base AudioGraph)
		taskset -c 0 "$TOP/tests/noise" 20 100 40 50 >noise.out 2>&1 &
		np=$!
		i=0; while ! grep -q ready noise.out && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		has noise.out "noise: ready" &&
		"$IB" -c -u -t 3 -W modern -w None >st 2>&1 &&
		"$IB" -c -u -t 3 -W AudioGraph --graph-fair -w None >fair 2>&1
		rc=$?
		kill $np 2>/dev/null; wait $np 2>/dev/null
		[ $rc = 0 ] || { cat st fair; return 1; }
		rt=$(misses st AudioGraph) co=$(misses st Compositor)
		ga=$(misses st GameFrame) fa=$(misses fair AudioGraph)
		echo "xruns $rt (FIFO 88; $base without the spinner), $fa (fair);" \
			"repeated frames $co; late frames $ga"
		# About 30 stalls of 20 ms in 3 s: each costs the fair graph
		# about four quanta, Compositor a vblank, GameFrame two frames.
		[ "$fa" -ge 20 ] && [ "$co" -ge 8 ] && [ "$ga" -ge 8 ] &&
		[ "$rt" -le $((base + fa / 4)) ]
	'
fi

test_expect_success 'nothing is left running' 'no_ib_procs'

test_done
