#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Phoronix Test Suite install script for interbench 0.40: builds it from
# the source in $INTERBENCH_SRC (a checkout or an unpacked tarball; PTS
# runs this in the test's install directory) and writes the `interbench`
# wrapper PTS runs: one task (-W) under one load (-w) with -v, so that the
# table has one row whose columns results-definition.xml reads.
src=${INTERBENCH_SRC:-}
if [ -z "$src" ]; then
	for t in interbench-*.tar.gz; do
		[ -f "$t" ] && tar -xzf "$t" && src=$(tar -tzf "$t" | head -n 1)
	done
fi
[ -n "$src" ] && [ -f "$src/interbench.c" ] || {
	echo "set INTERBENCH_SRC to interbench's source directory" >&2
	exit 1
}
rm -rf interbench-src && mkdir interbench-src &&
	cp -R "$src"/. interbench-src/ &&
	make -C interbench-src clean >/dev/null &&
	make -C interbench-src interbench || exit 1

cat >interbench <<'WRAPPER'
#!/bin/sh
# PTS passes -t, -W and -w; -c keeps the logfile out, -v adds p99.
cd interbench-src || exit 1
./interbench -c -v "$@" >"$LOG_FILE" 2>&1
echo $? >~/test-exit-status
WRAPPER
chmod +x interbench
