#!/bin/sh
# make install and make uninstall into a temporary DESTDIR; the installed
# binary works from anywhere; the bash completion made from the tables.
# tests/run: in parallel (its few measuring runs go through measured).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
D=$TRASH/dest
# make install as a user runs it, but what it installs is never remade
# here (-o): the suite's binary is the one under test, in use by the
# tests beside this one, and a make whose flags differ from the build's
# (make check's -Werror) would build it all again and relink it.
KEEP="-o interbench -o interbench.bash"

test_expect_success 'make install puts the binary, man page and completion in place' '
	make -s -C "$TOP" $KEEP install DESTDIR="$D" PREFIX=/opt/ib >make.out 2>&1 ||
		{ cat make.out; false; }
	(cd "$D" && find . | sort) >tree &&
	has tree "^./opt/ib/bin/interbench$" &&
	has tree "^./opt/ib/share/man/man8/interbench.8$" &&
	has tree "^./opt/ib/share/bash-completion/completions/interbench$" &&
	[ -x "$D/opt/ib/bin/interbench" ] &&
	[ $(find "$D" -type f | wc -l) = 3 ] || { cat tree; false; }
'

test_expect_success 'BINDIR, MANDIR and BASHCOMPDIR move each part' '
	make -s -C "$TOP" $KEEP install DESTDIR="$D/2" BINDIR=/b MANDIR=/m \
		BASHCOMPDIR=/c >make.out 2>&1 || { cat make.out; false; }
	[ -x "$D/2/b/interbench" ] && [ -f "$D/2/m/man8/interbench.8" ] &&
	[ -f "$D/2/c/interbench" ]
'

test_expect_success 'the installed binary runs from anywhere, finding nothing in the source tree' '
	mkdir elsewhere && cd elsewhere &&
	"$D/opt/ib/bin/interbench" --version | grep -q "^interbench [0-9]" &&
	"$D/opt/ib/bin/interbench" --list >list && has list "^bench  *Audio" &&
	measured "$D/opt/ib/bin/interbench" -l 1000000 -t 0.2 -c -W audio -w none \
		--json r.json >out 2>&1 || { cat out; false; }
	has out "^None " && valid_json r.json
'

test_expect_success 'the installed man page is the one of the source' '
	cmp "$TOP/interbench.8" "$D/opt/ib/share/man/man8/interbench.8"
'

COMP=$D/opt/ib/share/bash-completion/completions/interbench
# Ask the completion what it offers for the words "$@" (the last is the
# one being completed), as bash would.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_interbench; [ ${#COMPREPLY[@]} = 0 ] ||
		printf "%s\n" "${COMPREPLY[@]}"' sh "$COMP" "$@"
}
if command -v bash >/dev/null 2>&1; then
	test_expect_success 'the completion is valid bash and names every option' '
		bash -n "$COMP" &&
		complete_words interbench - >opts &&
		"$IB" --help | grep -o -- "--[a-z][a-z-]*" | sort -u >help_opts &&
		while read -r o; do has opts "^$o\$"; done <help_opts
	'
	test_expect_success 'the completion offers loads, tasks, values and files' '
		complete_words interbench -w b >w && has w "^burn$" &&
		complete_words interbench --bench cy >W && has W "^cyclic$" &&
		complete_words interbench --cyclic-method i >m && has m "^itimer$" &&
		complete_words interbench --completion "" >c && has c "^bash$" &&
		: >data.json && complete_words interbench --junit da >f &&
		has f "^data.json$" &&
		complete_words interbench -t "" >t && [ ! -s t ] &&
		complete_words interbench co >sub && has sub "^compare$"
	'
	test_expect_success 'the completion knows compare'"'"'s options and files' '
		complete_words interbench compare --th >c && has c "^--threshold$" &&
		: >a.json && : >a.txt && complete_words interbench compare a >f &&
		has f "^a.json$" && hasnt f "a.txt"
	'
	test_expect_success 'the completion knows report'"'"'s options, files and directories' '
		complete_words interbench re >sub && has sub "^report$" &&
		complete_words interbench report --f >c && has c "^--figure$" &&
		complete_words interbench report - >o &&
		"$IB" report --help | grep -o -- "--[a-z][a-z-]*" | sort -u >r_opts &&
		[ -s r_opts ] && while read -r o; do has o "^$o\$"; done <r_opts &&
		has o "^-o$" &&
		mkdir -p svgdir && complete_words interbench report a.json --svg svg >d &&
		has d "^svgdir$" && hasnt d "a.json" &&
		complete_words interbench report a >f && has f "^a.json$" &&
		hasnt f "a.txt"
	'
else
	test_skip 'the completion is valid bash' 'bash is not installed'
	test_skip 'the completion offers loads, tasks, values and files' 'bash is not installed'
	test_skip 'the completion knows compare'"'"'s options' 'bash is not installed'
	test_skip 'the completion knows report'"'"'s options' 'bash is not installed'
fi

test_expect_success 'the completion is what the binary makes from its tables' '
	"$IB" --completion bash >made && cmp made "$COMP"
'

test_expect_success 'make uninstall removes all of it' '
	make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/opt/ib >make.out 2>&1 ||
		{ cat make.out; false; }
	[ -z "$(find "$D/opt" -type f)" ] || { find "$D/opt" -type f; false; }
'
test_done
