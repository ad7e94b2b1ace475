#!/bin/sh
# The house: every include, as the compiler resolves it (cc -MM), points
# down the folders' order, so there is no cycle between folders; no
# header has come back to hold everything; no file or function is over
# its size; and each test script has a number of its own and a line in
# doc/testing.txt.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
CC=${CC:-cc}

# The house is two towers on common ground (HACKING). The ground: lib/
# (stats.[ch] with it), core/ (the contracts and the result file) and
# simulators/ (the plug-ins, whose descriptors name a task's figures).
# The tower that measures: loads/ (hackbench.c with it), plan/, run/,
# outputs/, session/. The tower that judges: report/, compare/, trend/.
# They meet only at the result file, on the ground; the top, cli/, cmd/
# (a file per command) and interbench.c (main and the table of
# commands), joins them. A file includes from its own folder, from one
# ranked lower in its own tower, from the ground (a ground folder from
# one ranked lower there), and the top from anything lower.
# rank_of sets R and T, its rank and tower (g, m, j, top), and
# folder_of F (no subshell: check_edges asks for every include, and a
# fork each took minutes); rank and folder print.
rank_of() {
	case $1 in
	lib/*|stats.c|stats.h) R=0 T=g ;;
	core/*) R=1 T=g ;;
	simulators/*) R=2 T=g ;;
	loads/*|hackbench.c) R=3 T=m ;;
	plan/*) R=4 T=m ;;
	run/*) R=5 T=m ;;
	outputs/*) R=6 T=m ;;
	session/*) R=7 T=m ;;
	report/*) R=3 T=j ;;
	compare/*) R=4 T=j ;;
	trend/*) R=5 T=j ;;
	cli/*) R=8 T=top ;;
	cmd/*) R=9 T=top ;;
	interbench.c) R=10 T=top ;;
	*) R=unknown T=unknown ;;
	esac
}
folder_of() {
	case $1 in
	stats.c|stats.h) F=lib ;;
	hackbench.c) F=loads ;;
	*/*) F=${1%%/*} ;;
	*) F=main ;;
	esac
}
rank() { rank_of "$1"; echo "$R"; }
folder() { folder_of "$1"; echo "$F"; }

test_expect_success 'every source file is in a folder of the layout' '
	(cd "$TOP" && git ls-files "*.c" "*.h" 2>/dev/null ||
		find . -name "*.[ch]" | sed "s|^\./||") | grep -v "^tests/" >files &&
	[ $(wc -l <files) -ge 60 ] || fail "only $(wc -l <files) files" &&
	while read -r f; do
		rank_of "$f"; [ "$R" != unknown ] || fail "$f is in no folder of the layout"
	done <files
'
# One cc for every file (a cc a file took a minute and a half on a busy
# machine): a rule each, "X.o: FILE HEADER... \" on continued lines, its
# first prerequisite the file as named; an edge "FILE HEADER" for each
# header of the tree (not /usr/include), FILE's own name among them.
test_expect_success 'the compiler finds every include (cc -MM)' '
	(cd "$TOP" && $CC -MM -D_GNU_SOURCE -I. -x c $(cat "$TRASH/files")) \
		>deps 2>err || fail "cc -MM: $(cat err)"
	sed -e ":a" -e "/\\\\$/{N;s/\\\\\\n//;ba" -e "}" deps |
		awk "{ for (i = 2; i <= NF; i++)
			if (\$i ~ /\\.h\$/ && \$i !~ /^\\//) print \$2, \$i }" >edges &&
	[ $(wc -l <edges) -ge 200 ] || fail "only $(wc -l <edges) includes"
'
# Every edge "FILE HEADER" of $1 points to FILE's folder, down its
# tower, to the ground or from the top; the first that does not is
# said, and fails: a crossing between the towers as such.
check_edges() {
	while read -r from to; do
		rank_of "$from"; a=$R; ta=$T; rank_of "$to"; b=$R; tb=$T
		[ "$b" != unknown ] || { echo "$from includes $to, outside the layout"; return 1; }
		folder_of "$from"; fa=$F; folder_of "$to"; fb=$F
		[ "$fa" = "$fb" ] && continue
		if [ "$ta" != "$tb" ] && [ "$ta" != g ] && [ "$ta" != top ] &&
		   [ "$tb" != g ]; then
			echo "$from ($fa, tower $ta) includes $to ($fb, tower $tb): the towers cross"
			return 1
		fi
		[ "$ta" != "$tb" ] && [ "$ta" != g ] && continue
		[ "$b" -lt "$a" ] ||
			{ echo "$from ($fa) includes $to ($fb)"; return 1; }
	done <"$1"
}
test_expect_success 'includes point down the layout: two towers, no cycle, no crossing' '
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
# The check must be able to fail: an upward include and a crossing of
# the towers, each found by cc -MM in a planted tree, are caught by the
# same check; the top and the ground are reached from both towers.
plant() {
	mkdir -p "t/${1%/*}" "t/${2%/*}" && echo "int x;" >"t/$2" &&
	printf "#include \"%s\"\n" "$2" >"t/$1" &&
	(cd t && $CC -MM -I. -x c "$1") | tr " \\\\" "\n\n" | grep "\.h$" |
		sed "s|^|$1 |" >planted &&
	[ "$(cat planted)" = "$1 $2" ]
}
test_expect_success 'an include up the layout or across the towers is caught' '
	plant lib/bad.c compare/c.h && ! check_edges planted >why &&
	grep -q "lib/bad.c (lib) includes compare/c.h (compare)" why &&
	plant compare/bad.c run/r.h && ! check_edges planted >why &&
	grep -q "compare/bad.c (compare, tower j) includes run/r.h (run, tower m): the towers cross" why &&
	plant session/bad.c report/p.h && ! check_edges planted >why &&
	grep -q "the towers cross" why &&
	plant report/ok.c simulators/s.h && check_edges planted &&
	plant cmd/ok.c report/q.h && check_edges planted &&
	plant cmd/ok2.c session/s.h && check_edges planted
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
# No function over 100 lines (HACKING). In this code's style a function's
# body opens with "{" at column 0 and closes with "}" at column 0; its
# definition starts at the first of the lines just before the "{" that
# begin at column 0 with a letter ("static int" above "name(...)"). A
# long initializer ("= {" ... "};") is no function.
# Each one over is said, as FILE:LINE: NAME is N lines.
long_functions() {
	while read -r f; do
		case $f in
		tests/*) continue ;;
		esac
		awk -v f="$f" '
		/^[A-Za-z_]/ {
			if (!inhead) {
				head = FNR
				def = ""
			}
			def = def " " $0
		}
		{ inhead = /^[A-Za-z_]/ }
		/^\{/ { start = head; name = def }
		/^\}/ && start {
			n = FNR - start + 1
			if (n > 100) {
				match(name, /[A-Za-z_][A-Za-z_0-9]*\(/)
				print f ":" start ": " \
				    substr(name, RSTART, RLENGTH - 1) \
				    " is " n " lines"
			}
			start = 0
		}' "$1/$f"
	done
}
test_expect_success 'no function over 100 lines' '
	grep "\.c$" files >cfiles &&
	long_functions "$TOP" <cfiles >long &&
	{ [ ! -s long ] || fail "$(cat long)"; }
'
# The check must be able to fail: a planted function of 101 lines is
# caught; one of 100 lines, a 200-line initializer and a test's long
# function are not.
test_expect_success 'a function over 100 lines is caught' '
	mkdir -p f/lib f/tests &&
	body() { i=0; while [ $i -lt $1 ]; do echo "	i++;"; i=$((i + 1)); done; } &&
	{ printf "static int\nlong_one(int i)\n{\n"; body 97; printf "}\n\n"
	  printf "int ok(int i)\n{\n"; body 97; printf "}\n\n"
	  printf "static const int t[] = {\n"; body 200; printf "};\n"
	} >f/lib/long.c &&
	{ printf "int main(void)\n{\n"; body 120; printf "}\n"; } >f/tests/unit-x.c &&
	printf "%s\n" lib/long.c tests/unit-x.c >planted &&
	long_functions f <planted >why &&
	[ "$(cat why)" = "lib/long.c:1: long_one is 101 lines" ] ||
		fail "found: $(cat why)"
'
# Every test script has a number of its own (tests/run runs them in ls
# order) and a line in doc/testing.txt's index ("  tNNNN-NAME.sh  what"),
# and every script the index names exists. Each fault is said.
scripts_unindexed() {
	ls "$1" | grep "^t[0-9][0-9]*-.*\.sh$" >scripts
	sed "s/-.*//" scripts | sort | uniq -d | sed "s/^/a number two scripts share: /"
	while read -r t; do
		grep -q "^  $t  *[^ ]" "$2" || echo "not in the index: $t"
	done <scripts
	sed -n "s/^  \(t[0-9][0-9]*-[^ ]*\.sh\)  *[^ ].*/\1/p" "$2" |
	while read -r t; do
		[ -e "$1/$t" ] || echo "indexed but no such script: $t"
	done
}
test_expect_success 'each test script has its own number and a line in doc/testing.txt' '
	[ $(ls "$TESTS_DIR" | grep -c "^t[0-9].*\.sh$") -ge 20 ] ||
		fail "only $(ls "$TESTS_DIR" | grep -c "^t[0-9].*\.sh$") scripts" &&
	scripts_unindexed "$TESTS_DIR" "$TOP/doc/testing.txt" >faults &&
	{ [ ! -s faults ] || fail "$(cat faults)"; }
'
# The check must be able to fail: two scripts sharing a number, one the
# index lacks and an index line for a script that is gone are each said.
test_expect_success 'a shared number, an unindexed script and a stale line are caught' '
	mkdir -p s && : >s/t0001-a.sh && : >s/t0001-b.sh && : >s/t0002-c.sh &&
	printf "The scripts:\n\n  t0001-a.sh  one\n  t0002-c.sh  two\n  t0009-gone.sh  old\n" >index &&
	scripts_unindexed s index >why &&
	printf "%s\n" "a number two scripts share: t0001" \
		"not in the index: t0001-b.sh" \
		"indexed but no such script: t0009-gone.sh" >want &&
	cmp -s want why || fail "found: $(cat why)"
'
# The objects make built, beside their sources: each file's global
# symbols, "FILE SYMBOL", defined (defs) and used (uses), from nm.
nm_tables() {
	: >defs
	: >uses
	while read -r f; do
		o=$TOP/${f%.c}.o
		[ -f "$o" ] || return 1
		nm "$o" | awk -v f="$f" '
			NF == 3 && $2 ~ /^[TDBR]$/ { print f, $3 >>"defs" }
			NF == 2 && $1 == "U" { print f, $2 >>"uses" }'
	done
}
# "FROM TO" for each file that uses a global another file defines
call_edges() {
	awk 'NR == FNR { def[$2] = $1; next }
	     ($2 in def) && def[$2] != $1 { print $1, def[$2] }' "$1" "$2" |
		sort -u
}
# The files on a circle of calls (tsort names one per loop), or nothing
circles() {
	tsort "$1" 2>&1 >/dev/null | sed -n "s/^tsort: \([^:]*\)$/\1/p" |
		sort -u
}
# The identifiers each extern declaration of a file names, "FILE NAME"
extern_names() {
	while read -r f; do
		awk -v f="$f" '
		function decl(s,   n, i, parts, w, m) {
			sub(/;.*/, "", s)
			gsub(/\[[^]]*\]/, "", s)
			gsub(/\([^)]*\)/, "", s)
			n = split(s, parts, ",")
			for (i = 1; i <= n; i++) {
				m = split(parts[i], w, /[ \t*]+/)
				while (m > 0 && w[m] == "")
					m--
				if (m)
					print f, w[m]
			}
		}
		/^[ \t]*extern[ \t]/ { s = ""; on = 1 }
		on { s = s " " $0; if (index($0, ";")) { on = 0; decl(s) } }
		' "$TOP/$f"
	done
}
# "FILE declares NAME of OTHER": an extern of another folder's global
foreign_externs() {
	awk 'NR == FNR { def[$2] = $1; next }
	     ($2 in def) {
		a = $1; sub(/\/[^\/]*$/, "", a); b = def[$2]; sub(/\/[^\/]*$/, "", b)
		if (a != b) print $1, "declares", $2, "of", def[$2]
	     }' "$1" "$2"
}
# A global of cmd/, run/, outputs/, loads/ or session/ that carries none
# of its room's prefixes: its file's name (or the name's first word),
# its folder's, singular or not (outputs/ also out_), or NAME_main for
# a command. "FILE NAME"
unprefixed() {
	awk '$1 ~ /^(cmd|run|outputs|loads|session)\// {
		n = split($1, p, "/"); stem = p[n]; sub(/\.c$/, "", stem)
		first = stem; sub(/_.*/, "", first)
		dir = p[1]; one = dir; sub(/s$/, "", one)
		pre = dir == "outputs" ? "out" : one
		if ($2 == stem || $2 == dir ||
		    index($2, stem "_") == 1 || index($2, first "_") == 1 ||
		    index($2, pre "_") == 1 || index($2, dir "_") == 1 ||
		    index($2, one "_") == 1 ||
		    (dir == "cmd" && $2 ~ /_main$/))
			next
		print $1, $2
	}' "$1"
}
grep "\.c$" files | grep -v "^interbench\.c$" >objs
if command -v nm >/dev/null && command -v tsort >/dev/null &&
   nm_tables <objs; then
	test_expect_success 'no circle among files: no two call each other, even through others' '
		call_edges defs uses >calls &&
		[ $(wc -l <calls) -ge 200 ] || fail "only $(wc -l <calls) calls" &&
		circles calls >loops &&
		{ [ ! -s loops ] || fail "on a circle: $(cat loops)"; }
	'
	test_expect_success 'no extern of another folder'"'"'s globals: they come from its header' '
		extern_names <files >ext &&
		[ $(wc -l <ext) -ge 10 ] || fail "only $(wc -l <ext) externs" &&
		foreign_externs defs ext >foreign &&
		{ [ ! -s foreign ] || fail "$(cat foreign)"; }
	'
	test_expect_success 'cmd/, run/, outputs/, loads/ and session/ export only prefixed names' '
		unprefixed defs >bare &&
		{ [ ! -s bare ] || fail "$(cat bare)"; }
	'
else
	test_skip "calls, externs and names from the objects" "no nm or tsort, or the objects are not built (make)"
fi
# The checks must be able to fail: a planted circle, a planted extern of
# another folder's global and a planted bare name are each said.
test_expect_success 'a circle, a foreign extern and a bare name are caught' '
	printf "%s\n" "run/a.c f_a" "run/b.c f_b" "lib/c.c f_c" \
		"cmd/x.c start" "outputs/o.c out_ok" >pdefs &&
	printf "%s\n" "run/a.c f_b" "run/b.c f_c" "lib/c.c f_a" >puses &&
	call_edges pdefs puses >pcalls && circles pcalls >why &&
	[ "$(cat why | tr "\n" " ")" = "lib/c.c run/a.c run/b.c " ] ||
		fail "circle: $(cat why)" &&
	mkdir -p e/loads && printf "extern const int f_a, f_b;\nextern int f_c(void);\n" >e/loads/l.c &&
	(TOP=$TRASH/e; echo loads/l.c | extern_names) >pext &&
	foreign_externs pdefs pext >why &&
	printf "%s\n" "loads/l.c declares f_a of run/a.c" \
		"loads/l.c declares f_b of run/b.c" \
		"loads/l.c declares f_c of lib/c.c" >want &&
	cmp -s want why || fail "externs: $(cat why)" &&
	unprefixed pdefs >why &&
	printf "%s\n" "run/a.c f_a" "run/b.c f_b" "cmd/x.c start" >want &&
	cmp -s want why || fail "names: $(cat why)"
'
test_done
