#!/bin/sh
# Test farms: the LAVA test definition and its results script on a real
# run's JSON, with a stand-in for lava-test-case; the Phoronix Test Suite
# profile: well-formed XML, its menus name real tasks and loads, and its
# result templates read our real output the way PTS reads it.
# tests/run: in parallel (each real run through measured, lib.sh)
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
LAVA=$TOP/contrib/lava
PTS=$TOP/contrib/pts/interbench-1.1.0
LPM="-l 1000000"

# A stand-in for LAVA's lava-test-case: records its arguments, a line a call.
mkdir bin && cat >bin/lava-test-case <<'FAKE'
#!/bin/sh
echo "$*" >>"$CASES"
FAKE
chmod +x bin/lava-test-case
CASES=$TRASH/cases
export CASES

test_expect_success 'LAVA: every cell is a test case with its measurements' '
	measured "$IB" $LPM -t 0.3 -c -W audio -W gaming -w none -w burn --json r.json \
		--fail-if "max>10s" >out 2>&1; echo $? >st
	: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" r.json out "$(cat st)" &&
	for c in Audio-None Audio-Burn Gaming-None Gaming-Burn; do
		has "$CASES" "^$c --result pass$" &&
		has "$CASES" "^$c-mean-latency --result pass --measurement [0-9.e+-]* --units us$" &&
		has "$CASES" "^$c-p99-latency --result pass --measurement [0-9.e+-]* --units us$" &&
		has "$CASES" "^$c-max-latency --result pass --measurement [0-9.e+-]* --units us$" &&
		has "$CASES" "^$c-desired-cpu --result pass --measurement [0-9.e+-]* --units %$" || return 1
	done
	has "$CASES" "^Audio-Burn-deadlines-met --result pass --measurement [0-9.]* --units %$" &&
	hasnt "$CASES" "^Gaming-None-deadlines-met" &&
	has "$CASES" "^interbench-run --result pass --measurement 0 --units exit-status$"
'

test_expect_success 'LAVA: the measurements are the JSON'"'"'s' '
	p99=$(sed -n "/\"load\": \"Burn\"/,/timer_latency_us/p" r.json |
		grep -m 1 "\"p99\":" | grep -o "[0-9.e+-]*,\?$" | tr -d ,) &&
	has "$CASES" "^Audio-Burn-p99-latency --result pass --measurement $p99 --units us$"
'

test_expect_success 'LAVA: a cell breaking a gate fails, and so does the run' '
	measured "$IB" $LPM -t 0.3 -c -W audio -w none --fail-if "p50>=0ns" --json g.json >out 2>&1; echo $? >st
	: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" g.json out "$(cat st)" &&
	has "$CASES" "^Audio-None --result fail$" &&
	has "$CASES" "^interbench-run --result fail --measurement 1 "
'

if unshare -n true 2>/dev/null; then
	test_expect_success 'LAVA: a cell not measured fails, without measurements' '
		measured unshare -n "$IB" $LPM -t 0.3 -c -W audio -w net --json n.json >out 2>&1
		: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" n.json &&
		has "$CASES" "^Audio-Net --result fail$" && hasnt "$CASES" "Audio-Net-p99"
	'
else
	test_skip 'LAVA: a cell not measured fails' 'cannot make a network namespace'
fi

test_expect_success 'LAVA: repeats are cases of their own' '
	measured "$IB" $LPM -n 2 -t 0.2 -c -W audio -w none --json n2.json >out 2>&1 &&
	: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" n2.json &&
	has "$CASES" "^Audio-None-r1 --result pass$" && has "$CASES" "^Audio-None-r2 --result pass$"
'

test_expect_success 'LAVA: without lava-test-case the calls are printed' '
	"$LAVA/lava-results.sh" r.json >printed && has printed "^lava-test-case Audio-None --result pass$"
'

test_expect_success 'LAVA: the test definition'"'"'s steps run (make stood in for)' '
	# The steps as LAVA runs them: one shell, from the repository root,
	# the params as variables (a smaller matrix here).
	mkdir repo repo/contrib && cp -R "$LAVA" repo/contrib/ && cp "$IB" repo/interbench &&
	printf "#!/bin/sh\nexit 0\n" >bin/make && chmod +x bin/make &&
	awk "/^run:/ { run = 1 } run && /^    - / { sub(/^    - /, \"\"); print }" \
		"$LAVA/interbench.yaml" >repo/steps.sh &&
	[ $(wc -l <repo/steps.sh) -ge 3 ] &&
	grep -q "^  GATES: \"-n 3 --fail-if p90>20ms@2 " "$LAVA/interbench.yaml" &&
	: >"$CASES" &&
	(cd repo && PATH=$TRASH/bin:$PATH TIME=0.2 BENCHES="-W audio" LOADS="-w none -w burn" \
		GATES="--fail-if max>10s" EXTRA="$LPM" measured sh -e steps.sh) >steps.out 2>&1 ||
		{ cat steps.out; false; }
	has "$CASES" "^Audio-Burn --result pass$" && has "$CASES" "^interbench-run --result pass" &&
	[ -s repo/interbench.xml ]
'

# Each state a cell can be in, against the script: a row the host stole
# from (steal_marked, as the table marks it) is reported like any other.
test_expect_success 'LAVA: a cell marked for steal is a case with its measurements' '
	sed "0,/\"steal_marked\": false/s//\"steal_marked\": true/" r.json >stolen.json &&
	grep -q "\"steal_marked\": true" stolen.json &&
	: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" stolen.json &&
	has "$CASES" "^Audio-None --result pass$" &&
	has "$CASES" "^Audio-None-p99-latency --result pass --measurement [0-9.e+-]* --units us$"
'
if is_root && mkdir ltiny && mount -t tmpfs -o size=16m tmpfs ltiny 2>/dev/null; then
	test_expect_success 'LAVA: a skipped cell is a skipped case' '
		measured "$IB" $LPM -t 0.3 -c -W audio -w write -D ltiny --json s.json >out 2>&1
		: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" s.json &&
		has "$CASES" "^Audio-Write --result skip$" && hasnt "$CASES" "Audio-Write-p99"
	'
	umount ltiny
else
	test_skip 'LAVA: a skipped cell is a skipped case' 'needs root to mount a small tmpfs'
fi

# LAVA's own helper (Debian's lava-dispatcher), deployed as LAVA deploys
# it: an interpreter line, lava-common-functions beside it on PATH, and
# LAVA_RESULT_DIR. It prints the signals the dispatcher reads.
LTS=/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell
if [ -f "$LTS/lava-test-case" ] && [ -f "$LTS/lava-common-functions" ]; then
	mkdir lts && { echo "#!/bin/sh"; cat "$LTS/lava-test-case"; } >lts/lava-test-case &&
		cp "$LTS/lava-common-functions" lts/ && chmod +x lts/lava-test-case
	test_expect_success 'LAVA (its real lava-test-case): every state of a cell signalled' '
		for j in r stolen; do
			mkdir -p "res-$j" &&
			LAVA_RESULT_DIR=$TRASH/res-$j PATH=$TRASH/lts:$PATH \
				"$LAVA/lava-results.sh" $j.json /dev/null 0 >sig-$j ||
				{ cat sig-$j; return 1; }
		done
		has sig-r "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=Audio-None RESULT=pass>$" &&
		has sig-r "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=Audio-Burn-p99-latency RESULT=pass UNITS=us MEASUREMENT=[0-9.e+-]*>$" &&
		has sig-r "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=interbench-run RESULT=pass UNITS=exit-status MEASUREMENT=0>$" &&
		[ "$(cat res-r/results/Audio-Burn-p99-latency/units)" = us ] &&
		[ "$(cat res-r/results/Gaming-None/result)" = pass ] &&
		has sig-stolen "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=Audio-None-mean-latency RESULT=pass UNITS=us MEASUREMENT=" &&
		if [ -s s.json ]; then
			LAVA_RESULT_DIR=$TRASH/res-s PATH=$TRASH/lts:$PATH \
				"$LAVA/lava-results.sh" s.json >sig-s &&
			has sig-s "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=Audio-Write RESULT=skip>$"
		fi &&
		if [ -s n.json ]; then
			LAVA_RESULT_DIR=$TRASH/res-n PATH=$TRASH/lts:$PATH \
				"$LAVA/lava-results.sh" n.json >sig-n &&
			has sig-n "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=Audio-Net RESULT=fail>$"
		fi
	'
else
	test_skip 'LAVA (its real lava-test-case)' 'lava-dispatcher is not installed (apt-get install lava-dispatcher)'
fi

if command -v python3 >/dev/null 2>&1 && python3 -c "import yaml" 2>/dev/null; then
	test_expect_success 'LAVA: the test definition is YAML with what LAVA needs' '
		python3 -c "
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d[\"metadata\"][\"format\"] == \"Lava-Test Test Definition 1.0\"
assert d[\"metadata\"][\"name\"] and d[\"metadata\"][\"description\"]
assert all(isinstance(v, str) for v in d[\"params\"].values())
assert len(d[\"run\"][\"steps\"]) >= 3
" "$LAVA/interbench.yaml"
	'
else
	test_skip 'LAVA: the test definition is YAML' 'no python3 with the yaml module'
fi

if command -v xmllint >/dev/null 2>&1; then
	test_expect_success 'PTS: the profile'"'"'s XML is well-formed (xmllint)' '
		xmllint --noout "$PTS/test-definition.xml" "$PTS/results-definition.xml"
	'
else
	test_skip 'PTS: the profile'"'"'s XML is well-formed' "xmllint is not installed (apt-get install libxml2-utils)"
fi

test_expect_success 'PTS: its menus name interbench'"'"'s tasks and loads' '
	"$IB" --list >list &&
	sed -n "/<Identifier>task</,/<\/Option>/p" "$PTS/test-definition.xml" |
		grep -o "<Value>[^<]*" | cut -c8- >tasks &&
	sed -n "/<Identifier>load</,/<\/Option>/p" "$PTS/test-definition.xml" |
		grep -o "<Value>[^<]*" | cut -c8- >loads &&
	[ $(wc -l <tasks) -ge 4 ] && [ $(wc -l <loads) -ge 10 ] &&
	while read -r t; do has list "^bench  *$t "; done <tasks &&
	while read -r l; do has list "^load  *$l "; done <loads
'

# What PTS does with a ResultsParser that has a LineHint
# (pts_test_result_parser.php, parse_result_process_entry): the last line
# of the output holding the hint, spaces squeezed, split on spaces; the
# result is the word at the place #_RESULT_# has in the template, and
# must be a number. Prints "description|value" per parser matching the
# arguments (MatchToTestArguments), "description|NO MATCH ..." if none.
pts_parse() {
	awk -v args="$2" '
	function tag(t,   s) { s = $0; sub(".*<" t ">", "", s); sub("</" t ">.*", "", s); return s }
	FNR == 1 { file++ }
	file == 1 && /<OutputTemplate>/ { tpl = tag("OutputTemplate") }
	file == 1 && /<MatchToTestArguments>/ { match_args = tag("MatchToTestArguments") }
	file == 1 && /<LineHint>/ { hint = tag("LineHint") }
	file == 1 && /<AppendToArgumentsDescription>/ { desc = tag("AppendToArgumentsDescription") }
	file == 1 && /<\/ResultsParser>/ {
		if (index(args, match_args)) { n++; T[n] = tpl; H[n] = hint; D[n] = desc }
		tpl = match_args = hint = desc = ""
	}
	file == 2 { L[++nl] = $0 }
	END {
		for (i = 1; i <= n; i++) {
			at = 0
			for (k = 1; k <= nl; k++) if (index(L[k], H[i])) at = k
			nt = split(T[i], tw, " "); nw = split(L[at], w, " ")
			for (k = 1; k <= nt; k++) if (tw[k] == "#_RESULT_#") pos = k
			ok = at && w[pos] ~ /^[0-9.]+(e[-+]?[0-9]+)?$/
			print D[i] "|" (ok ? w[pos] : "NO MATCH in: " L[at])
		}
	}' "$PTS/results-definition.xml" "$1"
}

# The wrapper as PTS runs it, from pts/: LOG_FILE, HOME (for the exit
# status file), the arguments; $1 names the log. Its exit status file
# is left in $1.status.
pts_run() {
	log=$1; shift
	(cd pts && LOG_FILE=$TRASH/pts/$log HOME=$TRASH/pts measured ./interbench "$@" &&
		cp test-exit-status "$TRASH/$log.status")
}
# The parsed figures agree with the CSV's row (ms = us / 1000).
pts_agree() {
	csv=pts/interbench-src/pts-result.csv
	mean=$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		{ printf \"%.6g\", \$c[\"latency_mean_us\"] / 1000 }" "$csv") &&
	grep -q "^Mean Latency|$mean\$" "$1" || { echo "mean $mean not in:"; cat "$1"; return 1; }
}

if [ -n "$(command -v make)" ] && [ -n "$(command -v cc)" ]; then
	test_expect_success 'PTS: install.sh builds interbench and writes the wrapper' '
		mkdir pts && cd pts &&
		MAKEFLAGS=-j$(nproc) INTERBENCH_SRC=$TOP sh "$PTS/install.sh" >install.out 2>&1 ||
			{ tail -n 20 install.out; false; }
		[ -x interbench ] && [ -x interbench-src/interbench ]
	'
	for cell in "Audio Burn" "Video None" "X Ring" "Gaming Burn"; do
		set -- $cell
		test_expect_success "PTS: the parsers read every figure of $1 under $2 from a real run" '
			args="-t 0.5 -W '$1' -w '$2'" &&
			pts_run log $args && [ "$(cat log.status)" = 0 ] || { cat pts/log; false; }
			pts_parse pts/log "$args" >parsed && cat parsed &&
			n=$(wc -l <parsed) && { [ $n = 5 ] || { [ '$1' = Gaming ] && [ $n = 4 ]; }; } &&
			hasnt parsed "NO MATCH" &&
			has parsed "^Mean Latency|" && has parsed "^p99 Latency|" &&
			has parsed "^Max Latency|" && has parsed "^Desired CPU|" &&
			pts_agree parsed
		'
	done
	# Each state a row of the human table can be in, against the parsers.
	test_expect_success 'PTS: a row marked [steal N %] (or with a note) parses the same' '
		args="-t 0.5 -W Audio -w None" &&
		pts_run log $args && pts_parse pts/log "$args" >plain &&
		hasnt plain "NO MATCH" &&
		sed "/^None /s/\$/  [steal 3.7 %]  [2 of 3 ok; mean 0.1-0.2]/" pts/log >pts/marked &&
		grep -q "^None .*\[steal 3.7 %\]" pts/marked &&
		pts_parse pts/marked "$args" >marked && cmp plain marked
	'
	if unshare -n true 2>/dev/null; then
		test_expect_success 'PTS: a cell whose load failed gives no figure and fails' '
			args="-t 0.3 -W Audio -w Net" &&
			measured unshare -n sh -c "cd pts && LOG_FILE=$TRASH/pts/log HOME=$TRASH/pts ./interbench $args" &&
			[ "$(cat pts/test-exit-status)" = 4 ] &&
			has pts/log "^interbench-cell: load failed" && hasnt pts/log "^interbench-result:" &&
			pts_parse pts/log "$args" >parsed && [ "$(grep -c "NO MATCH" parsed)" = 5 ]
		'
	else
		test_skip 'PTS: a cell whose load failed gives no figure' 'cannot make a network namespace'
	fi
	if is_root && mkdir tiny && mount -t tmpfs -o size=16m tmpfs tiny 2>/dev/null; then
		test_expect_success 'PTS: a skipped cell gives no figure and fails' '
			args="-t 0.3 -W Audio -w Write" &&
			pts_run log $args -D "$TRASH/tiny" &&
			[ "$(cat log.status)" = 4 ] &&
			has pts/log "^interbench-cell: skipped" && hasnt pts/log "^interbench-result:"
		'
		umount tiny
	else
		test_skip 'PTS: a skipped cell gives no figure' 'needs root to mount a small tmpfs'
	fi
else
	test_skip 'PTS: install.sh builds interbench' 'no make or cc'
fi

# The real Phoronix Test Suite, where one is installed (PTS is PHP; it
# is no Debian package: set PTS_CMD to a checkout's phoronix-test-suite).
PTS_BIN=${PTS_CMD:-$(command -v phoronix-test-suite)}
if [ -n "$PTS_BIN" ] && [ -x "$PTS_BIN" ] && command -v php >/dev/null 2>&1; then
	test_expect_success 'PTS (the real one): installs the profile and reads every figure' '
		export PTS_USER_PATH_OVERRIDE=$TRASH/ptsuser/ HOME=$TRASH/ptshome &&
		mkdir -p "$PTS_USER_PATH_OVERRIDE/test-profiles/local" "$HOME" &&
		cp -R "$PTS" "$PTS_USER_PATH_OVERRIDE/test-profiles/local/" &&
		printf "y\nn\nn\nn\nn\nn\nn\n" | "$PTS_BIN" batch-setup >setup.out 2>&1 &&
		INTERBENCH_SRC=$TOP "$PTS_BIN" batch-install local/interbench-1.1.0 >inst.out 2>&1 &&
		FORCE_TIMES_TO_RUN=1 TEST_RESULTS_NAME=ibtest TEST_RESULTS_IDENTIFIER=t \
			TEST_RESULTS_DESCRIPTION=t PRESET_OPTIONS="interbench.task=Audio;interbench.load=None" \
			measured timeout 300 "$PTS_BIN" batch-benchmark local/interbench-1.1.0 >run.out 2>&1
		for f in "Mean Latency" "p99 Latency" "Max Latency" "Desired CPU" "Deadlines Met"; do
			grep -A1 "Task: Audio - Background Load: None - $f:" run.out |
				tail -n 1 | grep -q "^ *[0-9.]*$" || { tail -n 30 run.out; return 1; }
		done
	'
else
	test_skip 'PTS (the real one)' 'no phoronix-test-suite (set PTS_CMD to one) or no php'
fi

test_expect_success 'nothing was left running' 'no_ib_procs'
test_done
