#!/bin/sh
# --kcidb FILE: a KernelCI KCIDB report from a real run (and one a side
# from ab), validated by KernelCI's own validator, kcidb-io, unpacked
# from ../shared/anchors at test time (it is not part of interbench): a
# checkout and a build for the running kernel, a test per cell and
# figure with its median and its repeats, the boot and the process, DONE
# or PASS/FAIL by --fail-if, cells not measured as ERROR or SKIP; whole
# after every cell; bad input refused first. Skipped only without
# python3's jsonschema (Debian's python3-jsonschema) or without the
# tarball. It measures: its assertions need every cell of a real run
# measured, which beside part 1's builds and fuzz failed once (a Burn
# load that did no work in a cell, exit 7 for 1), so it runs on its own.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
TOP=$(cd "$TESTS_DIR/.." && pwd)
KCIDB_IO=${KCIDB_IO:-$TOP/../shared/anchors/kcidb-io-8971c02.tar.gz}
RUN="$LPM -c -t 0.25"

why=""
if ! python3 -c "import jsonschema" 2>/dev/null; then
	why="python3's jsonschema is not installed (apt-get install python3-jsonschema)"
elif [ ! -f "$KCIDB_IO" ]; then
	why="no kcidb-io at $KCIDB_IO"
elif ! mkdir kio || ! tar xzf "$KCIDB_IO" -C kio ||
    ! [ -d kio/kcidb-io/kcidb_io ]; then
	why="$KCIDB_IO does not unpack to kcidb-io/kcidb_io"
fi
if [ -n "$why" ]; then
	test_skip 'the KCIDB report, validated by kcidb-io' "$why"
	test_done
	exit
fi
KIO=$TRASH/kio/kcidb-io

# kcidb-io's own validation of each file, as KernelCI runs it, and that
# the file claims the latest schema exactly (5.3, not an older one that
# validate() would also take).
kcidb_valid() {
	for f in "$@"; do
		(cd "$KIO" && python3 -c 'import kcidb_io, json, sys; kcidb_io.schema.LATEST.validate(json.load(open(sys.argv[1])))' "$TRASH/$f") ||
			fail "kcidb-io refuses $f"
		(cd "$KIO" && python3 -c '
import kcidb_io, json, sys
d = json.load(open(sys.argv[1]))
v = kcidb_io.schema.LATEST
assert (v.major, v.minor) == (5, 3), (v.major, v.minor)
assert v.is_compatible_exactly(d), d["version"]
' "$TRASH/$f") || fail "$f does not claim schema 5.3"
	done
}

# The report's facts, checked with python3 (which kcidb-io needs too).
cat >facts.py <<'EOF'
import json, math, sys

def load(name):
    with open(name) as f:
        return json.load(f)

def tests_of(d):
    return {t["path"]: t for t in d["tests"]}

def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2

def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12)

def shape(name, ncells, repeats):
    """One checkout and build linked; every test's id unique, on the
    build; a test per figure of each cell, each a median of repeats."""
    d = load(name)
    ncells, repeats = int(ncells), int(repeats)
    (co,), (b,) = d["checkouts"], d["builds"]
    assert co["origin"] == b["origin"] == "interbench"
    assert co["id"].startswith("interbench:") and co["valid"] is True
    assert b["checkout_id"] == co["id"] and b["status"] == "PASS"
    ids = [t["id"] for t in d["tests"]]
    assert len(ids) == len(set(ids)), "test ids repeat"
    cells = set()
    for t in d["tests"]:
        assert t["origin"] == "interbench" and t["build_id"] == b["id"]
        assert t["id"].startswith(b["id"] + "/")
        p = t["path"].split(".")
        assert p[0] == "interbench" and len(p) in (3, 4), t["path"]
        cells.add((p[1], p[2]))
        if len(p) == 3:
            continue
        m = t["misc"]
        assert m["repeats_run"] == repeats, m
        vals = [r["value"] for r in m["repeats"] if "value" in r]
        assert len(m["repeats"]) == repeats and vals, m
        assert close(t["number"]["value"], median(vals)), t["path"]
        assert all("steal_pct" in r for r in m["repeats"]), t["path"]
    assert len(cells) == ncells, cells
    return d

def units(name):
    """Times in seconds with a metric prefix, percentages in %."""
    ts = tests_of(load(name))
    for path, t in ts.items():
        if path.endswith(("latency_p99", "latency_max", "frame_time_p99")):
            assert t["number"]["unit"] == "s", path
            assert t["number"]["prefix"] == "metric", path
            assert 0 < t["number"]["value"] < 10, path
        if path.endswith(("_pct",)):
            assert t["number"]["unit"] == "%", path
            assert 0 <= t["number"]["value"] <= 100, path

def against_json(kcidb, result, figure, group, key, scale):
    """A test's number is the median of the result file's repeats."""
    ts = tests_of(load(kcidb))
    scale = float(scale)
    per = {}
    for r in load(result)["results"]:
        if r.get("status", "ok") != "ok":
            continue
        v = r[group][key] if group else r[key]
        per.setdefault((r["bench"], r["load"]), []).append(v)
    assert per
    for (b, l), v in per.items():
        t = ts["interbench.%s.%s.%s" % (b, l, figure)]
        assert close(t["number"]["value"], median(v) * scale), \
            (b, l, t["number"]["value"], median(v) * scale)

def statuses(name, *want):
    """Each test's status by its figure: FIG=STATUS ...; others DONE."""
    want = dict(w.split("=") for w in want)
    seen = {}
    for t in load(name)["tests"]:
        fig = t["path"].split(".")[-1]
        exp = want.get(fig, "DONE")
        assert t["status"] == exp, (t["path"], t["status"], exp)
        seen[fig] = t
    for fig, st in want.items():
        assert fig in seen, fig
        if st == "FAIL":
            assert "--fail-if" in seen[fig]["log_excerpt"], seen[fig]

def times(name):
    """start_time and the build's started/finished: RFC 3339 UTC."""
    import re
    rfc = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
    d = load(name)
    got = [t["start_time"] for t in d["tests"]]
    got += [d["builds"][0]["misc"][k] for k in ("started", "finished")]
    assert got and all(rfc.match(t) for t in got), got

def ids(name):
    d = load(name)
    print(d["builds"][0]["id"])
    for t in d["tests"]:
        print(t["id"])

def cell(name, path, status, text):
    t = tests_of(load(name))[path]
    assert t["status"] == status, t
    assert text in t["log_excerpt"], t["log_excerpt"]
    assert "number" not in t

def misc(name, key, value):
    b = load(name)["builds"][0]
    assert str(b["misc"].get(key)) == value, b["misc"]

globals()[sys.argv[1]](*sys.argv[2:])
EOF
facts() { python3 "$TRASH/facts.py" "$@"; }

test_expect_success 'a run with repeats and gates writes its KCIDB report' '
	measured "$IB" $RUN -n 3 -W audio -W gaming -w none -w burn \
		--fail-if "p99>=0ns" --fail-if "max>10s" --kcidb k.json \
		--json k.res.json >out 2>&1
	rc=$?; [ $rc = 1 ] || { cat out; fail "exit status $rc, wanted 1"; }
	[ -s k.json ]
'

test_expect_success 'kcidb-io validates it, as schema 5.3' 'kcidb_valid k.json'

test_expect_success 'kcidb-io refuses a report broken on purpose (the check can fail)' '
	sed "s/\"path\": \"interbench.Audio.None.latency_p99\"/\"path\": \"interbench.Audio.None.p99 latency\"/" \
		k.json >bad1.json && ! cmp -s k.json bad1.json &&
	! (kcidb_valid bad1.json) >/dev/null 2>&1 &&
	sed "s/\"origin\": \"interbench\"/\"origin\": \"Interbench\"/" \
		k.json >bad2.json && ! cmp -s k.json bad2.json &&
	! (kcidb_valid bad2.json) >/dev/null 2>&1 &&
	sed "0,/\"value\": [0-9.e+-]*/s//\"value\": null/" \
		k.json >bad3.json && ! cmp -s k.json bad3.json &&
	! (kcidb_valid bad3.json) >/dev/null 2>&1
'

# jsonschema checks a "date-time" only with rfc3339_validator, which
# KernelCI's kcidb-io installs (jsonschema[format]) and Debian 12 does not
# package: the report's times are checked as RFC 3339 here either way.
test_expect_success 'every time in the report is RFC 3339' 'facts times k.json'
if python3 -c "import rfc3339_validator" 2>/dev/null; then
	test_expect_success 'kcidb-io, with its date-time check, refuses a time that is not one' '
		sed "0,/\"start_time\": \"[^\"]*\"/s//\"start_time\": \"yesterday\"/" \
			k.json >bad4.json && ! cmp -s k.json bad4.json &&
		! (kcidb_valid bad4.json) >/dev/null 2>&1
	'
else
	test_skip 'kcidb-io, with its date-time check, refuses a time that is not one' \
		'no rfc3339_validator for python3 (not a Debian 12 package; pip install rfc3339-validator)'
fi

test_expect_success 'a checkout and a build, a test per cell and figure, each the median of its repeats' '
	facts shape k.json 4 3 &&
	has k.json "\"path\": \"interbench.Audio.Burn.latency_p99\"" &&
	has k.json "\"path\": \"interbench.Gaming.None.fps_low_1pct\"" &&
	has k.json "\"kernel_release\": \"$(uname -r)\"" &&
	has k.json "\"architecture\": \"$(uname -m | tr A-Z- a-z_)\""
'

test_expect_success 'numbers: times in seconds (metric prefix), the result file'"'"'s medians' '
	facts units k.json &&
	facts against_json k.json k.res.json latency_p99 latency_us p99 1e-6 &&
	facts against_json k.json k.res.json desired_cpu_pct "" desired_cpu_pct 1
'

test_expect_success 'a figure a --fail-if gate judged is PASS or FAIL (with the gate), the rest DONE' '
	facts statuses k.json latency_p99=FAIL latency_max=PASS &&
	has k.json "\"log_excerpt\": \"--fail-if .p99>=0ns.: Audio under None has"
'

test_expect_success 'ids: stable through the run, unique between runs' '
	# not "measured_begin && RUN &": that puts both in the background
	measured_begin || fail "the measuring lock"
	nice -n $TO_NICE0 "$IB" $LPM -c -t 1 -n 3 -W audio -w none -w burn -w ring --kcidb i.json >out 2>&1 9>&- &
	pid=$! && i=0 &&
	while ! grep -q "\"path\": \"interbench.Audio.None" i.json 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "no test after 10 s"; sleep 0.05
	done &&
	cp i.json mid.json && kill -INT $pid && wait_pid $pid 10 && measured_end &&
	[ $rc = 130 ] && kcidb_valid mid.json i.json &&
	facts ids mid.json >ids1 && facts ids i.json >ids2 &&
	facts misc i.json interrupted "signal 2" &&
	# what the first cell had, the end has under the same ids
	[ "$(head -n 1 ids1)" = "$(head -n 1 ids2)" ] &&
	sort ids1 >s1 && sort ids2 >s2 && ! comm -23 s1 s2 | grep . &&
	measured "$IB" $RUN -W audio -w none --kcidb j.json >out 2>&1 &&
	facts ids j.json >ids3 && [ "$(head -n 1 ids3)" != "$(head -n 1 ids1)" ] &&
	! sort ids2 ids3 | uniq -d | grep .
'

test_expect_success 'the golden report (repeats failed and skipped, gates) validates too' '
	cp "$TESTS_DIR/golden/B.kcidb.json" g.json && kcidb_valid g.json &&
	grep -q "\"status\": \"ERROR\"" g.json && grep -q "\"status\": \"FAIL\"" g.json &&
	grep -q "\"status\": \"PASS\"" g.json && grep -q "\"status\": \"DONE\"" g.json
'

test_expect_success 'ab: a report per side (k.json: k.A.json, k.B.json), one checkout, a build each' '
	measured "$IB" ab $RUN -n 3 -W audio -w none -o ab --kcidb abk.json >out 2>&1
	rc=$?; [ $rc = 0 ] || [ $rc = 1 ] || { cat out; fail "exit $rc"; }
	[ ! -e abk.json ] && kcidb_valid abk.A.json abk.B.json &&
	facts shape abk.A.json 1 3 && facts shape abk.B.json 1 3 &&
	ca=$(sed -n "/\"checkouts\"/,/\"builds\"/s/.*\"id\": \"\(.*\)\",/\1/p" abk.A.json | head -n 1) &&
	cb=$(sed -n "/\"checkouts\"/,/\"builds\"/s/.*\"id\": \"\(.*\)\",/\1/p" abk.B.json | head -n 1) &&
	[ -n "$ca" ] && [ "$ca" = "$cb" ] &&
	has abk.A.json "\"id\": \"$ca/A\"" && has abk.B.json "\"id\": \"$ca/B\"" &&
	has abk.B.json "\"config_name\": \"interbench ab side B\"" &&
	facts ids abk.A.json >ia && facts ids abk.B.json >ib &&
	! sort ia ib | uniq -d | grep . &&
	has out "KCIDB abk.A.json"
'

test_expect_success 'sweep: a report per state (k.json: k.base.json, k.NAME.json), one checkout, a build each' '
	measured "$IB" sweep $RUN -n 3 -W audio -w none -o sw --kcidb swk.json \
		--candidate a-a --candidate n19 --opts "-N 19" >out 2>&1
	rc=$?; [ $rc = 0 ] || [ $rc = 1 ] || { cat out; fail "exit $rc"; }
	[ ! -e swk.json ] && kcidb_valid swk.base.json swk.a-a.json swk.n19.json &&
	co() { sed -n "/\"checkouts\"/,/\"builds\"/s/.*\"id\": \"\(.*\)\",/\1/p" "$1" | head -n 1; } &&
	c=$(co swk.base.json) && [ -n "$c" ] && case $c in *"/sweep/"*) ;; *) false ;; esac &&
	[ "$(co swk.a-a.json)" = "$c" ] && [ "$(co swk.n19.json)" = "$c" ] &&
	has swk.base.json "\"id\": \"$c/base\"" && has swk.n19.json "\"id\": \"$c/n19\"" &&
	has swk.a-a.json "\"config_name\": \"interbench sweep state a-a\"" &&
	has swk.n19.json "\"sweep_state\": \"n19\"" &&
	facts ids swk.base.json >ia && facts ids swk.a-a.json >ib && facts ids swk.n19.json >ic &&
	! sort ia ib ic | uniq -d | grep . &&
	has out "^Wrote swk.n19.json (the results as a KCIDB report)$"
'

# KCIDB has no boot: each test's environment carries it (runs of one boot
# are not independent), the build the process (ab's sides share it).
test_expect_success 'the boot on every test, the invocation on the build' '
	boot=$(cat /proc/sys/kernel/random/boot_id) &&
	[ $(grep -c "\"boot_id\": \"$boot\"" k.json) = \
	  $(grep -c "\"environment\": {" k.json) ] &&
	[ $(grep -c "\"environment\": {" k.json) -gt 4 ] &&
	inv() { sed -n "s/^ *\"invocation\": \"\(.*\)\"[,]*\$/\1/p" "$1"; } &&
	[ -n "$(inv k.json)" ] && [ "$(inv k.json)" = "$(inv k.res.json)" ] &&
	a=$(inv abk.A.json) && [ -n "$a" ] && [ "$a" = "$(inv abk.B.json)" ] &&
	[ "$a" != "$(inv k.json)" ] && [ "$(inv ab.A.json)" = "$a" ] ||
		fail "invocations: $(inv k.json) $(inv k.res.json) $a" \
			"$(inv abk.B.json)"
'

if unshare -n true 2>/dev/null; then
	test_expect_success 'a cell whose load failed is an ERROR test, with why' '
		measured unshare -n "$IB" $RUN -W audio -w net -w none --kcidb e.json >out 2>&1
		rc=$?; [ $rc = 4 ] || fail "exit status $rc, wanted 4"
		kcidb_valid e.json &&
		facts cell e.json interbench.Audio.Net ERROR "load failed: no loopback network"
	'
else
	test_skip 'a cell whose load failed is an ERROR test' 'cannot make a network namespace'
fi

if is_root && mkdir tiny && mount -t tmpfs -o size=16m tmpfs tiny 2>/dev/null; then
	test_expect_success 'a skipped cell is a SKIP test, with why' '
		measured "$IB" $RUN -W audio -w write -w none -D tiny --kcidb s.json >out 2>&1
		rc=$?; [ $rc = 4 ] || fail "exit status $rc, wanted 4"
		kcidb_valid s.json &&
		facts cell s.json interbench.Audio.Write SKIP "skipped:"
	'
	umount tiny
else
	test_skip 'a skipped cell is a SKIP test' 'needs root to mount a small tmpfs'
fi

test_expect_success 'bad input: one line naming it, exit 2, nothing run or written' '
	cp "$TOP/contrib/rtapp/periodic.json" rt.json &&
	for bad in "--json x.json --kcidb ./x.json" "--junit x.xml --kcidb x.xml" \
		"-W rtapp:rt.json --kcidb rt.json" "-w rtapp:rt.json --kcidb ./rt.json" \
		"--kcidb /nonexistent/k.json" "--kcidb"; do
		status_is 2 "$IB" $RUN -W audio -w none $bad >out 2>err ||
			fail "$bad"
		[ $(wc -l <err) = 1 ] && [ ! -s out ] || { cat err; fail "$bad"; }
		has err "^interbench: option" || return 1
	done &&
	cmp -s rt.json "$TOP/contrib/rtapp/periodic.json" &&
	[ ! -e x.json ] && [ ! -e x.xml ] &&
	status_is 2 "$IB" ab $RUN -n 3 -W audio -w none -o p --kcidb p.json >out 2>err &&
	[ $(wc -l <err) = 1 ] && has err "options --json and --kcidb name one file, p.A.json" &&
	[ ! -e p.A.json ] && [ ! -e p.B.json ]
'

if command -v jq >/dev/null 2>&1; then
	test_expect_success 'doc/farms.txt'"'"'s jq for a farm'"'"'s own origin and build: still valid' '
		sed -n "/^    jq .(.checkouts\[\]/,/attached.json\$/s/^    //p" \
			"$TOP/doc/farms.txt" >farm.sh &&
		[ $(grep -c "^jq " farm.sh) = 2 ] && cp k.json kcidb.json &&
		sh farm.sh && kcidb_valid submit.json attached.json &&
		hasnt submit.json "interbench:" && has submit.json "\"origin\": \"myci\"" &&
		has attached.json "\"build_id\": \"myci:BUILD\"" &&
		hasnt attached.json "\"checkouts\""
	'
else
	test_skip 'doc/farms.txt'"'"'s jq for a farm'"'"'s own origin' 'jq is not installed (apt-get install jq)'
fi

test_expect_success 'nothing was left running' 'no_ib_procs'
test_done
