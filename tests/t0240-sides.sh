#!/bin/sh
# interbench compare with sides of several files: a directory or a comma
# list is one side; the unit of replication is the highest level at which
# the sides differ (boot, invocation, repeat), each unit's values pooled;
# a side of one boot is said once, on the console, in JSON and in JUnit.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

# A made-up file of boot $1 and process $2 (tests/mkresult.sh), the rest
# of mkresult's arguments after them.
mkb() {
	boot=$1 inv=$2; shift 2
	sh "$TESTS_DIR/mkresult.sh" "$@" |
		sed "s/\"cpus\": 4/\"cpus\": 4, \"boot_id\": \"$boot\", \"invocation\": \"$inv\"/"
}
run() { "$IB" compare "$@" >out 2>err; echo $? >rc; }
rc_is() {
	[ "$(cat rc)" = "$1" ] ||
		fail "exit status $(cat rc), wanted $1: $(cat err)"
}

mkdir A B Bslow one
for i in 1 2 3; do
	mkb a$i ia$i -s $i 0.41 3 1 >A/boot$i.json
	mkb b$i ib$i -s $((i + 10)) 0.41 3 1 >B/boot$i.json
	mkb c$i ic$i -s $((i + 20)) 0.41 3 2 >Bslow/boot$i.json
done
mkb a1 ia1 -s 1 0.41 5 1 >one/a.json
mkb b1 ib1 -s 11 0.41 5 1 >one/b.json

test_expect_success 'a directory is a side: the boot is the unit, counted once' '
	run A B &&
	rc_is 0 &&
	grep -q "^Sides: A 3 files (3 boots, 3 invocations); B 3 files (3 boots, 3 invocations)\.$" out &&
	grep -q "^They differ by boot; the unit of replication is the boot\.$" out &&
	! grep -q "one boot a side" out &&
	grep -q "^Audio/None .*n_base\|^Audio/None " out
'

test_expect_success 'a side of boots 2x slower is worse, with 3 boots a side' '
	run A Bslow --json c.json &&
	rc_is 1 &&
	grep -q "=> worse: " out &&
	grep -q "\"unit\": \"boot\"" c.json &&
	grep -q "\"one_a_side\": false" c.json &&
	grep -q "\"n_base\": 3" c.json
'

test_expect_success 'a list naming one process twice is refused' '
	run A/boot1.json,A/boot1.json B &&
	rc_is 2 && [ $(wc -l <err) = 1 ] &&
	grep -q "come from one invocation (one process): a side takes each process.s file once" err
'

test_expect_success 'a comma list is a side as its directory is' '
	run A/boot1.json,A/boot2.json,A/boot3.json B &&
	sed "s|A/boot1.json,A/boot2.json,A/boot3.json|A|g" out >list.out &&
	run A B && cmp list.out out
'

test_expect_success 'one boot a side: said once, on the console, in JSON and JUnit' '
	run one/a.json one/b.json --json c.json --junit j.xml &&
	[ $(grep -c "one boot a side" out) = 1 ] &&
	grep -q "^note: one boot a side: a boot.s own effect cannot be told from the kernel.s; the verdict assumes there is none" out &&
	grep -q "\"note\": \"one boot a side: " c.json &&
	grep -q "\"unit\": \"repeat\"" c.json &&
	grep -q "<property name=\"replication\" value=\"one boot a side: " j.xml
'

test_expect_success 'one invocation a side in one boot: said as such' '
	mkb a1 x1 -s 1 0.41 5 1 >x1.json && mkb a1 x2 -s 2 0.41 5 1 >x2.json &&
	run x1.json x2.json &&
	grep -q "^note: one invocation a side: an invocation.s own effect cannot be told from the change.s" out
'

test_expect_success 'invocations in one boot a side: the invocation is the unit' '
	mkdir -p I J &&
	for i in 1 2 3; do
		mkb z1 ii$i -s $i 0.41 3 1 >I/$i.json
		mkb z1 jj$i -s $((i + 5)) 0.41 3 1 >J/$i.json
	done &&
	run I J --json c.json &&
	grep -q "^They differ by invocation; the unit of replication is the invocation\.$" out &&
	grep -q "\"unit\": \"invocation\"" c.json && ! grep -q "^note:" out
'

test_expect_success 'a side that mixes kernels is refused' '
	sed "s/\"cpus\": 4,/\"cpus\": 4, \"release\": \"6.1\",/" A/boot1.json >mixed1.json &&
	sed "s/\"cpus\": 4,/\"cpus\": 4, \"release\": \"6.2\",/" A/boot2.json >mixed2.json &&
	run mixed1.json,mixed2.json B &&
	rc_is 2 && [ $(wc -l <err) = 1 ] &&
	grep -q "measured on different kernels: a side is one kernel" err && [ ! -s out ]
'

test_expect_success 'a directory without result files is refused' '
	mkdir -p empty && run empty B &&
	rc_is 2 && grep -q "^interbench compare: empty: a directory with no result file" err
'

test_expect_success 'an empty name in a list is refused' '
	run A/boot1.json,,A/boot2.json B &&
	rc_is 2 && grep -q "an empty name in a list of files" err
'

test_done
