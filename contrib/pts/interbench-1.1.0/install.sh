#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Phoronix Test Suite install script for interbench 0.41: builds it from
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
# PTS passes -t, -W and -w; -c keeps the logfile out. The figures PTS
# reads are lines made for machines, "interbench-result: KEY VALUE",
# taken from the run's CSV by column name: the human table above them
# (whatever marks its rows carry: steal, notes) is for people only.
cd interbench-src || exit 1
rm -f pts-result.csv
./interbench -c "$@" --csv pts-result.csv >"$LOG_FILE" 2>&1
status=$?
[ -s pts-result.csv ] && awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
# The status as written: quoted when it holds a comma ("" for a quote).
function status(   s, i) {
	s = $0
	for (i = 1; i < col["status"]; i++)
		sub(/^[^,]*,/, "", s)
	if (s ~ /^"/) {
		s = substr(s, 2); sub(/"(,.*)?$/, "", s); gsub(/""/, "\"", s)
	} else {
		sub(/,.*$/, "", s)
	}
	return s
}
# A cell not measured (failed, skipped) gives no figure: PTS fails it.
$col["status"] != "ok" { print "interbench-cell: " status(); next }
function put(key, name, scale) {
	if ((name in col) && $col[name] != "")
		printf "interbench-result: %s %.6g\n", key, $col[name] / scale
}
{
	put("mean_latency_ms", "latency_mean_us", 1000)
	put("p99_latency_ms", "latency_p99_us", 1000)
	put("max_latency_ms", "latency_max_us", 1000)
	put("desired_cpu_pct", "desired_cpu_pct", 1)
	put("deadlines_met_pct", "deadlines_met_pct", 1)
	put("low_1pct_fps", "fps_low_1pct", 1)
}' pts-result.csv >>"$LOG_FILE"
echo $status >~/test-exit-status
WRAPPER
chmod +x interbench
