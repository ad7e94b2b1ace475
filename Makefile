# SPDX-License-Identifier: GPL-2.0-or-later
# interbench - the Linux interactivity benchmark.
#   make          build ./interbench and its bash completion
#   make check    build, then run every test; ends "N passed, N failed"
#   make install  PREFIX (/usr/local), DESTDIR, BINDIR, MANDIR, BASHCOMPDIR
#   make uninstall  the same variables: removes what install put there

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes
CPPFLAGS += -D_GNU_SOURCE -I.
override CFLAGS += -std=gnu11 $(WARN) -pthread
LDLIBS += -pthread -lrt -lm

SRCS = interbench.c stats.c hackbench.c \
	$(sort $(wildcard lib/*.c core/*.c cli/*.c run/*.c outputs/*.c \
		report/*.c compare/*.c)) \
	$(sort $(wildcard loads/*.c)) $(sort $(wildcard simulators/*.c))
OBJS = $(SRCS:.c=.o)
# Everything but main(), for the unit tests.
LIB_OBJS = $(filter-out interbench.o,$(OBJS))
HDRS = $(wildcard *.h */*.h)

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

%.o: %.c $(HDRS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Unit tests link the module they test (and nothing with a main()).
tests/unit-stats: tests/unit-stats.c stats.c stats.h tests/check.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ tests/unit-stats.c stats.c $(LDLIBS)

tests/unit-json: tests/unit-json.c lib/json.c lib/json.h tests/check.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ tests/unit-json.c lib/json.c $(LDLIBS)

# These test what the rest of interbench does in process, without a run.
tests/unit-%: tests/unit-%.c $(LIB_OBJS) tests/check.h tests/synth.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# The same program built with sanitizers, for the tests. IB_NO_MLOCK: a
# sanitizer's shadow memory must not be locked into RAM.
SAN = -O1 -g -fno-omit-frame-pointer -DIB_NO_MLOCK
interbench-asan: $(SRCS) $(HDRS)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) -pthread $(SAN) \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-o $@ $(SRCS) $(LDLIBS)

interbench-tsan: $(SRCS) $(HDRS)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) -pthread $(SAN) \
		-fsanitize=thread -o $@ $(SRCS) $(LDLIBS)

tests/resultcheck: tests/resultcheck.c $(LIB_OBJS) tests/check.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ tests/resultcheck.c $(LIB_OBJS) $(LDLIBS)

tests/fuzz-cli: tests/fuzz-cli.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $<

# CI treats warnings as errors: make check builds everything with -Werror.
CHECK_BINS = interbench interbench-asan interbench-tsan tests/fuzz-cli \
	tests/resultcheck $(UNITS)
check: WARN += -Werror
check: $(CHECK_BINS) interbench.bash
	tests/run

clean:
	rm -f interbench interbench-asan interbench-tsan tests/fuzz-cli \
		tests/resultcheck interbench.bash \
		$(OBJS) $(UNITS)

.PHONY: all check clean install uninstall
