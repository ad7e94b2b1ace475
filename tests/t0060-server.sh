#!/bin/sh
# Server, the schbench-like simulator: its table row, the detail lines
# under it, its options and their errors, its JSON, and the sanitizers.
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
export ASAN_OPTIONS=exitcode=99:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1

# check_server FILE SLEEP_US LOADS...: a sane Server row and sane detail
# lines under it for every load. Detail lines are indented 10 spaces.
check_server() {
	f=$1 sleep_us=$2; shift 2
	awk -v want="$*" -v sl="$sleep_us" '
		function num(s) { sub(/[,;]$/, "", s); return s + 0 }
		# "p50 12.3, p90 ..." -> v["p50"] = 12.3
		function fields(from,   i) {
			delete v
			for (i = from; i < NF; i++)
				if ($i ~ /^(p[0-9.]+|min|max)$/)
					v[$i] = num($(i + 1))
		}
		$0 == "--- Benchmarking simulated cpu of Server in the presence of simulated ---" { in_t = 1; next }
		in_t && /^Load/ {
			if ($0 !~ /% Deadlines Met/) { print "no deadlines column: " $0; bad = 1 }
			next
		}
		in_t && /^$/ { in_t = 0 }
		!in_t { next }
		/^          wakeup latency \(us\): / {
			fields(4); wk[load] = 1
			if (!(v["p50"] >= 0) || v["min"] > v["p50"] || v["p50"] > v["max"]) { print "bad wakeup line: " $0; bad = 1 }
			next
		}
		/^          request latency \(us\): / {
			fields(4); rq[load] = 1
			if (v["p50"] < sl) { print "request p50 below its sleep: " $0; bad = 1 }
			if (v["min"] > v["p50"] || v["p50"] > v["p99"] || v["p99"] > v["max"]) { print "bad request line: " $0; bad = 1 }
			next
		}
		/^          requests per second: / {
			fields(4); rps[load] = 1
			if (!(v["p50"] > 0) || v["min"] > v["p50"] || v["p50"] > v["max"]) { print "bad RPS line: " $0; bad = 1 }
			next
		}
		/^          settings: / { set[load] = 1; next }
		/^          / { next }
		{
			load = $1
			if (NF < 7 || $3 != "+/-") { print "bad row: " $0; bad = 1; next }
			for (i = 2; i <= 7; i++) if (i != 3 && $i !~ /^[0-9.e+-]+$/) { print "not a number: " $i " in " $0; bad = 1 }
			if ($6 < 0 || $6 > 100 || $7 < 0 || $7 > 100) { print "percent out of range: " $0; bad = 1 }
			if ($2 > $5 * 1.0001) { print "mean above max: " $0; bad = 1 }
			seen[load] = 1
		}
		END {
			k = split(want, w, " ")
			for (i = 1; i <= k; i++) {
				l = w[i]
				if (!seen[l]) { print "no row for " l; bad = 1 }
				if (!wk[l] || !rq[l] || !rps[l] || !set[l]) { print "detail lines missing under " l; bad = 1 }
			}
			exit bad
		}' "$f" || { cat "$f"; return 1; }
}

test_expect_success 'a short run: a sane row and detail lines for None and Burn' '
	"$IB" -l 1000000 -t 1 -c -W server -w none -w burn >out 2>&1; rc=$?
	[ $rc = 0 ] || { cat out; fail "exit status $rc"; }
	check_server out 100 None Burn &&
	has out "settings: 1 message thread x [0-9]* workers, 256 KB footprint" &&
	hasnt out "failed" && hasnt out "timed out"
'

test_expect_success 'Server runs only when -W names it' '
	"$IB" --dry-run -t 1 -w none >out 2>&1 && hasnt out "Server" &&
	"$IB" --list >out 2>&1 && has out "Server.*schbench"
'

test_expect_success 'options: lock, threads, workers; rate_per_s and sim_options in the JSON' '
	"$IB" -l 1000000 -t 1 -c -W server -w none --server-lock \
		--server-workers 4 --server-threads 2 --server-sleep 50 \
		--json s.json >out 2>&1; rc=$?
	[ $rc = 0 ] || { cat out; fail "exit status $rc"; }
	check_server out 50 None &&
	has out "2 message threads x 4 workers, .*, per-CPU lock, 50 us sleep," &&
	valid_json s.json &&
	has s.json "\"rate_per_s\"" && has s.json "\"sim_options\"" &&
	has s.json "\"server-workers\": \"4\"" &&
	has s.json "\"server-threads\": \"2\"" && has s.json "\"server-lock\""
'

# schbench's default: the CPUs shared out among the message threads,
# rounded up (3 threads on 2 CPUs: 1 worker each; on 4: 2 each).
test_expect_success 'default workers: the CPUs shared out among message threads' '
	cpus=$(nproc) &&
	want=$(( (cpus + 2) / 3 )) &&
	"$IB" -l 1000000 -t 1 -c -W server -w none --server-threads 3 \
		>out 2>&1 || { cat out; false; } &&
	has out "3 message threads x $want workers," &&
	want=$cpus &&
	"$IB" -l 1000000 -t 1 -c -W server -w none >out 2>&1 &&
	has out "1 message thread x $want workers,"
'

test_expect_success '--server-no-lock: no lock, as schbench -L' '
	"$IB" -l 1000000 -t 1 -c -W server -w none --server-no-lock >out 2>&1 &&
	check_server out 100 None && has out ", no lock, 100 us sleep"
'

# Its rate held to the 100 asked: t0125, with nothing beside it.
test_expect_success '--server-rps 100: a sane row, the rate said' '
	"$IB" -l 1000000 -t 1 -c -W server -w none --server-rps 100 >out 2>&1 ||
		{ cat out; false; } &&
	check_server out 100 None && has out "100 requests a second"
'

# bad_opt 'description' needle args...: status 2, one line naming needle
bad_opt() {
	what=$1 needle=$2; shift 2
	"$IB" -t 1 -c -w none "$@" >out 2>err; echo $? >rc
	test_expect_success "rejects $what" '
		[ "$(cat rc)" = 2 ] || fail "exit status $(cat rc), wanted 2"
		[ $(err_lines err) = 1 ] || fail "want one line of error: $(cat err)"
		grep -q -- "^interbench: .*$needle" err ||
			fail "does not name $needle: $(cat err)"
		[ ! -s out ] || fail "stdout not empty: $(cat out)"
	'
}

bad_opt '--server-workers 0' '--server-workers' -W server --server-workers 0
bad_opt '--server-ops x' '--server-ops' -W server --server-ops x
bad_opt '--server-budget -5' '--server-budget' -W server --server-budget -5
bad_opt 'trailing garbage in --server-footprint' '--server-footprint' -W server --server-footprint 64k
bad_opt 'a budget the sleep alone misses' '--server-budget' -W server --server-sleep 2000 --server-budget 2000
bad_opt '--server-rps 0' '--server-rps' -W server --server-rps 0
bad_opt '--server-rps x' '--server-rps' -W server --server-rps x
bad_opt 'a Server option without -W server' '-W Server' --server-ops 3

for san in asan tsan; do
	if [ -x "$TOP/interbench-$san" ]; then
		test_expect_success "under $san: the short run is clean" '
			"$TOP/interbench-$san" -l 1000000 -t 1 -c -W server -w none -w burn >san.out 2>&1; rc=$?
			if [ $rc != 0 ] || grep -q "Sanitizer\|runtime error" san.out; then
				tail -n 40 san.out; fail "exit status $rc"
			fi
			grep -q "requests per second: p20" san.out || { cat san.out; false; }
		'
	else
		test_skip "under $san: the short run is clean" "no interbench-$san (make interbench-$san)"
	fi
done

# Only our own: other test runs may share the machine.
test_expect_success 'no Server process is left running' '
	sleep 0.2
	left=$(our_procs ib:bench:Server)
	[ -z "$left" ] || fail "left behind: $left"
'
# A request's cost depends on where multiply's inner loop lies (see
# server_run.c): as gcc builds it for x86-64, 48 bytes into a 64-byte line,
# straddling the next, as schbench's; not wherever other code pushes it.
if command -v objdump >/dev/null && command -v readelf >/dev/null &&
   [ "$(uname -m)" = x86_64 ] && ! readelf -p .comment "$IB" | grep -q clang; then
	test_expect_success "Server's inner loop lies as schbench's: 48 bytes into a 64-byte line" '
		objdump -d --no-show-raw-insn "$IB" >dis &&
		# "at to" of the conditional jumps of multiply, in hex
		awk "\$2 == \"<multiply>:\" { on = 1; next }
		     on && /^\$/ { exit }
		     on && \$2 ~ /^j/ && \$2 != \"jmp\" { sub(/:/, \"\", \$1); print \$1, \$3 }" \
			dis >jumps &&
		while read -r at to; do
			# the first backward jump closes the inner loop
			[ $((0x$to)) -lt $((0x$at)) ] || continue
			echo "inner loop $to-$at: $((0x$to % 64)) bytes into a line," \
				"$((0x$at + 2 - 0x$to)) bytes"
			[ $((0x$to % 64)) = 48 ] && [ $((0x$at + 2 - 0x$to)) = 25 ]
			exit
		done <jumps
		false
	'
else
	test_skip "Server's inner loop lies as schbench's" 'not gcc on x86-64, or no objdump'
fi

test_done
