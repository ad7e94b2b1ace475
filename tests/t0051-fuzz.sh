#!/bin/sh
# The fuzzes: random command lines thrown at the sanitized program, and
# (clang's libFuzzer) crafted result files through compare and report.
# Once t0050's; apart, they run beside it.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
ASAN="$TOP/interbench-asan"
export ASAN_OPTIONS=exitcode=99:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1

test_expect_success 'fuzz: 2000 random command lines, no crash, hang or report' '
	"$TOP/tests/fuzz-cli" "$ASAN" 2000 >fuzz.out 2>&1 || { cat fuzz.out; false; }
'
# The result-file fuzz target (tests/fuzz-result.c), 20 s from the golden
# files where clang has libFuzzer; `make fuzz` runs it 10 minutes.
printf "int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n" >fz.c
if command -v clang >/dev/null && clang -fsanitize=fuzzer fz.c -o fz 2>/dev/null; then
	test_expect_success 'fuzz: 20 s of crafted result files through compare and report' '
		make -s -j"$(nproc)" -C "$TOP" tests/fuzz-result >fbuild.out 2>&1 ||
			{ cat fbuild.out; false; }
		mkdir -p fwork && "$TOP/tests/fuzz-result" fwork "$TOP/tests/golden" \
			-max_total_time=20 -timeout=10 -rss_limit_mb=4096 >fuzz.out 2>&1 ||
			{ tail -n 40 fuzz.out; false; }
		grep -q "^Done [0-9]* runs" fuzz.out
	'
else
	test_skip 'fuzz: crafted result files' 'no clang with libFuzzer (-fsanitize=fuzzer)'
fi
test_done
