#!/bin/sh
# Quality gates: sanitizers, a command-line fuzz, valgrind, cppcheck and
# a clang build, each on the real program.
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
ASAN="$TOP/interbench-asan"
TSAN="$TOP/interbench-tsan"
SRCS=$(cd "$TOP" && ls ./*.c */*.c | grep -v "^tests/")
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
	sanitized "$ASAN" -l 1000000 -t 0.2 -c -C 10 -I 2000 -w none -w burn -w ring -w hack -w x &&
	grep -q "^--- Benchmarking simulated cpu of Custom" san.out
'
if disk_loads_ok; then
	NODISK=""
else
	NODISK="-x write -x read -x compile -x hell"
	test_skip 'under ASan+UBSan: the disk loads' "$DISK_WHY"
fi
test_expect_success 'under ASan+UBSan: every load once, with JSON and CSV' '
	mkdir d && sanitized "$ASAN" -l 1000000 -t 0.2 -c -W audio -D d $NODISK -n 2 --json r.json --csv r.csv &&
	valid_json r.json
'
test_expect_success 'under ASan+UBSan: the command-line tests pass' '
	IB="$ASAN" sh "$TESTS_DIR/t0010-cli.sh" >cli.out 2>&1 ||
		{ grep -v "^ok" cli.out; false; }
'
test_expect_success 'fuzz: 2000 random command lines, no crash, hang or report' '
	"$TOP/tests/fuzz-cli" "$ASAN" 2000 >fuzz.out 2>&1 || { cat fuzz.out; false; }
'
test_expect_success 'under TSan: the threaded engines and loads race-free' '
	sanitized "$TSAN" -l 1000000 -t 0.3 -c -W audio -W x -W gaming -w none -w burn -w ring -w hack -w net -w fork -D .
'
if command -v valgrind >/dev/null; then
	test_expect_success 'valgrind memcheck: no errors, no leaks (parent and benchmark)' '
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
			"$TOP/interbench" -l 1000000 -t 0.3 -c -W audio -W gaming -w none -w burn \
			--json v.json >vg.out 2>&1 || { tail -n 40 vg.out; false; }
	'
else
	test_skip 'valgrind memcheck' 'valgrind is not installed'
fi
if command -v cppcheck >/dev/null; then
	test_expect_success 'cppcheck reports nothing' '
		(cd "$TOP" && cppcheck --quiet --enable=warning,portability,performance \
			--std=c11 -D_GNU_SOURCE -D__linux__ --error-exitcode=1 -I. \
			$SRCS tests/*.c) >cpp.out 2>&1 || { cat cpp.out; false; }
	'
else
	test_skip 'cppcheck reports nothing' 'cppcheck is not installed'
fi
# The result-file fuzz target (tests/fuzz-result.c), 20 s from the golden
# files where clang has libFuzzer; `make fuzz` runs it 10 minutes.
printf "int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n" >fz.c
if command -v clang >/dev/null && clang -fsanitize=fuzzer fz.c -o fz 2>/dev/null; then
	test_expect_success 'fuzz: 20 s of crafted result files through compare and report' '
		make -s -C "$TOP" tests/fuzz-result >fbuild.out 2>&1 || { cat fbuild.out; false; }
		mkdir -p fwork && "$TOP/tests/fuzz-result" fwork "$TOP/tests/golden" \
			-max_total_time=20 -timeout=10 -rss_limit_mb=4096 >fuzz.out 2>&1 ||
			{ tail -n 40 fuzz.out; false; }
		grep -q "^Done [0-9]* runs" fuzz.out
	'
else
	test_skip 'fuzz: crafted result files' 'no clang with libFuzzer (-fsanitize=fuzzer)'
fi
if command -v clang >/dev/null; then
	test_expect_success 'clang -Wall -Wextra: no warnings' '
		(cd "$TOP" && for f in $SRCS tests/*.c; do
			clang -D_GNU_SOURCE -I. -std=gnu11 -Wall -Wextra -Wshadow \
				-Wformat=2 -Wstrict-prototypes -Werror -fsyntax-only "$f" || exit 1
		done) >clang.out 2>&1 || { cat clang.out; false; }
	'
else
	test_skip 'clang -Wall -Wextra: no warnings' 'clang is not installed'
fi
test_done
