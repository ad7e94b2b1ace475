#!/bin/sh
# --ktap FILE (- standard output): KTAP version 1 for kernel test runners,
# from a real run, from compare on made-up files (tests/mkresult.sh) and
# from ab. Read by a real TAP consumer, perl's TAP::Parser (what prove
# runs on): the top level as it is (TAP::Parser takes "KTAP version 1"
# for an unknown line, as TAP allows unknown lines, and the indented
# subtests likewise), with the right counts of passed, failed and skipped
# and no parse error; each indented subtest block, de-indented, as a
# document of its own; a parent not ok when a subtest failed. With -, the
# console is on stderr and stdout holds the document alone.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
mk() { sh "$TESTS_DIR/mkresult.sh" "$@"; }

if ! perl -MTAP::Parser -e 1 2>/dev/null; then
	test_skip 'KTAP read by TAP::Parser' 'perl is not installed (TAP::Parser)'
	test_done
	exit 0
fi

# ktap.pl FILE: every line one of KTAP's four kinds at a multiple of four
# spaces; each level parsed by TAP::Parser. Prints the top level's counts
# (passed counts the skipped, as TAP::Parser does), the blocks' and the
# errors; exit 1 on any error.
cat >ktap.pl <<'EOF'
use strict;
use warnings;
use TAP::Parser;

open(my $fh, '<', $ARGV[0]) or die "$ARGV[0]: $!\n";
my @lines = map { chomp; $_ } <$fh>;
my ($errors, $blocks, $blockfail) = (0, 0, 0);

sub error { print "error: @_\n"; $errors++; }

for (@lines) {
	error("not a KTAP line: '$_'") unless
	    /^(?: {4})*(?:KTAP version 1|1\.\.\d+|(?:not )?ok \d+(?: [^#]+)?(?: # .*)?|# .*)$/;
}

# The document at depth d in lines [from, to): its TAP::Parser.
sub level {
	my ($from, $to, $d) = @_;
	my $ind = ' ' x (4 * $d);
	my (@doc, $i);

	error("line " . ($from + 1) . " is no KTAP version line")
	    unless $lines[$from] eq "${ind}KTAP version 1";
	for ($i = $from; $i < $to; ) {
		if ($lines[$i] =~ /^$ind    /) {
			my $s = $i;
			$i++ while $i < $to && $lines[$i] =~ /^$ind    /;
			my $p = level($s, $i, $d + 1);
			$blocks++;
			$blockfail++ if $p->failed;
			# the parent's result line: the next at this depth
			my $j = $i;
			$j++ while $j < $to && $lines[$j] =~ /^$ind# /;
			if ($j >= $to || $lines[$j] !~ /^$ind(not )?ok /) {
				error("no result line after the block at " . ($s + 1));
			} elsif ($p->failed && !$1) {
				error("line " . ($j + 1) . " is ok, a subtest failed");
			}
			next;
		}
		push @doc, substr($lines[$i], length $ind);
		$i++;
	}
	my $p = TAP::Parser->new({ tap => join("\n", @doc) . "\n" });
	1 while $p->next;
	error("depth $d at " . ($from + 1) . ": $_") for $p->parse_errors;
	error("depth $d at " . ($from + 1) . ": planned " .
	      ($p->tests_planned // 'none') . ", ran " . $p->tests_run)
	    unless ($p->tests_planned // -1) == $p->tests_run;
	return $p;
}

my $p = level(0, scalar @lines, 0);
printf "plan=%s run=%d passed=%d failed=%d skipped=%d\n",
    $p->tests_planned // 'none', $p->tests_run, scalar $p->passed,
    scalar $p->failed, scalar $p->skipped;
printf "blocks=%d blockfailed=%d errors=%d\n", $blocks, $blockfail, $errors;
exit($errors ? 1 : 0);
EOF

# check FILE 'top counts' 'block counts': ktap.pl's two lines are these
check() {
	perl ktap.pl "$1" >chk || { cat chk; fail "$1 is not valid KTAP"; }
	[ "$(sed -n 1p chk)" = "$2" ] || fail "$1: $(sed -n 1p chk), wanted $2"
	[ "$(sed -n 2p chk)" = "$3 errors=0" ] ||
		fail "$1: $(sed -n 2p chk), wanted $3"
}

test_expect_success 'the checker catches a broken plan, indent and bubbling' '
	printf "KTAP version 1\n1..1\n    KTAP version 1\n    1..2\n    ok 1 a\n    not ok 2 b\nok 1 c\n" >bad1 &&
	! perl ktap.pl bad1 >o && has o "line 7 is ok, a subtest failed" &&
	printf "KTAP version 1\n1..2\nok 1 a\n" >bad2 &&
	! perl ktap.pl bad2 >o && has o "planned 2, ran 1" &&
	printf "KTAP version 1\n1..1\n  ok 1 a\nok 1 b\n" >bad3 &&
	! perl ktap.pl bad3 >o && has o "not a KTAP line"
'

test_expect_success '--ktap -: a run with gates, the document alone on stdout' '
	"$IB" $LPM -n 2 -t 0.3 -c -W audio -W video -w none -w burn \
		--fail-if "p99>=0ns" --fail-if "max>100s" --ktap - >k.tap 2>err
	rc=$?; [ $rc = 1 ] || { cat err; fail "exit status $rc, wanted 1"; }
	[ "$(head -n 1 k.tap)" = "KTAP version 1" ] &&
	[ "$(sed -n 2p k.tap)" = "1..4" ] &&
	has err "^Benchmarking kernel" && has err "^FAILED --fail-if" &&
	hasnt k.tap "Benchmarking" && hasnt k.tap "^Logfile"
'

test_expect_success 'TAP::Parser: 4 cells failed, a block of 2 gates each, 1 failed' '
	check k.tap "plan=4 run=4 passed=0 failed=4 skipped=0" \
		"blocks=4 blockfailed=4" &&
	[ $(grep -c "^    not ok 1 fail-if p99>=0ns$" k.tap) = 4 ] &&
	[ $(grep -c "^    ok 2 fail-if max>100s$" k.tap) = 4 ] &&
	has k.tap "^not ok 1 Audio/None # 1 of 2 --fail-if gates broken$" &&
	has k.tap "^not ok 4 Video/Burn # 1 of 2 --fail-if gates broken$"
'

test_expect_success 'the figures and the console'"'"'s gate lines are diagnostic lines' '
	[ $(grep -c "^# latency mean [0-9.]* us, p99 [0-9.]* us, max [0-9.]* us$" k.tap) = 4 ] &&
	[ $(grep -c "^# deadlines met [0-9.]* %, desired CPU [0-9.]* %$" k.tap) = 4 ] &&
	[ $(grep -c "^# repeats measured 2 of 2$" k.tap) = 4 ] &&
	[ $(grep -c "^    # max latency [0-9.]* us$" k.tap) = 4 ] &&
	line=$(grep "^FAILED --fail-if .p99>=0ns.: Audio under None has" err |
		sed "s/^FAILED //") &&
	grep -qxF "    # $line" k.tap || fail "no diagnostic says: $line"
'

test_expect_success 'a passing run into a file: every cell ok, no subtests without gates' '
	"$IB" $LPM -t 0.3 -c -W audio -w none -w burn --ktap p.tap >out 2>&1 &&
	check p.tap "plan=2 run=2 passed=2 failed=0 skipped=0" \
		"blocks=0 blockfailed=0" &&
	has p.tap "^ok 1 Audio/None$" && has p.tap "^ok 2 Audio/Burn$" &&
	has out "^Benchmarking kernel" && [ ! -e p.tap.tmp ]
'

test_expect_success 'whole after every cell; cells not reached skipped, with why' '
	"$IB" $LPM -t 1 -c -W audio -w none -w burn -w ring --ktap i.tap >out 2>&1 &
	pid=$! && i=0 &&
	while ! grep -q "^ok 1 Audio/None$" i.tap 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "no cell after 10 s"; sleep 0.05
	done &&
	cp i.tap mid.tap && kill -INT $pid && wait_pid $pid 10 && [ $rc = 130 ] &&
	# a cell measured, the rest not yet
	perl ktap.pl mid.tap >chk && has chk "^plan=3 run=3 passed=3 failed=0 skipped=[12]$" &&
	has mid.tap "^ok 3 Audio/Ring # SKIP not measured yet$" &&
	perl ktap.pl i.tap >chk && has chk "^plan=3 run=3 passed=3 failed=0 skipped=[12]$" &&
	has i.tap "^ok 3 Audio/Ring # SKIP not measured: the run ended first, signal 2$" &&
	has i.tap "^# interrupted: signal 2$"
'

test_expect_success '--ktap refused up front: a directory not writable, a clash' '
	status_is 2 "$IB" $LPM -t 0.3 -c --ktap /nonexistent/k.tap >out 2>err &&
	has err "^interbench: option --ktap: cannot write" &&
	status_is 2 "$IB" $LPM -t 0.3 -c --ktap x.out --junit x.out >out 2>err &&
	has err "^interbench: options --junit and --ktap name one file, x.out$"
'

mk 0.40 5 1 >base.json
mk 0.40 5 1 >same.json
mk -k Audio/Burn:2 0.40 5 1 >burn-slow.json
mk -d Video/Burn:1 -d Video/Burn:2 -d Video/Burn:3 -d Video/Burn:4 \
	-d Video/Burn:5 0.40 5 1 >dead-cell.json
mk 0.40 1 1 >one.json
mk 0.40 1 2 >one-slow.json

test_expect_success 'compare --ktap -: the worse cell not ok, exit 1 as compare documents' '
	"$IB" compare --ktap - base.json burn-slow.json >c.tap 2>err
	rc=$?; [ $rc = 1 ] || { cat err; fail "exit status $rc, wanted 1"; }
	check c.tap "plan=3 run=3 passed=2 failed=1 skipped=0" \
		"blocks=3 blockfailed=1" &&
	has c.tap "^not ok 2 Audio/Burn # worse$" &&
	has c.tap "^# worse: max latency +100.0 %, p50 latency +100.0 %, p99 latency +100.0 %$" &&
	has c.tap "^    not ok 2 p50 latency # worse$" &&
	has c.tap "^ok 1 Audio/None # \(inconclusive\|unchanged\)$" &&
	has err "^ *=> worse: max latency +100.0 %" && hasnt c.tap "=>"
'

test_expect_success 'compare --ktap FILE: unchanged or inconclusive is ok, said; a lost cell not ok' '
	"$IB" compare --ktap s.tap base.json same.json >out 2>err &&
	check s.tap "plan=3 run=3 passed=3 failed=0 skipped=0" \
		"blocks=3 blockfailed=0" &&
	[ $(grep -c "^ok [1-3] [A-Za-z]*/[A-Za-z]* # \(inconclusive\|unchanged\)$" s.tap) = 3 ] &&
	has out "=> " &&
	"$IB" compare --ktap d.tap base.json dead-cell.json >out 2>err &&
	perl ktap.pl d.tap >chk && has chk "^plan=3 run=3 passed=2 failed=1 skipped=0$" &&
	has d.tap "^not ok 3 Video/Burn # ERROR measured in BASE, not in NEW$"
'

test_expect_success 'compare --ktap: nothing judged is skipped cells and a failed verdict, exit 8' '
	status_is 8 "$IB" compare --ktap u.tap one.json one-slow.json >out 2>err &&
	check u.tap "plan=4 run=4 passed=3 failed=1 skipped=3" \
		"blocks=0 blockfailed=0" &&
	has u.tap "^ok 1 Audio/None # SKIP too few repeats$" &&
	has u.tap "^not ok 4 verdict # ERROR nothing decidable$"
'

test_expect_success 'compare --ktap: an output that is an input, or two outputs one file, refused' '
	status_is 2 "$IB" compare --ktap base.json base.json same.json >out 2>err &&
	has err "base.json is a result file to read: --ktap would replace it" &&
	status_is 2 "$IB" compare --ktap o.x --junit o.x base.json same.json >out 2>err &&
	has err "^interbench compare: --junit and --ktap name one file, o.x$"
'

test_expect_success 'ab --ktap -: the verdict alone on stdout, ab'"'"'s console on stderr' '
	"$IB" ab $LPM -t 0.2 -c -W audio -w none -n 3 -o ab --ktap - >a.tap 2>err
	rc=$?; case $rc in 0|1|125) ;; *) cat err; fail "exit status $rc" ;; esac
	[ "$(head -n 1 a.tap)" = "KTAP version 1" ] &&
	check a.tap "$(perl ktap.pl a.tap | sed -n 1p)" "blocks=1 blockfailed=$([ $rc = 1 ] && echo 1 || echo 0)" &&
	has a.tap "^1..1$" && has a.tap "^\(not \)\{0,1\}ok 1 Audio/None # " &&
	has a.tap "^# ab.B.json against ab.A.json: " &&
	has err "Audio/None" && [ -s ab.A.json ] && [ -s ab.B.json ]
'

test_expect_success 'nothing was left running' 'no_ib_procs'
test_done
