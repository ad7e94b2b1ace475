#!/bin/sh
# Static checks of the source: cppcheck (a job a CPU; it checks no
# unused function, which -j would turn off) and a clang -Werror build, one
# clang for every file. Once t0050's; apart, they run beside it.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
SRCS=$(cd "$TOP" && ls ./*.c */*.c | grep -v "^tests/")

if command -v cppcheck >/dev/null; then
	test_expect_success 'cppcheck reports nothing' '
		(cd "$TOP" && cppcheck -j "$(nproc)" --quiet --enable=warning,portability,performance \
			--std=c11 -D_GNU_SOURCE -D__linux__ --error-exitcode=1 -I. \
			$SRCS tests/*.c) >cpp.out 2>&1 || { cat cpp.out; false; }
	'
else
	test_skip 'cppcheck reports nothing' 'cppcheck is not installed'
fi
if command -v clang >/dev/null; then
	test_expect_success 'clang -Wall -Wextra: no warnings' '
		(cd "$TOP" && clang -D_GNU_SOURCE -I. -std=gnu11 -Wall -Wextra -Wshadow \
			-Wformat=2 -Wstrict-prototypes -Werror -fsyntax-only \
			$SRCS tests/*.c) >clang.out 2>&1 || { cat clang.out; false; }
	'
else
	test_skip 'clang -Wall -Wextra: no warnings' 'clang is not installed'
fi
test_done
