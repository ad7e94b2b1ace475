#!/bin/sh
# interbench compare: made-up result files (tests/mkresult.sh) with known
# shifts are marked better or worse by the right test, notes say what was
# ignored, and every bad input is one line naming the file, exit status 2.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

mk() { sh "$TESTS_DIR/mkresult.sh" "$@"; }

mk 0.40 5 1 >base.json
mk 0.40 5 1 >same.json
mk 0.40 5 2 >slow.json
mk 0.40 5 0.5 >fast.json
mk 0.40 5 1.005 >tiny.json
mk -s 1 0.40 5 1.05 >night.json
mk 0.40 1 1 >one.json
mk 0.40 1 2 >one-slow.json
mk 0.40 2 1 >two.json
# Audio/Burn: one ok repeat of five, the other cells five
mk -d Audio/Burn:2 -d Audio/Burn:3 -d Audio/Burn:4 -d Audio/Burn:5 \
	0.40 5 1 >one-cell.json
mk -d Audio/Burn:2 0.40 5 1 >died.json
mk -d Video/Burn:1 -d Video/Burn:2 -d Video/Burn:3 -d Video/Burn:4 \
	-d Video/Burn:5 0.40 5 1 >dead-cell.json
mk -g 0.40 5 1 >extra.json
mk -k Audio/Burn:2 0.40 5 1 >burn-slow.json
mk 0.41 5 1 >v041.json
mk -i 0.40 5 1 >ident.json
mk -i 0.40 5 1.005 >ident-0.5.json
mk -i 0.40 5 1.02 >ident-2.json
# 2000 frames a side: enough to bound the counts within a point (a
# better or unchanged cell needs its frames late and misses bounded)
mk -n 400 0.40 5 1 >base400.json
mk -n 400 0.40 5 0.5 >fast400.json
mk -n 400 -i 0.40 5 1 >ident400.json
mk -n 400 -i 0.40 5 1.02 >ident400-2.json
mk 0.40 20 1 >many.json
mk 0.40 20 1.03 >many-3.json
mk -c 0.8 0.40 5 1 >starved.json

# run 'args...': the output in out and err, the exit status in rc
run() { "$IB" compare "$@" >out 2>err; echo $? >rc; }
rc_is() {
	[ "$(cat rc)" = "$1" ] ||
		fail "exit status $(cat rc), wanted $1: $(cat err)"
}
# the table rows of cell $1: its metrics and its verdict
rows() { awk -v c="$1" '$1 == c { p = 1 } p { print } p && /=>/ { exit }' out; }

# A cell is unchanged only when every decision figure's interval lies
# within 5 %; the made-up cells' max and p99 (50 samples) are too noisy at
# 5 repeats for that: inconclusive.
test_expect_success 'identical files: nothing marked; inconclusive' '
	run base.json same.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 3 inconclusive, 0 not comparable$" &&
	rows Audio/None | grep -q "=> inconclusive" &&
	rows Audio/None | grep "p50 latency us \*  .* \[-[0-9.]*, +[0-9.]*\] .* ~$" &&
	hasnt out "worse$" && hasnt out "better$" &&
	[ ! -s err ] || fail "stderr: $(cat err)"
'

# Another night's draws, 5 % slower: cells undecided, but not for long.
test_expect_success 'an inconclusive cell says about how many repeats would decide it' '
	run --json n.json base.json night.json &&
	rows Audio/None >cell && sed -n "/=> inconclusive/,\$p" out | sed -n 2p >need &&
	# at 60 to 90 % chance: a range, or one number where they meet
	grep -q "^ *about [0-9][0-9]*\( to \(over \)\?[0-9][0-9]*\)\? repeats a file would decide it" need ||
		fail "$(cat need)"
	from=$(sed -n "s/^ *about \([0-9]*\).*/\1/p" need)
	to=$(sed -n "s/^ *about [0-9]* to \([0-9]*\).*/\1/p" need)
	[ -z "$to" ] || [ "$from" -lt "$to" ] || fail "a range upside down: $(cat need)"
	# the end says what undecided means, and the repeats the neediest
	# cell takes, as an option to give
	sed -n "/inconclusive: at this noise/,\$p" out | tr "\n" " " >end &&
	grep -q "^3 cells are inconclusive: at this noise no change past +/-5 % (1 point) could be shown, nor ruled out. What would decide them: about \([0-9]*\) repeats a file (-n \1 on both runs), or less noise: longer cells (-t), a quieter machine" end ||
		fail "$(cat end)"
	# the JSON: the range as two numbers, "about" (80 %) within it
	{ ! command -v python3 >/dev/null || python3 -c "
c = __import__(\"json\").load(open(\"n.json\"))[\"comparisons\"][0][\"cells\"][0]
r = c[\"pairs_to_decide_range\"]
assert r == [$from, ${to:-$from}], r
assert r[0] <= c[\"pairs_to_decide\"] <= r[1], c
"; } || fail "the JSON does not say the range the text says"
'

test_expect_success 'moderated by default, --plain on each cell alone; both: exit 2' '
	run base.json slow.json && has out "moderated, as limma; --plain: each on its own" &&
	run --plain base.json slow.json && rc_is 1 &&
	has out "Each test on its own cell.s spread (--plain)" &&
	run --plain --moderate base.json slow.json && rc_is 2 &&
	[ "$(wc -l <err)" = 1 ] && has err "plain and --moderate ask for opposite" &&
	[ ! -s out ]
'

test_expect_success 'the counts in JSON: what was counted, the dispersion, the bound' '
	run --json cnt.json base.json starved.json &&
	tr -d " \n" <cnt.json >flat &&
	grep -q "\"metric\":\"%deadlinesmissed\",\"unit\":\"%\",\"n_base\":5,\"n_new\":5" flat &&
	grep -q "\"test\":\"counts\",\"df\":[0-9.e+]*,\"counted_base\":[0-9]*,\"counted_new\":[0-9]*,\"frames_base\":250,\"frames_new\":250,\"dispersion\":[0-9.e+-]*,\"late_past_us\":null" flat &&
	grep -q "\"late_past_us\":[0-9.]*[1-9]" flat &&
	grep -q "\"moderated\":true" flat && grep -q "\"period_us\":null" flat &&
	grep -q "\"bounds\":true,\"within\":" flat
'

test_expect_success 'a file compared with itself: nothing marked' '
	run base.json base.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 3 inconclusive, 0 not comparable$"
'

test_expect_success 'twice the latency over 5 repeats is worse (exit 1), with its interval' '
	run base.json slow.json && rc_is 1 &&
	has out "^Summary: 0 cells better, 3 worse, 0 mixed, 0 unchanged, 0 inconclusive, 0 not comparable$" &&
	rows Audio/None >cell &&
	grep "p50 latency us \*  .* +100.0 %  \[+[0-9.]*, +[0-9.]*\] .* worse$" cell &&
	grep "mean latency us  .* +100.0 %  \[+[0-9.]*, +[0-9.]*\] .* (worse)$" cell &&
	grep "% desired CPU \* .* +0.0 pt .* ~$" cell &&
	grep "=> worse: max latency +100.0 %, p50 latency +100.0 %, p99 latency +100.0 %$" cell &&
	[ $(grep -c "=> worse" out) = 3 ] || fail "want 3 cells worse"
'

test_expect_success 'the summary: geometric mean per task and over all, with an interval' '
	run base.json slow.json &&
	has out "^  all (3 cells)  *mean latency us  *+100.0 %  \[+[0-9.]*, +[0-9.]*\]$" &&
	has out "^  Audio (2 cells)  *mean latency us " &&
	has out "^  Audio  *worse  *(2 worse)$" && has out "^  Video  *worse  *(1 worse)$"
'

test_expect_success '--threshold 10 exits 1 and names the cells' '
	run --threshold 10 base.json slow.json && rc_is 1 &&
	has out "^threshold: Audio/None p50 latency us worse by 100.0 % (> 10 %)$" &&
	has out "^threshold: Audio/Burn p50 latency us worse by 100.0 % (> 10 %)$" &&
	hasnt out "^threshold: .* mean latency"
'

test_expect_success 'options may follow the files' '
	run base.json slow.json --threshold 10 && rc_is 1 &&
	run base.json slow.json --threshold=150 && rc_is 1 && hasnt out "^threshold:" &&
	run base.json fast.json --threshold=150 && rc_is 0
'

test_expect_success '-- ends the options' '
	cp slow.json ./-slow.json &&
	run --threshold 10 -- base.json -slow.json && rc_is 1
'

test_expect_success 'half the latency is better, even with --threshold' '
	run --threshold 10 base.json fast.json && rc_is 0 &&
	rows Video/Burn | grep -q "=> inconclusive: better: .*; not yet bounded: .*% deadlines missed" &&
	run --threshold 10 base400.json fast400.json && rc_is 0 &&
	has out "^Summary: 3 cells better, 0 worse, 0 mixed, 0 unchanged, 0 inconclusive, 0 not comparable$" &&
	rows Video/Burn | grep "p50 latency us \* .* -50.0 % .* better$"
'

# The misses decide on the deadlines missed, counted run by run; % deadlines
# met bounds "unchanged" (=) and is marked in its own family.
test_expect_success 'less CPU and more deadlines missed decide the cell' '
	run --threshold 10 base.json starved.json && rc_is 1 &&
	rows Audio/Burn >cell &&
	grep "% desired CPU \* .* -19.9 pt .* worse$" cell &&
	grep "% deadlines missed \*  *1.2  *21.2 .* worse$" cell &&
	grep "% deadlines met =  *98.8  *78.8  *-20.0 pt .* (worse)$" cell &&
	grep "p50 latency us \* .* +0.0 % .* ~$" cell &&
	grep "=> worse: % desired CPU -19.9 pt, % deadlines missed +1428.6 %$" cell &&
	has out "^threshold: Audio/Burn % deadlines missed worse by 1428.6 % (> 10 %)$"
'

test_expect_success '--primary cpu judges every cell on % desired CPU' '
	run --primary cpu --threshold 10 base.json starved.json && rc_is 1 &&
	rows Audio/None >cell &&
	grep "% desired CPU \* .* -19.9 pt .* worse$" cell &&
	grep "p50 latency us  .* ~$" cell && grep "% deadlines met  .* (worse)$" cell &&
	has out "^threshold: Audio/None % desired CPU worse by 19.9 pt (> 10 pt)$" &&
	hasnt out "^threshold: .* deadlines" &&
	has out "marked \* (% desired CPU, --primary)"
'

test_expect_success 'a change below 5 % is not marked' '
	run base.json tiny.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 3 inconclusive" && has out "+0.5 %"
'

test_expect_success 'only the cell that changed is marked' '
	run --threshold 10 base.json burn-slow.json && rc_is 1 &&
	has out "^Summary: 0 cells better, 1 worse, 0 mixed, 0 unchanged, 2 inconclusive" &&
	rows Audio/Burn | grep -q "=> worse" &&
	rows Video/Burn | grep -q "=> inconclusive" &&
	rows Audio/None | grep -q "=> inconclusive" &&
	has out "^threshold: Audio/Burn " && hasnt out "^threshold: Audio/None"
'

# A CI gate on compare must not pass when nothing was judged: exit 8 and
# one line saying why.
test_expect_success 'one repeat each: values and changes, no verdict, exit 8 and why' '
	run one.json one-slow.json && rc_is 8 &&
	rows Audio/Burn | grep "mean latency us .* +100.0 %  -  *-  *-$" &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 0 inconclusive, 3 not comparable (3 too few repeats)$" &&
	has out "^A verdict on a cell needs 3 measured repeats in each file" &&
	[ $(err_lines err) = 1 ] &&
	has err "^interbench compare: no cell could be judged: each file has 1 repeat; a verdict needs 3 or more (-n 3)$"
'

test_expect_success 'one repeat against five, or two: no verdict either, exit 8 naming the short file' '
	run base.json one-slow.json && rc_is 8 &&
	hasnt out "worse$" && has out "3 too few repeats" &&
	has err "^interbench compare: no cell could be judged: one-slow.json has 1 repeat; a verdict needs 3 or more in each file (-n 3)$" &&
	run one.json two.json && rc_is 8 &&
	has err "^interbench compare: no cell could be judged: one.json has 1 repeat, two.json 2; a verdict needs 3 or more in each (-n 3)$" &&
	run base.json same.json one.json && rc_is 8 &&
	has err "^interbench compare: one.json against base.json: no cell could be judged: " &&
	run base.json one.json same.json && rc_is 8 &&
	run --bisect one.json one.json && rc_is 125 && has err "no cell could be judged"
'

test_expect_success 'some cells judged, one not: exit 0 as before, the summary counts it' '
	run base.json one-cell.json && rc_is 0 && [ ! -s err ] &&
	has out "^Audio/Burn  *mean latency" && rows Audio/Burn | grep -q "=> too few repeats" &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 2 inconclusive, 1 not comparable (1 too few repeats)$"
'

test_expect_success 'no cell in both files: exit 8, and why' '
	sed "s/\"bench\": \"[A-Za-z]*\"/\"bench\": \"X\"/" base.json >x.json &&
	run base.json x.json && rc_is 8 &&
	has err "^interbench compare: no cell could be judged: no cell was measured in both files$"
'

test_expect_success 'compare --junit: nothing judged is an error testcase, not a passing suite' '
	run --junit n.xml one.json one-slow.json && rc_is 8 &&
	has n.xml "<testsuite name=\"one-slow.json\" tests=\"4\" failures=\"0\" errors=\"1\" skipped=\"3\"" &&
	has n.xml "<testcase classname=\"interbench.compare\" name=\"verdict\" time=\"0\">" &&
	has n.xml "<error type=\"nothing decidable\" message=\"no cell could be judged: each file has 1 repeat; a verdict needs 3 or more (-n 3)\"/>" &&
	run --junit m.xml base.json one-cell.json && rc_is 0 &&
	hasnt m.xml "nothing decidable" &&
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --schema "$TESTS_DIR/junit.xsd" n.xml m.xml 2>xerr ||
			fail "not valid JUnit: $(cat xerr)"
	fi
'

# 0.5 % apart at 5 repeats: far more than -n takes would decide a cell.
test_expect_success 'a cell no -n would decide says it cannot be decided at this noise, no number' '
	run --json t.json base.json tiny.json && rc_is 0 &&
	sed -n "/=> inconclusive/{n;p}" out >need &&
	grep -q "^ *cannot be decided at this noise: it would take more than 100 repeats a file, the most -n takes$" need ||
		fail "$(cat need)" &&
	! grep -q "about [0-9]\{4,\}" out &&
	# and the end names no number of repeats, but less noise
	sed -n "/inconclusive: at this noise/,\$p" out | tr "\n" " " >end &&
	grep -q "What would decide them: less noise, not more repeats a file (over 100, the most -n takes): longer cells (-t), a quieter machine" end ||
		fail "$(cat end)" &&
	has t.json "\"undecidable\": \"cannot be decided at this noise" &&
	{ ! command -v python3 >/dev/null || python3 -c "
import json, sys
for c in json.load(open(\"t.json\"))[\"comparisons\"][0][\"cells\"]:
    assert (c[\"pairs_to_decide\"] is None) == (c[\"undecidable\"] is not None), c
    assert c[\"pairs_to_decide\"] is None or c[\"pairs_to_decide\"] <= 100, c
    r = c[\"pairs_to_decide_range\"]
    assert (r is None) == (c[\"pairs_to_decide\"] is None), c
    assert r is None or (len(r) == 2 and r[0] <= c[\"pairs_to_decide\"] and
                         (r[1] is None or c[\"pairs_to_decide\"] <= r[1])), c
"; } || fail "pairs_to_decide and undecidable disagree"
'

test_expect_success 'a repeat whose load died is noted and ignored' '
	run base.json died.json && rc_is 0 &&
	has out "^note: Audio/Burn in died.json repeat 2: load died: signal 9 \
(ignored)$" &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 3 inconclusive, 0 not comparable$"
'

test_expect_success 'a cell without an ok repeat is not comparable, and says why' '
	run base.json dead-cell.json && rc_is 0 &&
	has out "^Video/Burn  *not measured in new$" &&
	[ $(grep -c "^note: Video/Burn in dead-cell.json repeat" out) = 5 ] &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 2 inconclusive, 1 not comparable (1 not measured in new)$"
'

test_expect_success '--threshold fails a cell measured in BASE but not in NEW' '
	run --threshold 50 base.json dead-cell.json && rc_is 1 &&
	has out "^threshold: Video/Burn measured in base.json, not in dead-cell.json$"
'

# Every repeat the same: the interval is one point; only --min-change is left.
test_expect_success 'a certain change below --min-change is not marked' '
	run ident400.json ident400-2.json && rc_is 0 &&
	rows Audio/Burn | grep "mean latency us .* +2.0 %  \[+2.0, +2.0\] .* ~$" &&
	rows Audio/Burn | grep -q "=> unchanged" &&
	run --min-change 1 ident.json ident-2.json && rc_is 1 &&
	rows Audio/Burn | grep "mean latency us  .* +2.0 % .* (worse)$" &&
	rows Audio/Burn | grep "p50 latency us \* .* +2.0 % .* worse$" &&
	rows Audio/Burn | grep "=> worse: max latency +2.0 %, p50 latency +2.0 %, p99 latency +2.0 %$"
'

# 20 repeats find a 3 % shift, but its interval reaches below 5 %.
test_expect_success 'a significant change whose interval reaches below 5 % is not marked' '
	run many.json many-3.json && rc_is 0 &&
	rows Audio/Burn | grep "mean latency us .* +3.0 % .* ~$" &&
	rows Audio/Burn | grep -q "=> inconclusive" &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 3 inconclusive"
'

test_expect_success 'a cell in only one file is not comparable' '
	run base.json extra.json && rc_is 0 &&
	has out "^Gaming/None  *only in new$" &&
	has out "1 not comparable (1 only in new)"
'

test_expect_success 'null deadlines are not compared' '
	run extra.json extra.json && rc_is 0 &&
	rows Gaming/None | grep "% deadlines met  *-  *-  *-  *-  *-  *-$" &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 4 inconclusive"
'

test_expect_success 'files of another interbench version compare, with a note' '
	run base.json v041.json && rc_is 0 &&
	has out "^note: the files were written by different versions of interbench" &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 0 unchanged, 3 inconclusive"
'

test_expect_success 'three files: each against BASE, then every pair (ANOVA, Tukey-Kramer)' '
	run base.json slow.json fast.json && rc_is 1 &&
	has out "^slow.json against base.json" &&
	has out "^fast.json against base.json" &&
	has out "^All 3 files, pair by pair" &&
	has out "^  file  *n  *min  *10%  *25%  *median  *75%  *90%  *max$" &&
	has out "^  slow.json  *vs base.json  *+100.0 %  \[.*worse$" &&
	has out "^  fast.json  *vs slow.json  *-75.0 %  \[.*better$"
'

test_expect_success 'compare --json writes every row and the summary' '
	run --json c.json base.json slow.json && rc_is 1 &&
	has c.json "\"schema\": \"interbench-compare/2\"" &&
	has c.json "\"decides\": true" && has c.json "\"primary\": null" &&
	has c.json "\"p_adj\": " && has c.json "\"verdict\": \"worse\"" &&
	has c.json "\"decided_by\": \"worse: max latency +100.0 %, p50 latency" &&
	has c.json "\"task\": \"all\"" && [ ! -e c.json.tmp ] &&
	if command -v python3 >/dev/null; then
		python3 -m json.tool c.json >/dev/null || fail "not JSON"
	fi
'

test_expect_success 'compare --junit: the same verdicts, a failure per cell worse' '
	run --junit c.xml base.json slow.json && rc_is 1 &&
	has c.xml "<testsuite name=\"slow.json\" tests=\"3\" failures=\"3\" errors=\"0\" skipped=\"0\" time=\"0\">" &&
	has c.xml "<failure type=\"worse\" message=\"worse: max latency +100.0 %, p50 latency +100.0 %, p99 latency +100.0 %\"/>" &&
	has c.xml "<property name=\"verdict\" value=\"worse\"/>" &&
	run --junit s.xml base.json same.json && rc_is 0 &&
	has s.xml "tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"3\"" &&
	has s.xml "<skipped message=\"inconclusive: the data cannot decide it\"/>" &&
	run --junit d.xml base.json dead-cell.json && rc_is 0 &&
	has d.xml "<error type=\"not measured\"" &&
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --schema "$TESTS_DIR/junit.xsd" c.xml s.xml d.xml 2>xerr ||
			fail "not valid JUnit: $(cat xerr)"
	fi
'

test_expect_success 'compare --junit: an output that is an input, or two outputs one file, is refused' '
	run --junit base.json base.json slow.json && rc_is 2 &&
	[ $(wc -l <err) = 1 ] && has err "base.json is a result file to read: --junit would replace it" &&
	run --junit o.x --json o.x base.json slow.json && rc_is 2 &&
	has err "^interbench compare: --json and --junit name one file, o.x$"
'

test_expect_success 'compare --json never writes through a planted link' '
	echo precious >victim && ln -s victim c2.json &&
	run --json c2.json base.json slow.json && rc_is 1 &&
	[ "$(cat victim)" = precious ] && [ ! -L c2.json ] &&
	has c2.json "interbench-compare/2"
'

test_expect_success '--help prints usage and exits 0' '
	run --help && rc_is 0 && has out "^Usage: interbench compare"
'

test_expect_success '--min-change above the change marks nothing' '
	run --min-change 300 --min-points 5 base.json slow.json && rc_is 0 &&
	has out "^Summary: 0 cells better, 0 worse, 0 mixed, 3 unchanged"
'

# git bisect run: 0 good, 1 bad, 125 skip (the data cannot tell).
test_expect_success 'exit statuses: 0 not worse, 1 worse, --bisect 125 when undecided' '
	run base.json fast.json && rc_is 0 &&
	run base.json slow.json && rc_is 1 &&
	run --bisect base.json slow.json && rc_is 1 &&
	run base.json same.json && rc_is 0 &&
	run --bisect base.json same.json && rc_is 125 &&
	run --bisect base.json one-slow.json && rc_is 125 &&
	run --bisect --min-change 300 --min-points 5 base.json slow.json && rc_is 0
'

# bad 'description' 'what the error must say' args...
bad() {
	what=$1 needle=$2; shift 2
	run "$@"
	test_expect_success "rejects $what" '
		rc_is 2 &&
		[ $(err_lines err) = 1 ] || fail "want one line of error, got: $(cat err)"
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
mkdir -p nojson
bad 'a directory with no result file' 'nojson: a directory with no result file (\*.json) in it' \
	base.json nojson
bad 'a truncated file' 'truncated.json: line [0-9]*, column [0-9]*: ' \
	base.json truncated.json
bad 'an empty file' 'empty.json: not a result file (empty; interbench --json FILE writes those)' \
	base.json empty.json
bad 'trailing garbage' "garbage.json: line [0-9]*, column 1: .*not '}'" \
	base.json garbage.json
bad 'a wrong schema' 'schema2.json: schema is "interbench-result/2"' \
	base.json schema2.json
bad 'a missing schema' 'noschema.json: no "schema"' noschema.json base.json
bad 'a document that is not an object' 'array.json: not an interbench' \
	base.json array.json
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
bad 'an --alpha above 0.5' '--alpha' --alpha 0.9 base.json slow.json
bad 'a negative --min-change' '--min-change' --min-change -1 base.json slow.json
bad 'an unknown --primary' "option --primary: .p42. is not a figure compare tests" \
	--primary p42 base.json slow.json
bad 'an unknown option' 'unknown option --nosuch (see interbench compare --help)' \
	--nosuch base.json slow.json
# A result file may be anyone's: an escape sequence in it never reaches
# the terminal (it becomes '?'), in a name or anywhere else.
test_expect_success 'control characters in a file never reach the terminal' '
	sed "s/\"bench\": \"Audio\"/\"bench\": \"Au\\\\u001b[2Jdio\"/" base.json >esc.json &&
	grep -q "Au\\\\u001b\[2Jdio" esc.json &&
	"$IB" compare esc.json esc.json >out 2>&1 &&
	! grep -q "$(printf "\033")" out && has out "Au?\[2Jdio"
'
bad 'a device as a file' '/dev/zero: not a result file (a device)' /dev/zero base.json
mkfifo fifo
bad 'a FIFO nobody writes (no hang)' 'fifo: not a result file (empty; ' \
	fifo base.json
head -c 67108865 /dev/zero | tr "\000" " " >huge.json
bad 'a file past 64 MiB' 'huge.json: more than 64 MiB' huge.json base.json
rm -f huge.json
# Before any figure, every recorded setting that differs is listed.
test_expect_success 'compare lists first the settings recorded differently' '
	run base.json same.json &&
	[ "$(sed -n 1p out)" = "note: one file a side, and the files do not record their boot: a boot'"'"'s or a process'"'"'s own effect cannot be told from the change'"'"'s; the verdict assumes there is none (interbench study measures it: --components)" ] &&
	sed -i 1,2d out &&
	[ "$(sed -n 2p out)" = "  none: the machine and interbench'"'"'s settings were recorded the same" ] &&
	sed "s/\"cpus\": 4/\"cpus\": 2, \"autogroup\": false/; s/\"duration_s\": 1/\"duration_s\": 2/" \
		same.json >other.json &&
	run --json c.json base.json other.json &&
	sed -i 1,2d out &&
	[ "$(sed -n 1p out)" = "Settings recorded differently in base.json and other.json:" ] &&
	grep -q "^  system.cpus  *4 -> 2$" out &&
	grep -q "^  system.autogroup  *absent -> false$" out &&
	grep -q "^  settings.duration_s  *1 -> 2$" out &&
	[ $(sed -n "2,/^$/p" out | grep -c "^  ") = 3 ] &&
	grep -q "\"settings_differ\": \[" c.json &&
	grep -q "\"key\": \"settings.duration_s\"" c.json
'

# The row marks a run's console gave ([busy], [steal], [throttled],
# [no rt], [stalled]) follow their cells into compare: under the cell's
# verdict with its side and figure, counted under the summary with what
# they mean for trusting it, and in the JSON. ab's verdict is this
# function's (compare_files()) on its two files: -a makes them ab's A
# and B, compared in pairs. A mark never changes a verdict.
test_expect_success 'row marks on each cell, with side and figure, and what they mean for the verdict' '
	mk -a ab7:A:1 -I Audio/Burn:steal_pct:2.5 -R 0.40 5 1 >ma.json &&
	mk -a ab7:B:1 -I Audio/Burn:others_cpu_pct:34 \
		-I Video/Burn:cgroup_throttled_pct:3 -T Video/Burn 0.40 5 2 >mb.json &&
	mk -a ab7:B:1 0.40 5 2 >mq.json &&
	run --json mj.json --ktap mk.ktap ma.json mb.json && rc_is 1 &&
	has out "^A and B of one .interbench ab. run (id ab7)" &&
	has mk.ktap "^# marks: A steal 2.5 %, A no rt: timer +[0-9.]* us, B busy 34 %$" &&
	[ "$(grep -c "^# marks: " mk.ktap)" = 3 ] &&
	rows Audio/Burn >/dev/null &&
	[ "$(grep -c "^ *\[A " out)" = 3 ] &&
	has out "^                   \[A steal 2.5 %, A no rt: timer +[0-9.]* us, B busy 34 %\]$" &&
	has out "^                   \[A no rt: timer +[0-9.]* us, B throttled 3 %, B stalled in 5 of 5\]$" &&
	sed -n "/^Row marks: /,/\.$/p" out | tr "\n" " " >para &&
	has para "^Row marks: 3 of 3 cells compared carry row marks (A: steal 1, no rt 3; B: busy 1, throttled 1, stalled 1), 3 of them with a verdict the data gave" &&
	has para "less to be trusted than an unmarked cell.s; measure again on a quiet machine\. $" &&
	# the verdict is the one without marks
	run ma.json mq.json && grep "^Summary:" out >plain &&
	run ma.json mb.json && [ "$(grep "^Summary:" out)" = "$(cat plain)" ] &&
	{ ! command -v python3 >/dev/null || python3 - mj.json <<-\EOF; } &&
	import json, sys
	c = json.load(open(sys.argv[1]))["comparisons"][0]
	cells = {x["bench"] + "/" + x["load"]: x for x in c["cells"]}
	m = cells["Audio/Burn"]["marks"]
	assert {"side": "B", "mark": "busy", "value": 34} in m, m
	assert {"side": "A", "mark": "steal", "value": 2.5} in m, m
	assert [x["mark"] for x in cells["Audio/None"]["marks"]] == ["no_rt"]
	v = [x for x in cells["Video/Burn"]["marks"] if x["side"] == "B"]
	assert [x["mark"] for x in v] == ["throttled", "stalled"], v
	r = c["row_marks"]
	assert r["cells"] == 3 and r["base"]["no_rt"] == 3, r
	assert r["new"]["busy"] == 1 and r["new"]["steal"] == 0, r
	assert "less to be trusted" in r["note"], r
	EOF
	# no mark: not a word of them
	run base.json slow.json --json nj.json && hasnt out "Row marks" &&
	hasnt out "^ *\[[AB] " && grep -q "\"marks\": \[\]" nj.json &&
	grep -q "\"note\": null" nj.json
'

# Real files (tests/measured/: an ab run here, -t 1, 10 pairs, the loads
# at nice 19 in B): Burn's cells 70 to 95 % better in every latency
# figure, their tail too. A cell better whose other rows are known not
# worse is better, whatever they gained past the margin; one whose
# deadlines missed were 0 in both is waiting for frames, not noise.
test_expect_success 'better with its tail bounded: better, and what would decide the rest' '
	M=$TESTS_DIR/measured
	run "$M/nice19.A.json" "$M/nice19.B.json" && [ "$(cat rc)" = 0 ] &&
	grep -A16 "^Video/Burn" out | grep -q "=> better: max latency" &&
	grep -A16 "^Audio/Burn" out | grep -q "not yet bounded: % deadlines missed" &&
	grep -A17 "^Audio/Burn" out | grep -q "about [0-9]* to [0-9]* pairs would decide it" &&
	grep -q "^  Video  *better  *(1 better, 1 inconclusive)" out
'

bad 'a single file' 'need a base file' base.json
bad 'no file at all' 'need a base file'
test_done
