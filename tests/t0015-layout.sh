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
	loads/*|hackbench.c) echo 2 ;;
	plan/*) echo 3 ;;
	cli/*) echo 4 ;;
	run/*) echo 5 ;;
	outputs/*) echo 6 ;;
	report/*) echo 7 ;;
	compare/*) echo 8 ;;
	cmd/*) echo 9 ;;
	interbench.c) echo 10 ;;
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
# rt-app's folder (simulators/rtapp/rtapp.h): its files in one order,
# read < parse < check < ... < run < the descriptor, and a file calls
# only files before it, so there is no circle among them. The includes
# cannot show it (every file includes the same private headers): the
# objects can. Each file is compiled here (-O0: every call stays a call)
# and nm says which global names it defines and which it uses.
RTAPP_ORDER="rtapp_read rtapp_parse rtapp_check rtapp_file rtapp_event
	rtapp_collect rtapp_run rtapp"
# The objects DIR/NAME.o of the names given in order: each use of a name
# defined in a file later in the order, said as "A.c calls SYM of B.c,
# later in the order".
calls_up() {
	dir=$1
	shift
	{
		i=0
		for f in "$@"; do
			nm --defined-only "$dir/$f.o" | awk -v i=$i -v f=$f \
				'NF == 3 && $2 ~ /^[A-Z]$/ { print "D", $3, i, f }'
			i=$((i + 1))
		done
		i=0
		for f in "$@"; do
			nm -u "$dir/$f.o" | awk -v i=$i -v f=$f \
				'{ print "U", $NF, i, f }'
			i=$((i + 1))
		done
	} | awk '$1 == "D" { at[$2] = $3; file[$2] = $4; next }
		($2 in at) && at[$2] > $3 {
			print $4 ".c calls " $2 " of " file[$2] ".c, later in the order"
		}'
}
if command -v nm >/dev/null; then
	test_expect_success 'simulators/rtapp/: no file calls one later in its order' '
		grep "^simulators/rtapp/.*\.c$" files | sed "s|.*/||; s|\.c$||" |
			sort >have &&
		printf "%s\n" $RTAPP_ORDER | sort >want &&
		{ cmp -s have want ||
			fail "the order ($(echo $RTAPP_ORDER)) is not the folder'"'"'s files: $(cat have)"; } &&
		mkdir -p rt &&
		for f in $RTAPP_ORDER; do
			(cd "$TOP" && $CC -D_GNU_SOURCE -I. -std=gnu11 -pthread -c \
				-o "$TRASH/rt/$f.o" "simulators/rtapp/$f.c") ||
				fail "cc -c simulators/rtapp/$f.c"
		done &&
		calls_up rt $RTAPP_ORDER >up &&
		{ [ ! -s up ] || fail "$(cat up)"; } &&
		calls_up rt rtapp rtapp_run >down &&
		{ grep -q "^rtapp.c calls rtapp_run of rtapp_run.c" down ||
			fail "rtapp.c before rtapp_run.c is not caught: $(cat down)"; }
	'
	# The check must be able to fail: a planted call up the order is
	# caught, and the same call down the order is not.
	test_expect_success 'a call to a file later in the order is caught' '
		mkdir -p p &&
		printf "int b(void);\nint a(void)\n{\n\treturn b();\n}\n" >p/a.c &&
		printf "int b(void)\n{\n\treturn 2;\n}\n" >p/b.c &&
		$CC -c -o p/a.o p/a.c && $CC -c -o p/b.o p/b.c &&
		calls_up p a b >why &&
		[ "$(cat why)" = "a.c calls b of b.c, later in the order" ] ||
			fail "found: $(cat why)" &&
		calls_up p b a >why &&
		{ [ ! -s why ] || fail "found down the order: $(cat why)"; }
	'
else
	test_skip 'simulators/rtapp/: no file calls one later in its order' 'no nm'
	test_skip 'a call to a file later in the order is caught' 'no nm'
fi
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
