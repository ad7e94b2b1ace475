#!/bin/sh
# interbench study: made-up result files (tests/mkresult.sh) labelled with
# their boot and invocation; each file's SCALE moves all its latencies
# together (an invocation's effect), -s draws its repeats anew. What the
# files hold is said; invocations that differ hold most of p50's
# variance, files drawn alike none (estimated below 0, said, saved as 0);
# two boots give a boot column; --save writes a file comp_load reads;
# every bad input is one line, exit 2.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

mk() { sh "$TESTS_DIR/mkresult.sh" -H host1 -K 6.1 "$@"; }

# one boot, six invocations 0.8 to 1.25 times each other
mkdir one two same
i=0
for sc in 1 1.25 0.8 1.1 0.9 1.2; do
	i=$((i + 1))
	mk -b bootA -v inv$i -s $i 0.41 4 "$sc" >one/r$i.json
	# two boots of three invocations each
	b=bootA
	[ $i -gt 3 ] && b=bootB
	mk -b $b -v inv$i -s $i 0.41 4 "$sc" >two/r$i.json
	# every invocation the same draws: no invocation effect at all
	mk -b bootA -v inv$i -s 7 0.41 4 1 >same/r$i.json
done

run() { "$IB" study "$@" >out 2>err; echo $? >rc; }
rc_is() {
	[ "$(cat rc)" = "$1" ] ||
		fail "exit status $(cat rc), wanted $1: $(cat err)"
}

test_expect_success '--help: its usage and options' '
	"$IB" study --help >help &&
	has help "^Usage: interbench study \[options\] FILE|DIR" &&
	has help "--boot-cost SECONDS" && has help "--save FILE" &&
	"$IB" --help | grep -q "interbench study \[options\]"
'

test_expect_success 'one boot: what the files hold, invocations matter' '
	run one && rc_is 0 &&
	has out "^interbench study: 6 files of kernel 6.1 on host1" &&
	has out "^  1 boot, 6 invocations (6 in boot bootA), 3 cells of -t 1$" &&
	has out "^  4 repeats a cell an invocation, 72 measured in all$" &&
	has out "^One boot: boots not measured" &&
	has out "a boot 120 s (assumed: --boot-cost SECONDS)" &&
	grep "^Audio/None  p50 latency us  *- " out >p50 &&
	inv=$(awk "{ print \$6 }" p50) &&
	awk -v v="$inv" "BEGIN { exit !(v > 80) }" ||
		fail "the invocations hold $inv % of p50: $(cat p50)" &&
	has out "^=> .* a side finds 5 % in [0-9]* of [0-9]* figures" &&
	[ ! -s err ] || fail "stderr: $(cat err)"
'

test_expect_success 'a design is costed from -t, the stamps, --boot-cost' '
	run one --boot-cost 600 --change 20 && rc_is 0 &&
	has out "a boot 600 s (--boot-cost)" &&
	has out "of a cell 1.1 s (-t, the load.s 0.1 s settle), of the table 3.3 s" &&
	has out "an invocation.s own 46.8 s (finished - started less its cells, median of 6)" &&
	grep "^Audio/None  p50 latency us .* 1 x [0-9]* x [0-9]* *[0-9.]*$" out
'

test_expect_success 'files drawn alike: below 0, said, saved as 0 with a note' '
	run same --save same.comp && rc_is 0 &&
	has out "^Wrote same.comp (the variance components, for compare --components)$" &&
	grep "^Audio/None  p50 latency us  *-  *-[0-9.]*\*" out &&
	has out "^\* estimated below 0" &&
	grep -q "\"note\": \"invocation estimated -" same.comp &&
	"$TESTS_DIR/unit-components" load same.comp >loaded ||
		fail "comp_load refused it: $(cat loaded)" &&
	has loaded "^Audio/None p50 latency us: boot nan invocation 0 repeat " &&
	has loaded "entries from 2026-11-22T02:40:00Z on host1$"
'

test_expect_success 'two boots: a boot column, designs over boots' '
	run two/r1.json two/r2.json two/r3.json two/r4.json two/r5.json \
		two/r6.json --save two.comp && rc_is 0 &&
	has out "^  2 boots, 6 invocations (3 in boot bootA, 3 in boot bootB)" &&
	hasnt out "^One boot" &&
	grep "^Audio/None  p50 latency us  *-\?[0-9.]*\*\? " out &&
	"$TESTS_DIR/unit-components" load two.comp >loaded &&
	! grep -q "boot nan" loaded
'

bad() {
	run "$@" && rc_is 2 &&
	[ "$(err_lines err)" = 1 ] || fail "not one line: $(cat err)"
}

test_expect_success 'bad inputs: one line each, exit 2' '
	bad && has err "no file given" &&
	echo "not json" >text.json && bad one/r1.json text.json &&
	has err "text.json: not a result file" &&
	bad one/r1.json && has err "one invocation: a study needs two" &&
	mk -b bootA -v inv9 -K 6.2 0.41 4 1 >k2.json && bad one/r1.json k2.json &&
	has err "k2.json is kernel 6.2, one/r1.json 6.1: a study measures one kernel on one host" &&
	mk -b bootA -v inv9 -H host2 0.41 4 1 >h2.json && bad one/r1.json h2.json &&
	has err "h2.json is host host2" &&
	sh "$TESTS_DIR/mkresult.sh" 0.41 4 1 >old.json &&
	bad one/r1.json old.json && has err "old.json: no system.boot_id" &&
	bad one/r1.json one/r1.json && has err "are one invocation" &&
	mkdir empty && bad empty && has err "empty: no \*.json in it" &&
	bad one --save one/r1.json && has err "is a result file to read" &&
	bad one --power 2 && has err "power"
'

test_done
