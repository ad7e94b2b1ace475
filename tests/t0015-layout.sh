#!/bin/sh
# The house: every include, as the compiler resolves it (cc -MM), points
# down the folders' order, so there is no cycle between folders; and no
# header has come back to hold everything.
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
CC=${CC:-cc}

# A folder's rank: a file may include only from its own folder or one
# ranked lower. stats.[ch] belong with lib/, hackbench.c with loads/;
# cmd/ (a file per command) is above the library's folders, and
# interbench.c (main and the table of commands) above everything.
rank() {
	case $1 in
	lib/*|stats.c|stats.h) echo 0 ;;
	core/*) echo 1 ;;
	simulators/*) echo 2 ;;
	loads/*|hackbench.c) echo 3 ;;
	plan/*) echo 4 ;;
	cli/*) echo 5 ;;
	run/*) echo 6 ;;
	outputs/*) echo 7 ;;
	report/*) echo 8 ;;
	compare/*) echo 9 ;;
	cmd/*) echo 10 ;;
	interbench.c) echo 11 ;;
	*) echo unknown ;;
	esac
}
folder() {
	case $1 in
	stats.c|stats.h) echo lib ;;
	hackbench.c) echo loads ;;
	*/*) echo "${1%%/*}" ;;
	*) echo main ;;
	esac
}

test_expect_success 'every source file is in a folder of the layout' '
	(cd "$TOP" && git ls-files "*.c" "*.h" 2>/dev/null ||
		find . -name "*.[ch]" | sed "s|^\./||") | grep -v "^tests/" >files &&
	[ $(wc -l <files) -ge 60 ] || fail "only $(wc -l <files) files" &&
	while read -r f; do
		[ "$(rank "$f")" != unknown ] || fail "$f is in no folder of the layout"
	done <files
'
test_expect_success 'the compiler finds every include (cc -MM)' '
	: >edges &&
	while read -r f; do
		(cd "$TOP" && $CC -MM -D_GNU_SOURCE -I. -x c "$f") >dep 2>err ||
			fail "cc -MM $f: $(cat err)"
		tr " \\\\" "\n\n" <dep | grep "\.h$" | grep -v "^/" |
			sed "s|^|$f |" >>edges
	done <files &&
	[ $(wc -l <edges) -ge 200 ] || fail "only $(wc -l <edges) includes"
'
# Every edge "FILE HEADER" of $1 points to FILE's folder or one ranked
# lower; the first that does not is said, and fails.
check_edges() {
	while read -r from to; do
		a=$(rank "$from") b=$(rank "$to")
		[ "$b" != unknown ] || { echo "$from includes $to, outside the layout"; return 1; }
		[ "$(folder "$from")" = "$(folder "$to")" ] && continue
		[ "$b" -lt "$a" ] ||
			{ echo "$from ($(folder "$from")) includes $to ($(folder "$to"))"; return 1; }
	done <"$1"
}
test_expect_success 'includes point down the layout: no cycle between folders' '
	check_edges edges
'
test_expect_success 'no catch-all header: interbench.h is gone, none over 300 lines' '
	[ ! -e "$TOP/interbench.h" ] &&
	! grep -l "interbench\.h\"" $(sed "s|^|$TOP/|" files) &&
	for f in $(grep "\.h$" files); do
		[ $(wc -l <"$TOP/$f") -le 300 ] || fail "$f has $(wc -l <"$TOP/$f") lines"
	done
'
test_expect_success 'no source file over 800 lines' '
	for f in $(grep "\.c$" files); do
		[ $(wc -l <"$TOP/$f") -le 800 ] || fail "$f has $(wc -l <"$TOP/$f") lines"
	done
'
# The check must be able to fail: an upward include, found by cc -MM in
# a planted tree, is caught by the same check.
test_expect_success 'an include pointing up the layout is caught' '
	mkdir -p t/lib t/compare && echo "int x;" >t/compare/c.h &&
	printf "#include \"compare/c.h\"\n" >t/lib/bad.c &&
	(cd t && $CC -MM -I. -x c lib/bad.c) | tr " \\\\" "\n\n" | grep "\.h$" |
		sed "s|^|lib/bad.c |" >planted &&
	[ "$(cat planted)" = "lib/bad.c compare/c.h" ] &&
	! check_edges planted >why && grep -q "lib/bad.c (lib) includes compare/c.h (compare)" why
'
# Only a command's file exits: the library returns a status to the
# command (cmd/*.c) or to main() (interbench.c). A forked child's _exit()
# is not exit(, nor is atexit(. Every exit( of a .c file outside those is
# said, as FILE:LINE: TEXT.
exits_outside() {
	while read -r f; do
		case $f in
		cmd/*|interbench.c|tests/*) continue ;;
		esac
		grep -n "\<exit(" "$1/$f" | sed "s|^|$f:|"
	done
}
test_expect_success 'only a command'"'"'s file exits: no exit( outside cmd/ and interbench.c' '
	grep "\.c$" files >cfiles &&
	[ $(wc -l <cfiles) -ge 50 ] || fail "only $(wc -l <cfiles) .c files" &&
	exits_outside "$TOP" <cfiles >exits &&
	{ [ ! -s exits ] || fail "exit( outside cmd/: $(cat exits)"; }
'
# The check must be able to fail: a planted exit( in a library folder is
# caught, and a child'"'"'s _exit(), an atexit( and cmd/'"'"'s exit( are not.
test_expect_success 'an exit( planted outside cmd/ is caught' '
	mkdir -p x/lib x/cmd x/run &&
	printf "void f(void)\n{\n\texit(2);\n}\n" >x/lib/bad.c &&
	printf "void g(void)\n{\n\t_exit(1);\n\tatexit(h);\n}\n" >x/run/ok.c &&
	printf "void c(void)\n{\n\texit(3);\n}\n" >x/cmd/c.c &&
	printf "%s\n" lib/bad.c run/ok.c cmd/c.c >planted &&
	exits_outside x <planted >why &&
	[ "$(cat why)" = "lib/bad.c:3:	exit(2);" ] || fail "found: $(cat why)"
'
test_done
