#!/bin/sh
# interbench compare: made-up result files (tests/mkresult.sh) with known
# shifts are marked better or worse by the right test, notes say what was
# ignored, and every bad input is one line naming the file, exit status 2.
. "$(dirname "$0")/lib.sh"

mk() { sh "$TESTS_DIR/mkresult.sh" "$@"; }

mk 0.40 5 1 >base.json
mk 0.40 5 1 >same.json
mk 0.40 5 2 >slow.json
mk 0.40 5 0.5 >fast.json
mk 0.40 5 1.005 >tiny.json
mk 0.40 1 1 >one.json
mk 0.40 1 2 >one-slow.json
mk -d Audio/Burn:2 0.40 5 1 >died.json
mk -d Video/Burn:1 -d Video/Burn:2 -d Video/Burn:3 -d Video/Burn:4 \
	-d Video/Burn:5 0.40 5 1 >dead-cell.json
mk -g 0.40 5 1 >extra.json
mk -k Audio/Burn:2 0.40 5 1 >burn-slow.json
mk 0.41 5 1 >v041.json
mk -i 0.40 5 1 >ident.json
mk -i 0.40 5 1.005 >ident-0.5.json
mk -i 0.40 5 1.02 >ident-2.json
mk 0.40 20 1 >many.json
mk 0.40 20 1.03 >many-3.json
mk -c 0.8 0.40 5 1 >starved.json

# run 'args...': the output in out and err, the exit status in rc
run() { "$IB" compare "$@" >out 2>err; echo $? >rc; }
rc_is() {
	[ "$(cat rc)" = "$1" ] ||
		fail "exit status $(cat rc), wanted $1: $(cat err)"
}
# the table rows of cell $1: its five metrics and its verdict
rows() { grep -A5 "^$1 " out; }

test_expect_success 'identical files: nothing marked, all unchanged' '
	run base.json same.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$" &&
	hasnt out "worse$" && hasnt out "better$" &&
	{ [ $(grep -c " welch " out) = 15 ] || fail "want 15 welch rows"; } &&
	[ ! -s err ] || fail "stderr: $(cat err)"
'

test_expect_success 'a file compared with itself is unchanged' '
	run base.json base.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

test_expect_success 'twice the latency over 5 repeats is worse (welch)' '
	run base.json slow.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 3 worse, 0 unchanged$" &&
	rows Audio/None >cell &&
	grep "mean latency us .* +100.0 %  welch .* worse$" cell &&
	grep "% desired CPU .* welch .* ~$" cell &&
	[ $(grep -c "=> worse" out) = 3 ] || fail "want 3 cells worse"
'

test_expect_success '--threshold 10 exits 1 and names the cells' '
	run --threshold 10 base.json slow.json && rc_is 1 &&
	has out "^threshold: Audio/None mean latency worse by 100.0 % (> 10 %)$" &&
	has out "^threshold: Video/Burn p99 latency worse by 100.0 % (> 10 %)$" &&
	has out "^Summary: 0 cells better, 3 worse, 0 unchanged$"
'

test_expect_success '--threshold above the change exits 0' '
	run --threshold=150 base.json slow.json && rc_is 0 &&
	hasnt out "^threshold:"
'

test_expect_success 'half the latency is better, even with --threshold' '
	run --threshold 10 base.json fast.json && rc_is 0 &&
	has out "^Summary: 3 cells better, 0 worse, 0 unchanged$" &&
	rows Video/Burn | grep "p99 latency us .* -50.0 %  welch .* better$"
'

test_expect_success 'the reverse of a slow-down is better' '
	run slow.json base.json && rc_is 0 &&
	has out "^Summary: 3 cells better, 0 worse, 0 unchanged$"
'

test_expect_success 'less CPU and fewer deadlines met are worse' '
	run --threshold 10 base.json starved.json && rc_is 1 &&
	rows Audio/None >cell &&
	grep "% desired CPU .* -20.0 %  welch .* worse$" cell &&
	grep "% deadlines met .* -20.0 %  welch .* worse$" cell &&
	grep "mean latency us .* +0.0 %  welch .* ~$" cell &&
	has out "^threshold: Audio/None % desired CPU worse by 20.0 % (> 10 %)$" &&
	has out "^Summary: 0 cells better, 3 worse, 0 unchanged$"
'

test_expect_success 'more CPU and more deadlines met are better' '
	run starved.json base.json && rc_is 0 &&
	rows Video/Burn | grep "% desired CPU .* +25.0 %  welch .* better$" &&
	has out "^Summary: 3 cells better, 0 worse, 0 unchanged$"
'

test_expect_success 'a change below 1 % is never marked' '
	run base.json tiny.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$" &&
	has out "+0.5 %"
'

test_expect_success 'only the cell that changed is marked' '
	run --threshold 10 base.json burn-slow.json && rc_is 1 &&
	has out "^Summary: 0 cells better, 1 worse, 2 unchanged$" &&
	rows Audio/Burn | grep -q "=> worse" &&
	rows Audio/None | grep -q "=> unchanged" &&
	has out "^threshold: Audio/Burn " && hasnt out "^threshold: Audio/None"
'

test_expect_success 'one repeat each: latencies by mann-whitney, the rest n/a' '
	run one.json one-slow.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 3 worse, 0 unchanged$" &&
	rows Audio/Burn >cell &&
	grep "p99 latency us .* mann-whitney .* worse$" cell &&
	grep "max latency us .* n/a *-$" cell &&
	grep "% desired CPU .* n/a *-$" cell &&
	grep "% deadlines met .* n/a *-$" cell &&
	! grep -q " welch " out
'

test_expect_success 'one repeat against five: mann-whitney' '
	run base.json one-slow.json && rc_is 0 &&
	has out "mean latency us .* mann-whitney .* worse$"
'

test_expect_success 'single identical repeats are unchanged' '
	run one.json one.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

test_expect_success 'a repeat whose load died is noted and ignored' '
	run base.json died.json && rc_is 0 &&
	has out "^note: Audio/Burn in died.json repeat 2: load died: signal 9 \
(ignored)$" &&
	rows Audio/Burn | grep -q " welch " &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

test_expect_success 'a cell without an ok repeat has no valid result' '
	run base.json dead-cell.json && rc_is 0 &&
	has out "^Video/Burn  *no valid result in dead-cell.json$" &&
	[ $(grep -c "^note: Video/Burn in dead-cell.json repeat" out) = 5 ] &&
	has out "^Summary: 0 cells better, 0 worse, 2 unchanged, \
1 without a valid result$"
'

test_expect_success '--threshold fails a cell measured in BASE but not in NEW' '
	run --threshold 50 base.json dead-cell.json && rc_is 1 &&
	has out "^threshold: Video/Burn measured in base.json, not in dead-cell.json$"
'

# Every repeat the same: Welch finds any shift, only the 1 % floor is left.
test_expect_success 'a significant change below 1 % is not marked' '
	run ident.json ident-0.5.json && rc_is 0 &&
	rows Audio/Burn | grep "mean latency us .* +0.5 %  welch  *<0.0001  ~$" &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

test_expect_success 'a significant change of 2 % is marked' '
	run ident.json ident-2.json && rc_is 0 &&
	rows Audio/Burn | grep "mean latency us .* +2.0 %  welch .* worse$" &&
	has out "^Summary: 0 cells better, 3 worse, 0 unchanged$"
'

# With 20 repeats a 3 % shift of Audio/Burn is significant (p < 0.05) but
# its repeats spread over more than that: not marked.
test_expect_success 'a significant change within the noise is not marked' '
	run many.json many-3.json && rc_is 0 &&
	rows Audio/Burn |
		grep "mean latency us .* +3.0 %  welch  *0\.0[0-4][0-9]*  ~$" &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

test_expect_success 'a cell in only one file is noted' '
	run base.json extra.json && rc_is 0 &&
	has out "^note: Gaming/None only in extra.json$" &&
	run extra.json base.json && rc_is 0 &&
	has out "^note: Gaming/None only in extra.json$" &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

test_expect_success 'null deadlines are not compared' '
	run extra.json extra.json && rc_is 0 &&
	rows Gaming/None | grep "% deadlines met  *-  *-  *-  *n/a  *-$" &&
	has out "^Summary: 0 cells better, 0 worse, 4 unchanged$"
'

test_expect_success 'three files: two comparisons, a summary each' '
	run base.json slow.json fast.json && rc_is 0 &&
	has out "^slow.json against base.json" &&
	has out "^fast.json against base.json" &&
	has out "^slow.json: Summary: 0 cells better, 3 worse, 0 unchanged$" &&
	has out "^fast.json: Summary: 3 cells better, 0 worse, 0 unchanged$" &&
	[ $(grep -c "Summary:" out) = 2 ] &&
	tail -n 1 out | grep -q "^fast.json: Summary:"
'

test_expect_success '--help prints usage and exits 0' '
	run --help && rc_is 0 && has out "^Usage: interbench compare"
'

test_expect_success '--alpha changes the significance level' '
	run --alpha 1e-300 base.json slow.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 3 unchanged$"
'

# bad 'description' 'what the error must say' args...
bad() {
	what=$1 needle=$2; shift 2
	run "$@"
	test_expect_success "rejects $what" '
		rc_is 2 &&
		[ $(wc -l <err) = 1 ] || fail "want one line of error, got: $(cat err)"
		grep -q "^interbench compare: " err || fail "not prefixed: $(cat err)"
		grep -q -- "$needle" err || fail "error does not say $needle: $(cat err)"
		[ ! -s out ] || fail "stdout not empty: $(cat out)"
	'
}

head -c 2000 base.json >truncated.json
cp base.json garbage.json && echo '}' >>garbage.json
: >empty.json
sed 's/"schema": "interbench-result\/1"/"schema": "interbench-result\/2"/' \
	base.json >schema2.json
grep -v '"schema"' base.json >noschema.json
awk '/"p99"/ && !done { done = 1; next } 1' base.json >nop99.json
awk '/"bench"/ { n++ } n == 2 && /"status"/ { sub(/"ok"/, "42") } 1' \
	base.json >badstatus.json
awk '/"buckets"/ && !done { done = 1; print; getline; print "[1, 2],"; }
	1' base.json >badbucket.json
sed 's/"desired_cpu_pct": [0-9.]*/"desired_cpu_pct": "high"/' base.json \
	>cpustring.json
printf '[1, 2]\n' >array.json
printf '{"schema": "interbench-result/1", "interbench_version": "0.40"}\n' \
	>noresults.json

bad 'a missing file' 'nosuch.json: No such file' base.json nosuch.json
bad 'a missing base file' 'nosuch.json: No such file' nosuch.json base.json
bad 'a directory' '\.: Is a directory' base.json .
bad 'a truncated file' 'truncated.json: line [0-9]*, column [0-9]*: ' \
	base.json truncated.json
bad 'an empty file' 'empty.json: line 1, column 1: unexpected end of input' \
	base.json empty.json
bad 'trailing garbage' "garbage.json: line [0-9]*, column 1: .*not '}'" \
	base.json garbage.json
bad 'a wrong schema' 'schema2.json: schema is "interbench-result/2"' \
	base.json schema2.json
bad 'a missing schema' 'noschema.json: no "schema"' noschema.json base.json
bad 'a document that is not an object' 'array.json: not an interbench' \
	base.json array.json
same_version='v041.json: interbench 0.41 but base.json is 0.40: '\
'compare files of the same version'
bad 'different versions' "$same_version" base.json v041.json
bad 'a version differing in the third file' 'v041.json: interbench 0.41' \
	base.json same.json v041.json
bad 'a missing field' 'nop99.json: results\[0\].latency_us.p99 is missing' \
	base.json nop99.json
bad 'a missing results array' 'noresults.json: results is missing' \
	base.json noresults.json
bad 'a status that is not a string' \
	'badstatus.json: results\[1\].status is not a string' \
	base.json badstatus.json
bad 'a malformed bucket' \
	'badbucket.json: results\[0\].histogram.buckets\[0\] is not' \
	base.json badbucket.json
bad 'a string for a number' \
	'cpustring.json: results\[0\].desired_cpu_pct is not a number' \
	base.json cpustring.json
bad 'a non-numeric --threshold' '--threshold' \
	--threshold abc base.json slow.json
bad 'a negative --threshold' '--threshold' \
	--threshold -5 base.json slow.json
bad 'an empty --threshold' '--threshold' --threshold= base.json slow.json
bad 'a --threshold with garbage' '--threshold' \
	--threshold 10x base.json slow.json
bad 'nan as --threshold' '--threshold' \
	--threshold nan base.json slow.json
bad 'a missing --threshold value' '--threshold needs a value' --threshold
bad 'an --alpha of 0' '--alpha' --alpha 0 base.json slow.json
bad 'an --alpha above 1' '--alpha' --alpha 2 base.json slow.json
bad 'an unknown option' "unknown option '--nosuch'" \
	--nosuch base.json slow.json
bad 'a single file' 'need a base file' base.json
bad 'no file at all' 'need a base file'
test_done
