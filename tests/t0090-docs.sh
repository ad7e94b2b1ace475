#!/bin/sh
# The documentation is true to the code: every option of the option
# tables (as --help prints them, made from the tables) is in the man page
# and the README, and --help fits a terminal.
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)

test_expect_success '--help lists interbench and simulator options' '
	"$IB" --help >help &&
	grep -o "^ *\(-., \)\?--[a-z-]*" help | grep -o -- "--[a-z-]*" >opts &&
	[ $(wc -l <opts) -ge 35 ] || fail "only $(wc -l <opts) options"
'
test_expect_success 'every option is in the man page' '
	sed "s/\\\\-/-/g" "$TOP/interbench.8" >man.txt &&
	while read -r o; do
		grep -q -- "$o\([^a-z-]\|$\)" man.txt || fail "$o not in interbench.8"
	done <opts
'
test_expect_success 'every option is in the README' '
	while read -r o; do
		grep -q -- "$o\([^a-z-]\|$\)" "$TOP/README" || fail "$o not in README"
	done <opts
'
test_expect_success 'every short option is in the man page and README' '
	grep -o "^  -[a-zA-Z]," help | tr -d " ," >shorts &&
	[ $(wc -l <shorts) -ge 20 ] &&
	while read -r o; do
		grep -q -- "$o\([^a-zA-Z-]\|$\)" man.txt || fail "$o not in interbench.8"
		grep -q -- "$o\([^a-zA-Z-]\|$\)" "$TOP/README" || fail "$o not in README"
	done <shorts
'
test_expect_success '--help fits in 80 columns' '
	! awk "length > 79" help | grep . || fail "long lines"
'
test_expect_success 'HACKING names the files it describes' '
	[ -s "$TOP/HACKING" ] || fail "no HACKING" &&
	for f in $(grep -o "[a-z/_]\+\.[ch]\b" "$TOP/HACKING" | sort -u); do
		[ -f "$TOP/$f" ] || fail "HACKING names $f, which does not exist"
	done
'
test_done
