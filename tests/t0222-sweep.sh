#!/bin/sh
# interbench sweep: bad input and bad sweep files are one line, exit 2,
# nothing run; the states' commands run in each block's order with their
# leaves, and every sweep ends in the base state; a candidate whose
# command fails or hangs is undone, named and dropped (exit 9) while the
# rest are judged; a need that fails skips its candidate, said; a signal
# (exit 143) and a full disk (exit 3) leave the base state and whole
# files; each state's file is one compare reads as ab's, at the
# candidates' share of alpha; -n auto drops a candidate once decided
# (a SCHED_FIFO spinner on the run's CPU, worse) while the rest go on.
# Verdicts on real runs are left to chance but for that spinner: only
# what sweep decides is asserted.
# tests/run: alone (it checks that a disturbance it plants is seen).
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
QUICK="$LPM -t 0.2 -c -W audio -w none"
TOP=$(cd "$TESTS_DIR/.." && pwd)

# every command appends its mark to cmds: B+ B- for the base, X+ X- ...
test_expect_success 'bad input: one line naming it, exit 2, nothing run, no file' '
	for bad in "" "--candidate x -n 2" "--candidate x --json j.json" \
		"--candidate x --trace" "--candidate x --fail-if \"p99>1\"" \
		"--enter \"touch ran\"" "--candidate x --candidate x" \
		"--candidate base" "--candidate sweep" "--candidate .x" \
		"--candidate \"a b\"" "--candidate x --opts \"-W video\"" \
		"--candidate x --opts bogus" "--candidate x --enter \"\"" \
		"--candidate x --enter a --enter b" "--file nonexistent" \
		"--candidate x --primary bogus" "--candidate x --ktap k" \
		"--candidate x --plain --moderate" "--candidate x --cmd-timeout 0"; do
		eval status_is 2 "\"\$IB\"" sweep $QUICK -o p \
			--base-enter "\"touch ran\"" "$bad" >out 2>err || return 1
		[ ! -s out ] && [ $(err_lines err) = 1 ] || { cat err; fail "$bad"; }
		has err "^interbench: " || return 1
		[ ! -e ran ] && ! ls p.* 2>/dev/null || fail "$bad: something ran"
	done &&
	i=0 && args="" && while [ $i -le 16 ]; do
		args="$args --candidate c$i"; i=$((i + 1)); done &&
	status_is 2 "$IB" sweep $QUICK $args >out 2>err &&
	has err "more than 16 candidates"
'

test_expect_success 'a bad sweep file: FILE:LINE: what, exit 2, nothing run' '
	printf "[a]\nenter = touch ran\n[b]\nbogus = 1\n" >f1 &&
	printf "# c\nenter = x\n" >f2 &&
	printf "[a]\nopts = -B 5\nopts = -B 6\n" >f3 &&
	printf "[a\n" >f4 &&
	printf "[a]\nenter =\n" >f5 &&
	printf "[a]\n[base]\nenter = x\n" >f6 &&
	printf "[base]\nneeds = true\n[a]\n" >f7 &&
	printf "[a]\njust words\n" >f8 &&
	printf "[a]\n[a]\n" >f9 &&
	for f in "f1:4: '"'"'bogus'"'"' is not a key" "f2:2: '"'"'enter'"'"' before any" \
	    "f3:3: a'"'"'s opts given twice" "f4:1: '"'"'\[a'"'"' is not \[NAME\]" \
	    "f5:2: enter has no value" "f6:2: \[base\] comes before" \
	    "f7:2: the base has no \"needs\"" "f8:2: '"'"'just words'"'"' is neither" \
	    "f9:2: '"'"'a'"'"' is named twice"; do
		file=${f%%:*}
		status_is 2 "$IB" sweep $QUICK --file $file -o p >out 2>err ||
			return 1
		[ $(err_lines err) = 1 ] && [ ! -s out ] &&
		has err "^interbench: $f" || return 1
		[ ! -e ran ] && ! ls p.* 2>/dev/null || fail "$file: ran"
	done
'

test_expect_success 'the shipped desktop sweep parses; --dry-run runs nothing' '
	"$IB" sweep --file "$TOP/contrib/sweeps/desktop" $QUICK -o d --dry-run \
		--base-enter "touch ran" >out 2>err &&
	[ ! -s err ] && [ ! -e ran ] && ! ls d.* 2>/dev/null &&
	has out "^  a-a  " && has out "^  harm-fifo-spinner " &&
	has out "^  nice19 .*options --load-nice 19 -> d.nice19.json$" &&
	has out "alpha 0.05 is shared by the 13 candidates (each at 0.00385, Bonferroni)" &&
	has out "a pass measures 14 states where 13 ab runs would measure 26: 0.54 of their cells; the sweep measures the cells above in each state, at most 140 cells" &&
	has out "^--dry-run: no command was run"
'

# A base with commands, a candidate that saves and restores through
# IB_SWEEP_DIR, one whose enter fails (undone by its leave, dropped),
# one whose need fails (skipped, with its why), the a-a check.
cat >sweepfile <<'EOF'
# a test sweep
[base]
enter = echo B+ >>cmds
leave = echo B- >>cmds

[keep]
enter = echo X+ >>cmds && echo saved >"$IB_SWEEP_DIR/x" && echo "$IB_SWEEP_DIR" >dir
leave = echo X- >>cmds && cat "$IB_SWEEP_DIR/x" >>restored

[broken]
enter = echo F+ >>cmds; exit 3
leave = echo F- >>cmds

[missing]
needs = test -e /nonexistent/thing
why = no such thing here
enter = echo M+ >>cmds

[a-a]
EOF
test_expect_success 'a failing candidate: undone, named, dropped, the rest judged, exit 9' '
	measured "$IB" sweep $QUICK -n 3 --file sweepfile -o s \
		--junit s.xml --html s.html >out 2>err; rc=$?
	cat out err
	[ $rc = 9 ] || fail "exit $rc"
	has out "sweep: broken.s enter command (echo F+ >>cmds; exit 3) failed: exited with status 3" &&
	has out "sweep: candidate broken dropped: its enter command failed: exited with status 3; the sweep goes on without it" &&
	has out "sweep: candidate missing skipped: no such thing here" &&
	has out "^  broken  *failed: its enter command failed" &&
	has out "^  missing  *skipped: no such thing here" &&
	grep -q "^  keep  *[a-z]" out && grep -q "^  a-a  *[a-z]" out &&
	# F+ is followed by its F-; M never entered; the last is the base
	! grep -q M+ cmds && [ $(grep -c F+ cmds) = 1 ] &&
	[ "$(grep -A1 F+ cmds | tail -n 1)" = F- ] &&
	[ "$(tail -n 1 cmds)" = B+ ] &&
	[ $(grep -c X+ cmds) = 3 ] && [ $(grep -c X- cmds) = 3 ] &&
	[ $(grep -c saved restored) = 3 ] &&
	d=$(head -n 1 dir) && [ -n "$d" ] && [ ! -e "$d" ]
'

# Each enter is followed by a leave before the next state's enter (the
# base's included): no two states are ever in force at once.
test_expect_success 'one state at a time: each enter left before the next' '
	awk "/\+\$/ { if (open != \"\") exit 1; open = substr(\$0, 1, 1); next }
	     /-\$/ { if (open != substr(\$0, 1, 1)) exit 1; open = \"\" }" cmds ||
	{ cat cmds; false; }
'

test_expect_success 'the files: a result file per state, the document, JUnit' '
	valid_json s.base.json && valid_json s.keep.json &&
	valid_json s.a-a.json && [ ! -e s.missing.json ] &&
	for f in s.base.json s.keep.json s.a-a.json; do
		[ $(grep -c "\"repeat\": [0-9]" $f) -ge 3 ] || fail "$f"
	done &&
	has s.keep.json "\"candidates\": 3" && has s.keep.json "\"sweep\": \"keep\"" &&
	has s.base.json "\"other_file\": \"s.sweep.json\"" &&
	python3 - <<-\EOF
	import json
	d = json.load(open("s.sweep.json"))
	assert d["schema"] == "interbench-sweep/1"
	assert d["candidates_judged"] == 3, d["candidates_judged"]
	c = {x["name"]: x for x in d["candidates"]}
	assert c["broken"]["status"] == "failed", c["broken"]
	assert c["missing"]["status"] == "skipped" and c["missing"]["file"] is None
	assert c["missing"]["why"] == "no such thing here"
	for n in ("keep", "a-a"):
	    assert c[n]["status"] == "judged", c[n]
	    assert c[n]["pairs"] == 3 and c[n]["page"] == "s.%s.html" % n
	    assert c[n]["verdict"] in ("better", "worse", "mixed", "unchanged", "inconclusive")
	    assert [t["task"] for t in c[n]["tasks"]] == ["Audio"]
	ds = d["design"]
	assert ds["states"] == 4 and ds["passes"] == 3
	# the base and keep, a-a 3 passes each; broken measured nothing
	assert ds["measured"] == 9 and ds["base_measured"] == 3, ds
	assert ds["ab_equivalent"] == 12, ds
	assert d["finished"] and d["interrupted"] is None
	EOF
	has s.xml "<testcase classname=\"interbench.sweep\" name=\"missing\" time=\"0\"><skipped message=\"no such thing here\"/>" && has s.xml "name=\"broken\" time=\"0\"><error type=\"command failed\"" &&
	if command -v xmllint >/dev/null; then
		xmllint --noout --schema "$TESTS_DIR/junit.xsd" s.xml
	fi &&
	[ -s s.keep.html ] && [ -s s.a-a.html ] && [ ! -e s.broken.html ]
'

test_expect_success 'compare reads a candidate'"'"'s files as ab'"'"'s, at its share of alpha' '
	"$IB" compare s.base.json s.keep.json >cmp 2>&1; rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 8 ] || { cat cmp; fail "exit $rc"; }
	has cmp "A sweep.s candidate: its 3 candidates share alpha 0.05" &&
	"$IB" compare s.base.json s.keep.json --json c.json >/dev/null 2>&1
	grep -q "\"paired\": true" c.json && grep -q "\"candidates\": 3" c.json
'

# Nightly sweeps tagged (--tag is common to the states): one candidate's
# files of each night are a series trend follows. Made-up nights here:
# keep's file, tagged and dated six ways.
test_expect_success 'trend follows a candidate over nights' '
	for i in 1 2 3 4 5 6; do
		sed "s/\"tag\": null/\"tag\": \"night$i\"/" s.keep.json \
			>n$i.keep.json || return 1
	done &&
	"$IB" trend n1.keep.json n2.keep.json n3.keep.json n4.keep.json \
		n5.keep.json n6.keep.json >tr 2>&1; rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || { cat tr; fail "exit $rc"; }
	has tr "^interbench trend: 6 files" &&
	has tr "^   6  n6.keep.json  kernel .*, tag night6,"
'

test_expect_success 'a hung command: killed at --cmd-timeout, its candidate dropped' '
	measured "$IB" sweep $QUICK -n 3 --cmd-timeout 0.5 -o h \
		--candidate hang --enter "sleep 30" --candidate a-a >out 2>&1
	rc=$?; [ $rc = 9 ] || { cat out; fail "exit $rc"; }
	has out "sweep: hang.s enter command (sleep 30) failed: still running after 0.5 s: killed" &&
	! pgrep -f "^sleep 30$"
'

test_expect_success 'a signal mid-sweep: exit 143, the base state back, files whole' '
	rm -f cmds &&
	measured_begin
	nice -n $TO_NICE0 "$IB" sweep $LPM -t 0.4 -c -W audio -w none -n 6 \
		--file sweepfile -o g >out 2>&1 9>&- &
	pid=$!
	i=0; while [ $(grep -c X+ cmds 2>/dev/null || echo 0) -lt 2 ] && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1)); done
	kill -TERM $pid
	wait_pid $pid 20; measured_end
	[ "$rc" = 143 ] || { cat out; fail "exit $rc"; }
	[ "$(tail -n 1 cmds)" = B+ ] &&
	has out "sweep stopped (signal 15)" &&
	for f in g.base.json g.keep.json g.a-a.json; do
		valid_json $f && has $f "\"interrupted\": \"signal 15\"" || return 1
	done &&
	has g.sweep.json "\"interrupted\": \"signal 15\"" &&
	d=$(head -n 1 dir) && [ ! -e "$d" ] && no_ib_procs
'

# A full disk: the states' files cannot be written whole at the end. The
# sweep measures on, says so, ends in the base state, exit 3, and what
# was whole before is left so.
if is_root && mkdir full && mount -t tmpfs -o size=24k tmpfs full 2>/dev/null; then
	test_expect_success 'a full disk: exit 3, one line a file, the base state back, files whole' '
		rm -f cmds &&
		measured "$IB" sweep $QUICK -n 3 --file sweepfile -o full/f \
			>out 2>err; rc=$?
		[ $rc = 3 ] || { cat out err; fail "exit $rc"; }
		has err "cannot write full/f\..*: No space left on device" &&
		[ "$(tail -n 1 cmds)" = B+ ] &&
		for f in full/*.json; do
			python3 -c "import json, sys; json.load(open(sys.argv[1]))" $f ||
				fail "$f is not whole"
		done
	'
	umount full
else
	test_skip 'a full disk' 'needs root and a tmpfs'
fi

# -n auto: a SCHED_FIFO spinner on the run's CPU (with -u) is decided
# at a look (3 or 5 pairs) and measured no more; the a-a candidate goes
# on, and the base with it. The spinner is the shipped desktop sweep's,
# taken from its file. Its verdict is worse, or mixed: with the CPU held
# for 0.95 s of each second, the few frames that run between start
# sooner (p50 better) while the tail is a thousand times worse; both
# fail the sweep (exit 1).
if is_root && command -v chrt >/dev/null && command -v taskset >/dev/null &&
   command -v timeout >/dev/null; then
	sed -n "/^\[harm-fifo-spinner\]/,/^leave/p" "$TOP/contrib/sweeps/desktop" >spin &&
	printf "[a-a]\n" >>spin
	test_expect_success '-n auto drops a decided candidate: the spinner, worse' '
		[ $(grep -c "^enter = \|^leave = " spin) = 2 ] &&
		measured "$IB" sweep $LPM -u -t 1 -c -W audio -w none -n auto:8 \
			-o a --file spin >out 2>&1; rc=$?
		cat out
		[ $rc = 1 ] || fail "exit $rc"
		n=$(sed -n "s/^-n auto: harm-fifo-spinner decided after \([35]\) pairs (a cell worse): not measured more\$/\1/p" out) &&
		[ -n "$n" ] && grep -q "^  harm-fifo-spinner  *\(worse\|mixed\) " out &&
		[ $(grep -c "\"repeat\": [0-9]" a.harm-fifo-spinner.json) = $n ] &&
		b=$(grep -c "\"repeat\": [0-9]" a.base.json) && [ $b -gt $n ] &&
		[ $(grep -c "\"repeat\": [0-9]" a.a-a.json) = $b ] &&
		has a.sweep.json "\"why\": \"every cell decided\"" &&
		! pgrep -f "while :; do :; done"
	'
else
	test_skip '-n auto drops a decided candidate' 'needs root, chrt, taskset, timeout'
fi

test_done
