#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lava-results.sh - report an interbench run to LAVA: every cell (and
# repeat) of the JSON as a lava-test-case, and its figures that matter
# (mean, p99 and max latency in us, % desired CPU, % deadlines met) as
# test cases with their measurement.
#
#   lava-results.sh RESULT.json [OUTPUT [STATUS]]
#
# OUTPUT is what interbench printed: a cell named in a "FAILED --fail-if"
# line fails. STATUS is interbench's exit status, reported as the case
# "interbench-run". Without lava-test-case on PATH (outside LAVA), the
# calls are printed instead. POSIX sh and awk; reads the JSON as
# interbench writes it (one key a line).
json=$1 out=${2:-/dev/null} status=$3
[ -r "$json" ] || { echo "usage: $0 RESULT.json [OUTPUT [STATUS]]" >&2; exit 2; }

case_cmd=lava-test-case
command -v lava-test-case >/dev/null 2>&1 || case_cmd="echo lava-test-case"

# One line a test case: NAME RESULT [MEASUREMENT UNITS]
awk '
function flush() {
	if (bench == "")
		return
	name = bench "-" load (repeats > 1 ? "-r" rep : "")
	if (status != "ok") {
		print name, (status ~ /^skipped/ ? "skip" : "fail")
	} else {
		print name, (failed[bench " " load] ? "fail" : "pass")
		if ("mean" in lat) print name "-mean-latency", "pass", lat["mean"], "us"
		if ("p99" in lat) print name "-p99-latency", "pass", lat["p99"], "us"
		if ("max" in lat) print name "-max-latency", "pass", lat["max"], "us"
		if (cpu != "") print name "-desired-cpu", "pass", cpu, "%"
		if (met != "") print name "-deadlines-met", "pass", met, "%"
	}
	bench = ""
}
function key(s) { sub(/^ *"/, "", s); sub(/".*/, "", s); return s }
function str(s) { sub(/^[^:]*: *"/, "", s); sub(/",?$/, "", s); return s }
function num(s) { sub(/^[^:]*: */, "", s); sub(/,$/, "", s); return s }
# interbench output: FAILED --fail-if '\''p99>20ms'\'': Audio under Burn has ...
FILENAME == ARGV[1] && /^FAILED --fail-if / {
	sub(/^FAILED --fail-if .*'\'': /, "")
	failed[$1 " " $3] = 1
	next
}
FILENAME == ARGV[1] { next }
/^    "repeats": / { repeats = num($0) + 0 }
/^      "bench": / { flush(); bench = str($0); load = ""; status = ""
	cpu = met = group = ""; split("", lat) }
/^      "load": / { load = str($0) }
/^      "repeat": / { rep = num($0) }
/^      "status": / { status = str($0) }
/^      "desired_cpu_pct": / { v = num($0); cpu = v == "null" ? "" : v }
/^      "deadlines_met_pct": / { v = num($0); met = v == "null" ? "" : v }
/^      "[a-z_]*": \{$/ { group = key($0) }
/^      \},?$/ { group = "" }
group == "latency_us" && /^        "[a-z0-9_]*": / {
	v = num($0); if (v != "null") lat[key($0)] = v
}
END { flush() }
' "$out" "$json" | while read -r name result value units; do
	if [ -n "$value" ]; then
		$case_cmd "$name" --result "$result" --measurement "$value" --units "$units"
	else
		$case_cmd "$name" --result "$result"
	fi
done
if [ -n "$status" ]; then
	if [ "$status" = 0 ]; then r=pass; else r=fail; fi
	$case_cmd interbench-run --result "$r" --measurement "$status" --units "exit-status"
fi
