#!/bin/sh
# --junit FILE: JUnit XML for CI servers from a real run. Well-formed and
# in the structure Jenkins and GitLab read (tests/junit.xsd, with xmllint
# where installed); a testsuite per task, a testcase per cell with every
# figure of the table as a property; --fail-if breaches as failures,
# cells not measured as errors or skipped; whole after every cell.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
XSD=$TESTS_DIR/junit.xsd
HAVE_XMLLINT=
command -v xmllint >/dev/null 2>&1 && HAVE_XMLLINT=1
NO_XMLLINT="xmllint is not installed (apt-get install libxml2-utils)"

# Attribute $2 of the first element $1 in file $3.
attr() { grep -o "<$1 [^>]*" "$3" | head -n 1 | grep -o " $2=\"[^\"]*\"" | cut -d\" -f2; }

test_expect_success 'a run with repeats and gates writes its JUnit file' '
	"$IB" $LPM -n 2 -t 0.3 -c -W audio -W gaming -w none -w burn \
		--fail-if "p99>=0ns" --junit j.xml --csv j.csv >out 2>&1
	rc=$?; [ $rc = 1 ] || { cat out; fail "exit status $rc, wanted 1"; }
	[ -s j.xml ] && head -n 1 j.xml | grep -q "^<?xml version=\"1.0\" encoding=\"UTF-8\"?>$"
'

if [ -n "$HAVE_XMLLINT" ]; then
	test_expect_success 'it is well-formed XML (xmllint)' 'xmllint --noout j.xml'
	test_expect_success 'it has the structure Jenkins and GitLab read (tests/junit.xsd)' '
		xmllint --noout --schema "$XSD" j.xml
	'
else
	test_skip 'it is well-formed XML' "$NO_XMLLINT"
	test_skip 'it has the structure Jenkins and GitLab read' "$NO_XMLLINT"
fi

test_expect_success 'a testsuite per task, a testcase per cell over its repeats' '
	[ $(grep -c "<testsuite " j.xml) = 2 ] &&
	has j.xml "<testsuite name=\"Audio\" tests=\"2\"" &&
	has j.xml "<testsuite name=\"Gaming\" tests=\"2\"" &&
	[ $(grep -c "<testcase " j.xml) = 4 ] &&
	has j.xml "<testcase classname=\"interbench.Audio\" name=\"Burn\" time=\"0.600\">" &&
	[ $(grep -c "name=\"repeats\" value=\"2\"" j.xml) = 4 ] &&
	[ "$(attr testsuites tests j.xml)" = 4 ]
'

test_expect_success 'every figure of the table is a property (the CSV columns, from the same table)' '
	head -n 1 j.csv | tr , "\n" | sed -n "5,\$p" | grep -v "_per_s$" >cols &&
	[ $(wc -l <cols) -ge 20 ] &&
	sed -n "/name=\"Burn\"/,/<\/testcase>/p" j.xml | head -n 80 >burn.xml &&
	while read -r c; do
		case $c in deadlines_met_pct) continue ;; esac
		has burn.xml "<property name=\"$c\" value=\"[0-9.e+-]*\"/>"
	done <cols &&
	has burn.xml "name=\"load_burn_loops_per_s\" value=\"[1-9]" &&
	has burn.xml "name=\"deadlines_met_pct\""
'

test_expect_success 'the figures are the medians the tables show' '
	# the p99 gate printed the row value in ms; the property is in us
	v=$(grep "^FAILED --fail-if .p99>=0ns.: Audio under None has" out |
		sed "s/.* has \([0-9.e+-]*\) ms.*/\1/") &&
	p=$(sed -n "/classname=\"interbench.Audio\" name=\"None\"/,/<\/testcase>/p" j.xml |
		grep -o "name=\"latency_p99_us\" value=\"[^\"]*\"" | cut -d\" -f4) &&
	awk -v v="$v" -v p="$p" "BEGIN { d = v * 1000 - p; if (d < 0) d = -d
		exit !(d <= 0.001 * p + 0.001) }" || fail "table $v ms, JUnit $p us"
'

test_expect_success '--fail-if breaches are failures, said as the console says them' '
	[ $(grep -c "<failure type=\"fail-if\" message=\"--fail-if &apos;p99&gt;=0ns&apos;: [A-Za-z]* under [A-Za-z]* has [0-9.e+-]* ms[^\"]*\"" j.xml) = 4 ] &&
	[ "$(attr testsuites failures j.xml)" = 4 ] && [ "$(attr testsuites errors j.xml)" = 0 ] &&
	# one unit per figure: the same words and number as the console
	line=$(grep "^FAILED --fail-if .p99>=0ns.: Audio under None has" out |
		sed "s/^FAILED //; s/&/\&amp;/g; s/'"'"'/\&apos;/g; s/>/\&gt;/g") &&
	grep -qF "message=\"$line\"" j.xml || fail "no failure says: $line"
'

test_expect_success 'a passing run has no failures and the run described on each suite' '
	"$IB" $LPM -t 0.3 -c -W audio -w none --fail-if "max>10s" --junit p.xml -m "a <comment> & \"more\"" >out 2>&1 &&
	[ "$(attr testsuites failures p.xml)" = 0 ] && hasnt p.xml "<failure" &&
	has p.xml "name=\"interbench_version\" value=\"[0-9]" &&
	has p.xml "name=\"kernel\" value=\"$(uname -r)\"" &&
	has p.xml "a &lt;comment&gt; &amp; &quot;more&quot;" &&
	has p.xml "name=\"finished\" value=\"20"
'

if [ -n "$HAVE_XMLLINT" ]; then
	test_expect_success 'bytes that are not UTF-8 or XML in the command line are replaced' '
		"$IB" $LPM -t 0.2 -c -W audio -w none --junit u.xml \
			-m "$(printf "bad \377\376 ctl \033 ok \303\251")" >out 2>&1 &&
		xmllint --noout --schema "$XSD" u.xml && has u.xml "bad ?? ctl ? ok é"
	'
else
	test_skip 'bytes that are not UTF-8 or XML are replaced' "$NO_XMLLINT"
fi

if unshare -n true 2>/dev/null; then
	test_expect_success 'a cell whose load failed is an error, with why' '
		unshare -n "$IB" $LPM -t 0.3 -c -W audio -w net -w none --junit e.xml >out 2>&1
		rc=$?; [ $rc = 4 ] || fail "exit status $rc, wanted 4"
		has e.xml "<error message=\"load failed: no loopback network" &&
		[ "$(attr testsuites errors e.xml)" = 1 ] &&
		{ [ -z "$HAVE_XMLLINT" ] || xmllint --noout --schema "$XSD" e.xml; }
	'
else
	test_skip 'a cell whose load failed is an error' 'cannot make a network namespace'
fi

if is_root && mkdir tiny && mount -t tmpfs -o size=16m tmpfs tiny 2>/dev/null; then
	test_expect_success 'a skipped cell is skipped, with why' '
		"$IB" $LPM -t 0.3 -c -W audio -w write -w none -D tiny --junit s.xml >out 2>&1
		rc=$?; [ $rc = 4 ] || fail "exit status $rc, wanted 4"
		has s.xml "<skipped message=\"skipped: .*space" &&
		[ "$(attr testsuites skipped s.xml)" = 1 ] &&
		{ [ -z "$HAVE_XMLLINT" ] || xmllint --noout --schema "$XSD" s.xml; }
	'
	umount tiny
else
	test_skip 'a skipped cell is skipped' 'needs root to mount a small tmpfs'
fi

test_expect_success 'the file is whole after every cell, and says an interrupted run was' '
	"$IB" $LPM -t 1 -c -W audio -w none -w burn -w ring --junit i.xml >out 2>&1 &
	pid=$! && i=0 &&
	while ! grep -q "<testcase " i.xml 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "no testcase after 10 s"; sleep 0.05
	done &&
	{ [ -z "$HAVE_XMLLINT" ] || xmllint --noout --schema "$XSD" i.xml; } &&
	tail -n 1 i.xml | grep -q "^</testsuites>$" &&
	kill -INT $pid && wait_pid $pid 10 && [ $rc = 130 ] &&
	has i.xml "name=\"interrupted\" value=\"signal 2\"" &&
	{ [ -z "$HAVE_XMLLINT" ] || xmllint --noout --schema "$XSD" i.xml; }
'

test_expect_success '--junit into a directory that cannot be written is refused first' '
	status_is 2 "$IB" $LPM -t 0.3 -c --junit /nonexistent/j.xml >out 2>err &&
	has err "^interbench: option --junit: cannot write"
'
test_expect_success 'nothing was left running' 'no_ib_procs'
test_done
