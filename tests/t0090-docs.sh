#!/bin/sh
# The documentation is true to the code: every option of the option
# tables (as --help prints them, made from the tables) is in the man page
# and in README or doc/, README and doc/ name each other's files, and
# --help fits a terminal.
# tests/run: in parallel (its few measuring runs go through measured).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
# README and the plain-text files of doc/, as one text to search
DOCS="$TOP/README $(ls "$TOP"/doc/*.txt 2>/dev/null | tr '\n' ' ')"

test_expect_success '--help lists interbench and simulator options' '
	"$IB" --help >help &&
	grep -o "^ *\(-., \)\?--[a-z-]*" help | grep -o -- "--[a-z-]*" >opts &&
	[ $(wc -l <opts) -ge 35 ] || fail "only $(wc -l <opts) options"
'
# compare, report, trend and study describe their options from their
# tables too.
test_expect_success 'compare --help and report --help list their options' '
	"$IB" compare --help >chelp && "$IB" report --help >rhelp &&
	"$IB" trend --help >thelp && "$IB" study --help >shelp &&
	"$IB" sweep --help >swhelp &&
	grep -o "^ *\(-., \)\?--[a-z-]*" thelp | grep -o -- "--[a-z-]*" >>opts &&
	grep -o "^ *\(-., \)\?--[a-z-]*" swhelp | grep -o -- "--[a-z-]*" >>opts &&
	grep -qx -- --candidate opts && grep -qx -- --base-leave opts &&
	grep -o "^ *\(-., \)\?--[a-z-]*" shelp | grep -o -- "--[a-z-]*" >>opts &&
	grep -o "^ *\(-., \)\?--[a-z-]*" chelp | grep -o -- "--[a-z-]*" >copts &&
	grep -o "^ *\(-., \)\?--[a-z-]*" rhelp | grep -o -- "--[a-z-]*" >ropts &&
	grep -qx -- --threshold copts && grep -qx -- --figure ropts &&
	cat copts ropts >>opts &&
	grep -o "^  -[a-zA-Z]," chelp rhelp | cut -d: -f2 >>help
'
test_expect_success 'every option is in the man page' '
	sed "s/\\\\-/-/g" "$TOP/interbench.8" >man.txt &&
	while read -r o; do
		grep -q -- "$o\([^a-z-]\|$\)" man.txt || fail "$o not in interbench.8"
	done <opts
'
test_expect_success 'every option is in README or doc/' '
	cat $DOCS >docs.txt &&
	while read -r o; do
		grep -q -- "$o\([^a-z-]\|$\)" docs.txt || fail "$o not in README or doc/*.txt"
	done <opts
'
test_expect_success 'every short option is in the man page and README or doc/' '
	grep -o "^  -[a-zA-Z]," help | tr -d " ," >shorts &&
	[ $(wc -l <shorts) -ge 20 ] &&
	while read -r o; do
		grep -q -- "$o\([^a-zA-Z-]\|$\)" man.txt || fail "$o not in interbench.8"
		grep -q -- "$o\([^a-zA-Z-]\|$\)" docs.txt || fail "$o not in README or doc/*.txt"
	done <shorts
'
test_expect_success 'every doc/ file README names exists' '
	# doc/ of this tree, not a system path such as /usr/share/doc/rt-app
	grep -o "\(^\|[^/]\)doc/[A-Za-z0-9_.-]*[A-Za-z0-9_-]" "$TOP/README" |
		sed "s|^[^d]||" | sort -u >named &&
	[ -s named ] || fail "README names no doc/ file" &&
	while read -r f; do
		[ -f "$TOP/$f" ] || fail "README names $f, which does not exist"
	done <named
'
test_expect_success 'README and doc/README name every doc/*.txt' '
	ls "$TOP"/doc/*.txt >/dev/null || fail "no doc/*.txt" &&
	for f in "$TOP"/doc/*.txt; do
		b=${f##*/}
		grep -q "doc/$b\b" "$TOP/README" || fail "README does not name doc/$b"
		grep -q "^ *$b\b" "$TOP/doc/README" || fail "doc/README does not list $b"
	done
'
test_expect_success '--help fits in 80 columns' '
	! awk "length > 79" help chelp rhelp thelp shelp swhelp | grep . ||
		fail "long lines"
'
# ab's side options are flagged on their rows (OF_SIDE): the man page's
# list is the one ab --help prints from them, and sweep's, sweep --help's
# (a side's but tracing, which a sweep refuses).
test_expect_success "the man page lists a side's own options as ab --help does" '
	"$IB" ab --help | sed -n "/^A side may have of its own/,/\.\$/p" |
		sed 1d | tr -d "\n" | sed "s/^ *//; s/  */ /g" >want &&
	sed -n "/^Options for that side.s cells only/,/\.\$/p" "$TOP/interbench.8" |
		tr "\n" " " | sed "s/.*blank-separated: //; s/\\\\//g; s/ *\$//" >got &&
	[ -s want ] && cmp -s want got || fail "ab --help: $(cat want); man: $(cat got)"
'
test_expect_success "the man page lists a sweep state's own options as sweep --help does" '
	"$IB" sweep --help | sed -n "/^A state may have of its own/,/\.\$/p" |
		sed 1d | tr -d "\n" | sed "s/^ *//; s/  */ /g" >want &&
	sed -n "/^Options for the candidate.s cells only/,/\.\$/p" "$TOP/interbench.8" |
		tr "\n" " " | sed "s/.*may have: //; s/\\\\//g; s/ *\$//" >got &&
	[ -s want ] && cmp -s want got || fail "sweep --help: $(cat want); man: $(cat got)"
'
test_expect_success 'HACKING names the files it describes' '
	[ -s "$TOP/HACKING" ] || fail "no HACKING" &&
	(cd "$TOP" && find . -name "*.[ch]" ! -path "./tests/*" | sed "s|^\./||") >srcs &&
	for f in $(grep -o "[a-z/_-]\+\.[ch]\b" "$TOP/HACKING" | sort -u); do
		# a path from the top, or a file named in its folder'"'"'s list
		[ -f "$TOP/$f" ] || grep -q "/$f\$" srcs ||
			fail "HACKING names $f, which does not exist"
	done
'
test_expect_success 'the layout in HACKING covers every source file' '
	sed -n "/^The layout/,/^One name per concept/p" "$TOP/HACKING" >layout &&
	while read -r f; do
		grep -q "\(^\|[ /]\)$(basename "$f")\b" layout ||
			fail "HACKING'"'"'s layout does not name $f"
	done <srcs
'
# doc/ab.txt's compare sample: the rows a cell has today, in compare's order
# (a sample once lacked the FPS rows real output has).
test_expect_success "doc/ab.txt's compare sample has the rows compare prints, in order" '
	awk "/^    cell  *metric  *base/ { p = 1; next } p && /=>/ { exit }
	     p { sub(/^    [A-Za-z]*\/[A-Za-z]*/, \"\"); sub(/^ */, \"\");
		 sub(/  +[-0-9.<].*/, \"\"); print }" "$TESTS_DIR/../doc/ab.txt" >readme.rows &&
	[ $(wc -l <readme.rows) -ge 8 ] &&
	measured "$IB" -l 1000000 -c -t 0.3 -n 3 -W video -w burn --json a.json >/dev/null 2>&1 &&
	measured "$IB" -l 1000000 -c -t 0.3 -n 3 -W video -w burn --json b.json >/dev/null 2>&1 &&
	{ "$IB" compare a.json b.json >cmp.out; [ $? -le 1 ]; } &&
	awk "/^Video\/Burn/ { p = 1 } p && /=>/ { exit }
	     p { sub(/^Video\/Burn/, \"\"); sub(/^ */, \"\");
		 sub(/  +[-0-9.<].*/, \"\"); print }" cmp.out >real.rows &&
	diff readme.rows real.rows
'

# HACKING's rule for commits, from the commit that wrote it (c3c5cc6) on:
# a subject of at most 72 characters, a blank line, a body. Merges are
# git's words, not ours. bad_commits DIR RANGE: "HASH SUBJECT" of each
# that breaks it.
bad_commits() {
	git -C "$1" log --no-merges --format="%h%x01%s%x01%b%x02" "$2" |
		awk -v RS="\002" "NF {
			sub(/^\n+/, \"\"); split(\$0, p, \"\001\")
			b = p[3]; gsub(/[ \n]/, \"\", b)
			if (length(p[2]) > 72 || b == \"\") print p[1], p[2]
		}"
}
RULE=c3c5cc6
if git -C "$TOP" rev-parse -q --verify "$RULE^{commit}" >/dev/null 2>&1; then
	test_expect_success 'every commit since the rule: a subject of 72 at most, a body' '
		bad_commits "$TOP" "$RULE..HEAD" >bad &&
		{ [ ! -s bad ] || fail "$(cat bad)"; }
	'
	test_expect_success 'a commit with no body, or a subject of 73, is caught' '
		git init -q g && git -C g config user.email t@t &&
		git -C g config user.name t &&
		git -C g commit -q --allow-empty -m "area: fine" -m "why" &&
		git -C g commit -q --allow-empty -m "area: no body" &&
		git -C g commit -q --allow-empty -m "$(printf "%073d" 0)" -m "b" &&
		bad_commits g HEAD | cut -d" " -f2- >got &&
		printf "%s\n" "$(printf "%073d" 0)" "area: no body" >want &&
		cmp -s want got || fail "found: $(cat got)"
	'
else
	test_skip 'every commit since the rule: a subject of 72 at most, a body' \
		"not a git checkout with commit $RULE (a tarball, or a shallow clone)"
fi

test_done
