#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/deps.sh - install the Debian packages of the tools `make check`
# uses where present (the real consumers of interbench's files, the
# checkers and the reference tools), so that no check is skipped for a
# tool Debian has. CI runs it before `make check` (.ci/run); people may
# too:
#
#   sudo sh tests/deps.sh          install what is missing (apt)
#   sh tests/deps.sh --list        the packages, one a line
#
# It installs only as root with apt-get, non-interactively and without
# recommended packages, and never fails: not root, no apt-get, a package
# the archive lacks or a failed download is said in one line and the
# rest goes on (the tests that need a missing tool skip and say so at the
# end of make check). When everything is there it asks the network
# nothing. The package each check needs, by test:
#
#   lava-dispatcher     LAVA's own lava-test-case (t0101-farm); its
#                       lava-common's job schema (t0230-boots)
#   python3-yaml        the LAVA test definition read as YAML (t0101-farm)
#   libxml2-utils       xmllint: JUnit, PTS profile, HTML and SVG files
#   chromium            the report page rendered (t0110)
#   valgrind, cppcheck  t0050, t0052
#   clang, libclang-rt-dev  the clang build and libFuzzer (t0051, t0052)
#   python3-jsonschema  KernelCI's kcidb-io validator (t0105-kcidb)
#   jq                  t0105-kcidb, t0110, t0120, t0121
#   python3             t0030, t0101-farm, t0105-kcidb, t0110
#   perl                TAP::Parser, prove's parser (perl-modules; t0107)
#   util-linux          setpriv, unshare, chrt, taskset
#   bsdutils            script(1): the progress line on a terminal (t0020)
#   bash, procps        the completion (t0103-install, t0121); ps (lib.sh)
#   git                 the bisect run on a scratch repository (t0190)
#   make, gcc, libc6-dev  building, and PTS's install.sh (t0101-farm)
#   rt-tests, rt-app    cyclictest, hackbench and rt-app for bench/
#
# PTS is no Debian package: t0101-farm runs it where PTS_CMD names one.

PKGS="lava-dispatcher python3-yaml libxml2-utils chromium valgrind cppcheck
clang libclang-rt-dev python3-jsonschema jq python3 util-linux bsdutils bash
procps git make gcc libc6-dev rt-tests rt-app perl"

say() { echo "deps.sh: $*"; }

if [ "${1:-}" = --list ]; then
	printf '%s\n' $PKGS
	exit 0
fi
if [ $# -gt 0 ]; then
	say "usage: sh tests/deps.sh [--list]" >&2
	exit 2
fi

installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null |
		grep -q "^install ok installed$"
}

if ! command -v apt-get >/dev/null 2>&1 ||
    ! command -v dpkg-query >/dev/null 2>&1; then
	say "no apt-get here: installing nothing; checks whose tool is missing are skipped (the end of make check lists them)"
	exit 0
fi
missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	say "all $(printf '%s\n' $PKGS | wc -l) packages are installed"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	say "not root: not installing$missing (as root: sh tests/deps.sh); their checks are skipped (the end of make check lists them)"
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
start=$(date +%s)
say "apt-get update"
apt-get -q update >/dev/null 2>&1 ||
	say "apt-get update failed; trying the lists there are"
# Only what the archive has: one missing name would make apt refuse all.
want=""
for p in $missing; do
	if apt-cache show "$p" >/dev/null 2>&1; then
		want="$want $p"
	else
		say "the archive has no package $p: not installed"
	fi
done
if [ -z "$want" ]; then
	say "nothing to install"
	exit 0
fi
say "installing$want"
log=$(mktemp) || log=/dev/null
if apt-get -q -y --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    install $want >"$log" 2>&1; then
	say "installed in $(($(date +%s) - start)) s"
else
	say "apt-get install failed (its last lines below); going on without"
	tail -n 5 "$log" | sed 's/^/deps.sh:   /'
fi
[ "$log" = /dev/null ] || rm -f "$log"
for p in $want; do
	installed "$p" || say "still missing: $p"
done
exit 0
