# SPDX-License-Identifier: GPL-2.0-or-later
# interbench - the Linux interactivity benchmark.
#   make          build ./interbench and its bash completion
#   make check    build, then run every test; ends "N passed, N failed"
#   make check-noisy  the same under noise like a host's steal (NOISE)
#   make install  PREFIX (/usr/local), DESTDIR, BINDIR, MANDIR, BASHCOMPDIR
#   make uninstall  the same variables: removes what install put there

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes
CPPFLAGS += -D_GNU_SOURCE -I.
override CFLAGS += -std=gnu11 $(WARN) -pthread
LDLIBS += -pthread -lrt -lm

# The folders, in the order their dependencies point (HACKING: The
# layout); the top level holds main (interbench.c), stats and hackbench.
DIRS = lib core simulators simulators/rtapp loads plan cli run outputs report session compare trend cmd
SRCS = stats.c hackbench.c $(foreach d,$(DIRS),$(sort $(wildcard $(d)/*.c))) \
	interbench.c
OBJS = $(SRCS:.c=.o)
# Everything but main() and the commands, for the unit tests.
LIB_OBJS = $(filter-out interbench.o cmd/%.o,$(OBJS))
# Each object depends on the headers it includes, as the compiler found.
DEPFLAGS = -MMD -MP
DEPS = $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d) $(TSAN_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) \
	$(UNITS:=.d) tests/resultcheck.d

UNIT_SRCS = $(wildcard tests/unit-*.c)
UNITS = $(UNIT_SRCS:.c=)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install

all: interbench interbench.bash

# The completion is made by the binary from its own option tables, so it
# cannot fall behind them. (Cross-compiling: make it on a machine that
# runs the binary, or `interbench --completion bash` on the target.)
interbench.bash: interbench
	./interbench --completion bash >$@.tmp && mv $@.tmp $@

install: interbench interbench.bash
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 755 interbench $(DESTDIR)$(BINDIR)/interbench
	$(INSTALL) -m 644 interbench.8 $(DESTDIR)$(MANDIR)/man8/interbench.8
	$(INSTALL) -m 644 interbench.bash $(DESTDIR)$(BASHCOMPDIR)/interbench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/interbench \
		$(DESTDIR)$(MANDIR)/man8/interbench.8 \
		$(DESTDIR)$(BASHCOMPDIR)/interbench

interbench: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

# The flags every object was built with: when they change (make, then
# make check's -Werror), everything is built again with the new ones.
FLAGS_STAMP = .build-flags
$(FLAGS_STAMP): FORCE
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(CPPFLAGS) $(CFLAGS)' >$@

%.o: %.c $(FLAGS_STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Unit tests link the module they test (and nothing with a main()).
tests/unit-stats: tests/unit-stats.c stats.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $< stats.o \
		$(LDLIBS)

tests/unit-json: tests/unit-json.c lib/json_read.o lib/json_write.o lib/text.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $< \
		lib/json_read.o lib/json_write.o lib/text.o $(LDLIBS)

tests/unit-text: tests/unit-text.c lib/text.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $< lib/text.o \
		$(LDLIBS)

# These test what the rest of interbench does in process, without a run.
tests/unit-%: tests/unit-%.c $(LIB_OBJS)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $< \
		$(LIB_OBJS) $(LDLIBS)

# The same program built with sanitizers, for the tests. IB_NO_MLOCK: a
# sanitizer's shadow memory must not be locked into RAM.
# Their objects live in .asan/ and .tsan/, built like the others.
SAN = -O1 -g -fno-omit-frame-pointer -DIB_NO_MLOCK
ASAN = -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN = -fsanitize=thread
ASAN_OBJS = $(addprefix .asan/,$(OBJS))
TSAN_OBJS = $(addprefix .tsan/,$(OBJS))

.asan/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) -pthread $(SAN) $(ASAN) \
		$(DEPFLAGS) -c -o $@ $<

.tsan/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) -pthread $(SAN) $(TSAN) \
		$(DEPFLAGS) -c -o $@ $<

interbench-asan: $(ASAN_OBJS)
	$(CC) -pthread $(SAN) $(ASAN) -o $@ $(ASAN_OBJS) $(LDLIBS)

interbench-tsan: $(TSAN_OBJS)
	$(CC) -pthread $(SAN) $(TSAN) -o $@ $(TSAN_OBJS) $(LDLIBS)

tests/resultcheck: tests/resultcheck.c $(LIB_OBJS)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $< \
		$(LIB_OBJS) $(LDLIBS)

# The libFuzzer target (clang): any bytes as a result file through what
# compare and report do (tests/fuzz-result.c). make fuzz runs it for
# FUZZ_SECONDS from the golden files; make check runs it 20 s (t0051).
FUZZ_SECONDS ?= 600
# Its objects live in .fuzz/, a file each, so that make -j builds them
# side by side (one clang for all of them took minutes).
FUZZ_SRCS = $(filter-out interbench.c cmd/%.c,$(SRCS))
FUZZ_OBJS = $(addprefix .fuzz/,$(FUZZ_SRCS:.c=.o))
FUZZ_CFLAGS = $(CPPFLAGS) -std=gnu11 $(WARN) -pthread -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-DIB_NO_MLOCK
.fuzz/%.o: %.c
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $(DEPFLAGS) -c -o $@ $<
tests/fuzz-result: tests/fuzz-result.c $(FUZZ_OBJS)
	clang $(FUZZ_CFLAGS) -o $@ tests/fuzz-result.c $(FUZZ_OBJS) $(LDLIBS)

fuzz: tests/fuzz-result
	mkdir -p tests/fuzz-work
	tests/fuzz-result tests/fuzz-work tests/golden \
		-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096

# bench/html-speed.sh's driver of --html's sink
tests/pagebench: tests/pagebench.c $(LIB_OBJS)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $< \
		$(LIB_OBJS) $(LDLIBS)

tests/noise: tests/noise.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $<

tests/fuzz-cli: tests/fuzz-cli.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -MF $@.d -o $@ $<

# CI treats warnings as errors: make check builds everything with -Werror.
# A plain `make check` builds on every CPU (a clean clone builds three
# programs and the units: minutes, one file at a time); make -jN check
# keeps the N given. The tests run under the make that built them, WARN
# on its command line, so that a make a test runs (t0103's install,
# t0051's fuzz target) inherits the same flags and rebuilds nothing.
CHECK_BINS = interbench interbench-asan interbench-tsan tests/fuzz-cli \
	tests/resultcheck tests/noise $(UNITS)
NPROC := $(shell nproc 2>/dev/null || echo 1)
CHECK_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
check check-noisy: WARN += -Werror
check:
	+$(MAKE) $(CHECK_JOBS) WARN='$(WARN)' check-run
check-run: $(CHECK_BINS) interbench.bash
	tests/run

# The same tests while tests/noise steals every CPU the way a host does:
# NOISE is SPIN_MS:PERIOD_MS, a SCHED_FIFO spin on each CPU (doc/testing.txt).
NOISE ?= 3:100
check-noisy:
	+$(MAKE) $(CHECK_JOBS) WARN='$(WARN)' check-noisy-run
check-noisy-run: $(CHECK_BINS) interbench.bash
	IB_NOISE=$(NOISE) tests/run

clean:
	rm -f interbench interbench-asan interbench-tsan tests/fuzz-cli \
		tests/resultcheck tests/noise tests/fuzz-result tests/pagebench \
		interbench.bash \
		$(OBJS) $(UNITS) $(DEPS) tests/fuzz-cli.d tests/noise.d
	rm -rf .asan .tsan .fuzz $(FLAGS_STAMP) tests/fuzz-work

.PHONY: all check check-run check-noisy check-noisy-run clean fuzz install uninstall FORCE

-include $(DEPS)
