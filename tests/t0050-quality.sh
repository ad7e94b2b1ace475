#!/bin/sh
# Quality gates on the real program: runs under the sanitizers and
# valgrind. (The fuzzes are t0051's, cppcheck and clang's t0052's: apart,
# they run side by side.)
# tests/run: in parallel (its few measuring runs go through measured).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
ASAN="$TOP/interbench-asan"
TSAN="$TOP/interbench-tsan"
export ASAN_OPTIONS=exitcode=99:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1

# sanitized RUN...: exit 0 and no sanitizer words in the output
sanitized() {
	"$@" >san.out 2>&1; rc=$?
	if [ $rc != 0 ] || grep -q "Sanitizer\|runtime error" san.out; then
		echo "exit status $rc:"; tail -n 40 san.out; return 1
	fi
}

test_expect_success 'under ASan+UBSan: a short run of every benchmark' '
	sanitized measured "$ASAN" -l 1000000 -t 0.2 -c -C 10 -I 2000 -w none -w burn -w ring -w hack -w x &&
	grep -q "^--- Benchmarking simulated cpu of Custom" san.out
'
if disk_loads_ok; then
	NODISK=""
else
	NODISK="-x write -x read -x compile -x hell"
	test_skip 'under ASan+UBSan: the disk loads' "$DISK_WHY"
fi
test_expect_success 'under ASan+UBSan: every load once, with JSON and CSV' '
	mkdir d && sanitized measured "$ASAN" -l 1000000 -t 0.2 -c -W audio -D d $NODISK -n 2 --json r.json --csv r.csv &&
	valid_json r.json
'
test_expect_success 'under ASan+UBSan: the command-line tests pass' '
	IB="$ASAN" sh "$TESTS_DIR/t0010-cli.sh" >cli.out 2>&1 ||
		{ grep -v "^ok" cli.out; false; }
'
# Under TSan (5 to 15 times slower) and beside the suite's other tests, a
# load can do no work in a 0.3 s cell: that cell is not measured (exit
# 4), which is no race. Exit 4 passes only when that is every cell's why.
test_expect_success 'under TSan: the threaded engines and loads race-free' '
	measured "$TSAN" -l 1000000 -t 0.3 -c -W audio -W x -W gaming -w none -w burn -w ring -w hack -w net -w fork -D . >san.out 2>&1
	rc=$?
	! grep -q "Sanitizer\|runtime error" san.out || { tail -n 40 san.out; false; } &&
	if [ $rc = 4 ]; then
		lost=$(sed -n "s/^interbench: \([0-9]*\) of \([0-9]*\) cells measured.*/\2 - \1/p" san.out) &&
		[ -n "$lost" ] && [ "$(grep -c " load did no work while the benchmark ran$" san.out)" = $(($lost)) ] ||
			{ echo "exit 4, and not only for a starved load:"; tail -n 40 san.out; false; }
	else
		[ $rc = 0 ] || { echo "exit status $rc:"; tail -n 40 san.out; false; }
	fi
'
# A sweep: three states and a candidate whose command fails (exit 9),
# judged, its page, JUnit and KCIDB files; then the page drawn again.
SWEEP="sweep -l 1000000 -t 0.2 -c -W audio -w none -n 3 --candidate a-a \
	--candidate n5 --opts -N5 --candidate bad --enter false"
test_expect_success 'under ASan+UBSan: a sweep, its page, JUnit and KCIDB, a candidate failing' '
	measured "$ASAN" $SWEEP -o sw --html sw.html --junit sw.xml \
		--kcidb swk.json >san.out 2>&1; rc=$?
	! grep -q "Sanitizer\|runtime error" san.out || { tail -n 40 san.out; false; } &&
	{ [ $rc = 9 ] || { echo "exit status $rc"; tail -n 40 san.out; false; }; } &&
	[ -s sw.html ] && [ -s sw.a-a.html ] && [ -s swk.n5.json ] &&
	sanitized "$ASAN" report sw.sweep.json -o again.html
'
if command -v valgrind >/dev/null; then
	test_expect_success 'valgrind memcheck: a sweep, no errors, no leaks' '
		measured valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
			"$TOP/interbench" $SWEEP -o vs --html vs.html --junit vs.xml \
			>vs.out 2>&1; rc=$?
		[ $rc = 9 ] || { echo "exit status $rc"; tail -n 40 vs.out; false; }
	'
else
	test_skip 'valgrind memcheck of a sweep' 'valgrind is not installed'
fi
if command -v valgrind >/dev/null; then
	test_expect_success 'valgrind memcheck: no errors, no leaks (parent and benchmark)' '
		measured valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
			"$TOP/interbench" -l 1000000 -t 0.3 -c -W audio -W gaming -w none -w burn \
			--json v.json >vg.out 2>&1 || { tail -n 40 vg.out; false; }
	'
else
	test_skip 'valgrind memcheck' 'valgrind is not installed'
fi
test_done
