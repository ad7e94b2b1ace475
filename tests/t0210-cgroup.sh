#!/bin/sh
# The run's own cgroup, on the real thing: a v1 cgroup with a CPU quota
# (nested: the parent's is the tighter), a cpuset of one CPU and a memory
# limit; interbench run inside it names them at the start, marks its
# throttled cells, gates on them, explains a throttled frame as the
# quota's, and the figures agree with the kernel's own counters. A
# cgroup removed mid-run; v2 read from a made-up tree (INTERBENCH_CGROUP_ROOT,
# for the tests only: no v2 hierarchy with controllers here). Every
# cgroup made is removed at the end, failed or not.
. "$(dirname "$0")/lib.sh"

V1=/sys/fs/cgroup
G=ibtest-$$
made=""
# Everything in $1 back to the top, then the group (children first).
# (cgroupfs files have no size: test -s cannot tell an empty one.)
cg_remove() {
	for d in $(find "$1" -depth -type d 2>/dev/null); do
		# a fork can land between emptying and rmdir: again
		i=0
		while [ -d "$d" ] && [ $i -lt 50 ]; do
			for p in $(cat "$d/cgroup.procs" 2>/dev/null); do
				echo "$p" >"${1%/$G*}/cgroup.procs" 2>/dev/null
			done
			rmdir "$d" 2>/dev/null || sleep 0.05
			i=$((i + 1))
		done
	done
}
cleanup() {
	for d in $made; do
		cg_remove "$d"
	done
	rm -rf "$TRASH"
}
trap cleanup EXIT

# jq-less JSON reads: python3 is on every test machine (t0080 uses it).
py() { python3 -c "$@"; }

v1_ok() {
	is_root && [ -w $V1/cpu/cpu.cfs_quota_us ] &&
	[ -w $V1/cpuset/cpuset.cpus ] && [ -w $V1/memory/memory.limit_in_bytes ]
}

if v1_ok; then
	ncpu=$(getconf _NPROCESSORS_ONLN)
	last=$((ncpu - 1))
	# each one made is removed at the end, whatever fails after
	for d in $V1/cpu/$G $V1/cpuset/$G $V1/memory/$G; do
		mkdir $d && made="$made $d"
	done
	mkdir $V1/cpu/$G/job
	echo 30000 >$V1/cpu/$G/cpu.cfs_quota_us
	echo 100000 >$V1/cpu/$G/cpu.cfs_period_us
	# v1 refuses a child a larger quota than its parent's: job has none
	# of its own, and G's binds it
	# RT group scheduling: the timing thread needs its runtime (job's
	# and gone's within G's)
	{ echo 100000 >$V1/cpu/$G/cpu.rt_runtime_us &&
	  echo 50000 >$V1/cpu/$G/job/cpu.rt_runtime_us; } 2>/dev/null
	echo $last >$V1/cpuset/$G/cpuset.cpus
	cat $V1/cpuset/cpuset.mems >$V1/cpuset/$G/cpuset.mems
	echo 1G >$V1/memory/$G/memory.limit_in_bytes
	# in GROUP: run the rest of the line inside the test's cgroups
	in_group() {
		sh -c 'echo $$ >'$V1/cpu/$G/job/cgroup.procs' &&
		echo $$ >'$V1/cpuset/$G/cgroup.procs' &&
		echo $$ >'$V1/memory/$G/cgroup.procs' && exec "$@"' in_group "$@"
	}
	# in_cpu DIR CMD...: run CMD in the cpu cgroup DIR only
	in_cpu() {
		sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$@"
	}
	thr_ns() { awk '$1 == "throttled_time" { print $2 }' $V1/cpu/$G/cpu.stat; }

	trace=""
	grep -q tracefs /proc/filesystems && trace=--trace
	test_expect_success 'inside a quota: named at the start, cells marked, gate broken (exit 1)' '
		t0=$(thr_ns) && s0=$(date +%s.%N) &&
		status_is 1 in_group "$IB" -c -t 1.5 -W Video -w None -w Burn \
			$trace -v --json q.json --csv q.csv \
			--fail-if "throttled>1" >out 2>err &&
		s1=$(date +%s.%N) && t1=$(thr_ns) &&
		echo "$t0 $t1 $s0 $s1" >counters &&
		has out "^Cgroup: cpu /$G/job (v1), cpuset /$G (v1), memory /$G (v1)$" &&
		has out "^Cgroup limits: 1 of $ncpu CPUs usable (cpuset $last); CPU quota 0.3 CPU (cpu.cfs_quota_us 30000/100000 at /$G); memory 1.0 GiB of " &&
		has out "^WARNING: cgroup /$G.s CPU quota is 0.3 CPU" &&
		has out "^Burn .*\[throttled [0-9.e+]* %\]" &&
		has out "cells were throttled by the run.s cgroup" &&
		has out "/$G: cpu.cfs_quota_us 30000/100000" &&
		has out "loads nice 0, 1 burn threads; 1 CPUs"
	'

	test_expect_success 'the JSON: the limits, each cell marked and what throttled it' '
		py "
import json, sys
d = json.load(open(\"q.json\"))
cg = d[\"system\"][\"cgroup\"]
want = {\"cpu_version\": 1, \"cpu_path\": \"/$G/job\", \"cpu_quota_us\": 30000,
        \"cpu_period_us\": 100000, \"cpu_quota_at\": \"/$G\", \"cpu_quota_cpus\": 0.3,
        \"cpuset_cpus\": \"$last\", \"cpus_usable\": 1,
        \"memory_max_bytes\": 1 << 30, \"memory_limit_at\": \"/$G\", \"unread\": None}
bad = {k: (cg.get(k), v) for k, v in want.items() if cg.get(k) != v}
assert not bad, bad
for r in d[\"results\"]:
    i = r[\"interference\"]
    assert r[\"throttled_marked\"] == (i[\"cgroup_throttled_pct\"] > 1), r
    assert i[\"cgroup_throttled_periods\"] >= 0 and i[\"cgroup_oom_kills\"] == 0, i
    assert i[\"cgroup_memory_max_events\"] == 0, i
    # v1 has no memory.high; the v1 cgroup is not v2: no own PSI
    assert i[\"cgroup_memory_high_events\"] is None, i
    if r[\"throttled_marked\"]:
        assert r[\"throttled_by\"] == \"/$G: cpu.cfs_quota_us 30000/100000\", r
burn = [r for r in d[\"results\"] if r[\"load\"] == \"Burn\"][0]
assert burn[\"throttled_marked\"], burn[\"interference\"]
"
	'

	test_expect_success 'the cells throttled no more than the kernel counted over the run' '
		read t0 t1 s0 s1 <counters &&
		py "
import json
d = json.load(open(\"q.json\"))
dur = d[\"settings\"][\"duration_s\"]
cells = sum(r[\"interference\"][\"cgroup_throttled_pct\"] / 100 * dur * 1e9
            for r in d[\"results\"])
run = $t1 - $t0
print(\"cells %.3g s of the run%s %.3g s\" % (cells / 1e9, chr(39) + \"s\", run / 1e9))
# the cells are inside the run; each cell a little longer than -t
assert 0 < cells <= run * 1.15, (cells, run)
" &&
		head -1 q.csv | tr , "\n" | grep -qx interference_cgroup_throttled_pct
	'

	if [ -n "$trace" ]; then
		test_expect_success '--trace: a throttled frame is the quota'"'"'s, not the host'"'"'s' '
			py "
import json
d = json.load(open(\"q.json\"))
# In a throttled cell a late part that found its CPU idle is never the
# host; on a quiet machine (no [busy] mark) some worst frame is such.
t, quiet = [], False
for r in d[\"results\"]:
    if not r[\"throttled_marked\"]:
        continue
    quiet |= not r[\"busy_marked\"]
    for x in r.get(\"worst_frames\", []):
        assert x[\"idle_cause\"] in (None, \"throttled\"), x
        t += [x] if x[\"idle_cause\"] == \"throttled\" else []
assert t or not quiet, \"no throttled frame in a quiet throttled cell\"
open(\"nthr\", \"w\").write(str(len(t)))
for x in t:
    assert x[\"throttled_us\"] > 0 and x[\"throttle_inferred\"] is True, x
    assert x[\"throttled_by\"] == \"cgroup /$G: cpu.cfs_quota_us 30000/100000\", x
" &&
			{ [ "$(cat nthr)" = 0 ] ||
			  has out "cpu idle [0-9.]*: throttled, cgroup /$G: cpu.cfs_quota_us 30000/100000"; }
		'
	else
		test_skip '--trace in a quota' 'no tracefs'
	fi

	test_expect_success '-u in a cpuset without CPU 0: everything on its CPU' '
		in_group "$IB" -c -t 0.3 -W Audio -w None -u >out 2>err &&
		has out "1 CPUs (all on CPU $last)$"
	'

	test_expect_success 'compare says A and B ran under different limits' '
		"$IB" -c -t 0.5 -W Video -w None --json free.json >out 2>&1 &&
		in_group "$IB" -c -t 0.5 -W Video -w None --json lim.json >out 2>&1 &&
		"$IB" compare free.json lim.json >cmp 2>&1; rc=$? &&
		[ $rc = 8 ] && has cmp "system.cgroup.cpu_quota_us *null -> 30000" &&
		has cmp "system.cgroup.cpus_usable"
	'

	test_expect_success 'the group removed mid-run: said once, null after, nothing lost' '
		mkdir $V1/cpu/$G/gone && echo 20000 >$V1/cpu/$G/gone/cpu.cfs_quota_us &&
		{ echo 50000 >$V1/cpu/$G/gone/cpu.rt_runtime_us; } 2>/dev/null
		in_cpu $V1/cpu/$G/gone "$IB" -c -t 0.6 -W Audio -w None -w Burn \
			-n 2 --json gone.json >out 2>&1 &
		pid=$!
		wait_proc "ib:bench:*" && sleep 0.2 &&
		cg_remove $V1/cpu/$G/gone && [ ! -d $V1/cpu/$G/gone ] &&
		wait_pid $pid 60 ||
			{ kill $pid; wait $pid; fail "the run or the removal failed"; }
		[ "$rc" = 0 ] &&
		[ $(grep -c "could not be read" out) = 1 ] &&
		has out "Note: the cgroup.s counters (/$G/gone) could not be read from" &&
		py "
import json
d = json.load(open(\"gone.json\"))
v = [r[\"interference\"][\"cgroup_throttled_pct\"] for r in d[\"results\"]]
assert len(v) == 4 and v[-1] is None, v
"
	'

	test_expect_success '--load-group cgroup: the loads'"'"' group inside the run'"'"'s, under its quota' '
		in_group "$IB" -c -t 2 -W Audio -w Burn --load-group cgroup \
			--json lg.json >out 2>&1 &
		pid=$!
		wait_proc ib:load:Burn && sleep 0.3 &&
		lp=$(our_procs ib:load:Burn | head -n 1) &&
		g=$(ls -d $V1/cpu/$G/job/interbench-* | head -n 1) &&
		grep -qx "$lp" $g/cgroup.procs &&
		wait_pid $pid 30 && [ "$rc" = 0 ] &&
		[ ! -e "$g" ] &&
		has out "^Loads: in their own cgroup v1 $g, cpu.shares" &&
		has out "^Burn .*\[throttled [0-9.e+]* %\]" ||
			{ kill $pid 2>/dev/null; wait $pid; false; }
	'

	test_expect_success 'every cgroup the tests made is left empty; no load group left' '
		for d in $made; do
			for f in $(find $d -name cgroup.procs); do
				[ -z "$(cat $f)" ] || fail "$f holds $(cat $f)"
			done
		done &&
		[ -z "$(ls -d $V1/cpu/$G/job/interbench-* 2>/dev/null)" ]
	'
else
	test_skip 'a v1 cgroup with a quota, a cpuset and a memory limit' \
		'needs root and cgroup v1 cpu, cpuset and memory controllers'
fi

# v2 from a made-up tree: a container's view, its root the namespace's
mk() { mkdir -p "$(dirname "$1")" && printf "%s\n" "$2" >"$1"; }
test_expect_success 'v2 (a made-up tree): limits named, the tightest ancestor binding' '
	T=$TRASH/v2 &&
	mk $T/proc-self-cgroup "0::/ci/job" &&
	mk $T/cgroup.controllers "cpuset cpu io memory pids" &&
	mk $T/ci/cpu.max "40000 100000" && mk $T/ci/memory.max 536870912 &&
	mk $T/ci/job/cpu.max "max 100000" && mk $T/ci/job/cpu.weight 100 &&
	mk $T/ci/job/cpuset.cpus.effective "0" &&
	mk $T/ci/job/memory.max max && mk $T/ci/job/memory.high 268435456 &&
	mk $T/ci/cpu.stat "nr_periods 0
nr_throttled 0
throttled_usec 0" &&
	INTERBENCH_CGROUP_ROOT=$T "$IB" -c -t 0.3 -W Audio -w None --json v2.json >out 2>&1 &&
	has out "^Cgroup: /ci/job (v2)$" &&
	has out "CPU quota 0.4 CPU (cpu.max 40000/100000 at /ci); memory 512 MiB of .* (at /ci), memory.high 256 MiB$" &&
	py "
import json
cg = json.load(open(\"v2.json\"))[\"system\"][\"cgroup\"]
assert cg[\"cpu_version\"] == 2 and cg[\"cpu_weight\"] == 100, cg
assert cg[\"cpu_quota_at\"] == \"/ci\" and cg[\"memory_high_bytes\"] == 1 << 28, cg
"
'

test_expect_success 'v2 odd input: unreadable files are named once, nothing stops' '
	T=$TRASH/odd &&
	mk $T/proc-self-cgroup "0::/ci" &&
	mk $T/cgroup.controllers "cpu memory" &&
	mk $T/ci/cpu.max "lots" && mkdir -p $T/ci/memory.max &&
	INTERBENCH_CGROUP_ROOT=$T "$IB" -c -t 0.3 -W Audio -w None >out 2>&1 &&
	[ $(grep -c "^Cgroup: could not read" out) = 1 ] &&
	has out "could not read cpu.max (not understood), memory.max (Is a directory)" &&
	has out "CPU quota unknown (a level could not be read)"
'

test_done
