#!/bin/sh
# Test farms: the LAVA test definition and its results script on a real
# run's JSON, with a stand-in for lava-test-case; the Phoronix Test Suite
# profile: well-formed XML, its menus name real tasks and loads, and its
# result templates read our real output the way PTS reads it.
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
	"$IB" $LPM -t 0.3 -c -W audio -W gaming -w none -w burn --json r.json \
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
	"$IB" $LPM -t 0.3 -c -W audio -w none --fail-if "p50>=0ns" --json g.json >out 2>&1; echo $? >st
	: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" g.json out "$(cat st)" &&
	has "$CASES" "^Audio-None --result fail$" &&
	has "$CASES" "^interbench-run --result fail --measurement 1 "
'

if unshare -n true 2>/dev/null; then
	test_expect_success 'LAVA: a cell not measured fails, without measurements' '
		unshare -n "$IB" $LPM -t 0.3 -c -W audio -w net --json n.json >out 2>&1
		: >"$CASES" && PATH=$TRASH/bin:$PATH "$LAVA/lava-results.sh" n.json &&
		has "$CASES" "^Audio-Net --result fail$" && hasnt "$CASES" "Audio-Net-p99"
	'
else
	test_skip 'LAVA: a cell not measured fails' 'cannot make a network namespace'
fi

test_expect_success 'LAVA: repeats are cases of their own' '
	"$IB" $LPM -n 2 -t 0.2 -c -W audio -w none --json n2.json >out 2>&1 &&
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
	grep -q "^  GATES: \"--fail-if" "$LAVA/interbench.yaml" &&
	: >"$CASES" &&
	(cd repo && PATH=$TRASH/bin:$PATH TIME=0.2 BENCHES="-W audio" LOADS="-w none -w burn" \
		GATES="--fail-if max>10s" EXTRA="$LPM" sh -e steps.sh) >steps.out 2>&1 ||
		{ cat steps.out; false; }
	has "$CASES" "^Audio-Burn --result pass$" && has "$CASES" "^interbench-run --result pass" &&
	[ -s repo/interbench.xml ]
'

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

# What PTS does with a ResultsParser (pts_test_result_parser): the line
# after the last one holding LineBeforeHint, spaces squeezed, split on
# spaces; the result is the word at the place #_RESULT_# has in the
# template. Prints "description value" per parser matching the arguments.
pts_parse() {
	awk -v args="$2" '
	function tag(t,   s) { s = $0; sub(".*<" t ">", "", s); sub("</" t ">.*", "", s); return s }
	FNR == 1 { file++ }
	file == 1 && /<OutputTemplate>/ { tpl = tag("OutputTemplate") }
	file == 1 && /<MatchToTestArguments>/ { match_args = tag("MatchToTestArguments") }
	file == 1 && /<LineBeforeHint>/ { hint = tag("LineBeforeHint") }
	file == 1 && /<AppendToArgumentsDescription>/ { desc = tag("AppendToArgumentsDescription") }
	file == 1 && /<\/ResultsParser>/ {
		gsub(/&lt;/, "<", hint); gsub(/&gt;/, ">", hint)
		if (index(args, match_args)) { n++; T[n] = tpl; H[n] = hint; D[n] = desc }
		tpl = match_args = hint = desc = ""
	}
	file == 2 { L[++nl] = $0 }
	END {
		for (i = 1; i <= n; i++) {
			at = 0
			for (k = 1; k <= nl; k++) if (index(L[k], H[i])) at = k
			nt = split(T[i], tw, " "); nw = split(L[at + 1], w, " ")
			for (k = 1; k <= nt; k++) if (tw[k] == "#_RESULT_#") pos = k
			ok = at && nw == nt && w[3] == tw[3] && w[pos] ~ /^[0-9.]+$/
			print D[i] "|" (ok ? w[pos] : "NO MATCH in: " L[at + 1])
		}
	}' "$PTS/results-definition.xml" "$1"
}

if [ -n "$(command -v make)" ] && [ -n "$(command -v cc)" ]; then
	test_expect_success 'PTS: install.sh builds interbench and writes the wrapper' '
		mkdir pts && cd pts &&
		INTERBENCH_SRC=$TOP sh "$PTS/install.sh" >install.out 2>&1 ||
			{ tail -n 20 install.out; false; }
		[ -x interbench ] && [ -x interbench-src/interbench ]
	'
	for cell in "Audio Burn" "Video None" "X Ring" "Gaming Burn"; do
		set -- $cell
		test_expect_success "PTS: the templates read every figure of $1 under $2 from a real run" '
			cd pts && args="-t 0.5 -W '$1' -w '$2'" &&
			LOG_FILE=$TRASH/pts/log HOME=$TRASH/pts ./interbench $args &&
			[ "$(cat test-exit-status)" = 0 ] || { cat log; false; }
			pts_parse log "$args" >parsed && cat parsed &&
			n=$(wc -l <parsed) && { [ $n = 5 ] || { [ '$1' = Gaming ] && [ $n = 4 ]; }; } &&
			hasnt parsed "NO MATCH" &&
			has parsed "^Mean Latency|" && has parsed "^p99 Latency|" &&
			has parsed "^Max Latency|" && has parsed "^Desired CPU|"
		'
	done
else
	test_skip 'PTS: install.sh builds interbench' 'no make or cc'
fi

test_expect_success 'nothing was left running' 'no_ib_procs'
test_done
