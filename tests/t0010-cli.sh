#!/bin/sh
# The command line: every bad value is one line naming the option, exit
# status 2, and nothing is started (no logfile, no calibration, no files).
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

# bad_args 'description' option-substring args... (a bad value that
# slipped through would start a run: the timeout keeps that from hanging)
bad_args() {
	what=$1 needle=$2; shift 2
	mkdir -p run && (cd run && rm -rf ./* && timeout 30 "$IB" "$@" >../out 2>../err; echo $? >../rc)
	test_expect_success "rejects $what" '
		[ "$(cat rc)" = 2 ] || fail "exit status $(cat rc), wanted 2"
		[ $(err_lines err) = 1 ] || fail "want one line of error, got: $(cat err)"
		grep -q "^interbench: " err || fail "error not prefixed: $(cat err)"
		grep -q -- "$needle" err || fail "error does not name $needle: $(cat err)"
		[ ! -s out ] || fail "stdout not empty: $(cat out)"
		[ -z "$(ls run)" ] || fail "files were made: $(ls run)"
	'
}

bad_args 'a non-numeric -t' '-t' -t abc
bad_args 'trailing garbage in -t' '-t' -t 1x
bad_args 'an empty -t' '-t' -t ''
bad_args 'a negative -t' '-t' -t -1
bad_args 'a zero -t' '-t' -t 0
bad_args 'a huge -t' '-t' -t 1e300
bad_args 'nan as -t' '-t' -t nan
bad_args 'a zero -L' '-L' -L 0
bad_args 'an overflowing -L' '-L' -L 99999999999999999999999
bad_args 'a non-numeric -L' '-L' -L two
bad_args 'a -B above 19' '-B' -B 20
bad_args 'a -N below -20' '-N' -N -21
bad_args 'a -N with a space' '-N' -N ' 1'
bad_args 'a zero -l' '-l' -l 0
bad_args '-l with -b' '-l and -b' -l 1000 -b
bad_args 'a -C above 100' '-C' -C 101 -I 1000
bad_args '-C without -I' '-C' -C 50
bad_args '-I without -C' '-I' -I 1000
bad_args 'a -I too short' '-I' -C 10 -I 5
bad_args 'an unknown load' 'nosuch' -w nosuch
bad_args 'an unknown excluded load' 'nosuch' -x nosuch
bad_args 'an unknown benchmark' 'nosuch' -W nosuch
bad_args 'an unknown excluded benchmark' 'nosuch' -X nosuch
bad_args 'a load both wanted and excluded' 'Burn' -w burn -x Burn
bad_args 'a bench both wanted and excluded' 'Audio' -W audio -X AUDIO
bad_args 'excluding every benchmark' '-W/-X' -X audio -X video -X x -X gaming
bad_args 'Custom without -C/-I' '-C and -I' -W custom
bad_args 'an unknown option' '-Z' -Z
bad_args 'an unknown long option' '--nosuch' --nosuch
bad_args 'a task name typed wrong: the nearest' "unknown task 'Audoi' (did you mean Audio? see --list)" -W Audoi
bad_args 'a load name typed wrong: the nearest' "unknown load 'Brun' (did you mean Burn? see --list)" -w Brun
bad_args 'an option typed wrong: the nearest' 'unknown option --fial-if (did you mean --fail-if? see --help)' --fial-if 'p99>1ms'
bad_args 'a missing value' '-t' -t
bad_args 'a long option without its value' 'option --json needs a value' --json
bad_args 'a simulator option without its value' 'option --dist needs a value' -W cyclic --dist
bad_args 'a value given to --list' 'unknown option --list=x' --list=x
bad_args 'a matrix with no cell' 'no cell to run' -W video -w video
bad_args 'a -l beyond any CPU' '-l' -l 1000000000
bad_args 'a stray argument' 'stray' stray
bad_args 'a missing load directory' '-D' -D /nonexistent/dir -w write
bad_args 'a load directory that is a file' '-D' -D /etc/passwd -w read
bad_args 'an empty comment' '-m' -m ''
bad_args 'a two-line comment' '-m' -m 'a
b'

test_expect_success '--help prints usage and exits 0' '
	"$IB" --help >out && has out "Usage: interbench" && has out "--percentiles"
'
test_expect_success '-h is --help' '"$IB" -h >out && has out "Usage: interbench"'
test_expect_success '--version prints the version' '
	"$IB" --version >out && grep -q "^interbench [0-9]" out
'
test_expect_success '--list names every benchmark and load, one per line' '
	"$IB" --list >out &&
	for n in Audio Video X Gaming Custom; do grep -q "^bench  *$n " out || fail "$n"; done &&
	for n in None Video X Burn Write Read Ring Compile Memload Hack Custom; do
		grep -q "^load  *$n " out || fail "$n"; done
'
test_done
