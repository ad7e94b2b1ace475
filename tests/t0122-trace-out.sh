#!/bin/sh
# --trace-out: a short traced run's Trace Event Format file checked with
# python3 against the format's documented rules (the shape, each phase's
# fields, slices nested on a track, flows paired, every pid and tid
# named, the late frames' args); the checker catches planted faults;
# --breaktrace's text keeps the header Perfetto's ftrace importer reads.
# Needs root, tracefs and python3: skipped (not passed) without them.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
TFS=/sys/kernel/tracing

test_expect_success '--trace-out is in --help' '
	"$IB" --help >help && has help "^ *--trace-out FILE  "
'

if ! command -v python3 >/dev/null; then
	test_skip '--trace-out' 'needs python3'
	test_done
	exit
fi

# The checker: the Trace Event Format's rules (the JSON Object Format of
# Chrome's "Trace Event Format" document), exact in decimal.
cat >check.py <<'PY'
import json, sys
from decimal import Decimal

def fail(msg):
    print("bad trace: " + msg)
    sys.exit(1)

def num(e, k):
    v = e.get(k)
    if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
        fail("%s: %s is not a number: %r" % (e.get("ph"), k, e))
    return Decimal(v)

def need(e, keys):
    for k in keys:
        if k not in e:
            fail("%s event without %s: %r" % (e["ph"], k, e))

d = json.load(open(sys.argv[1]), parse_float=Decimal)
if not isinstance(d, dict) or not isinstance(d.get("traceEvents"), list):
    fail("no traceEvents array at the top")
if d.get("displayTimeUnit", "ms") not in ("ms", "ns"):
    fail("displayTimeUnit is neither ms nor ns")
ev = d["traceEvents"]
pnames, tnames, used = set(), set(), set()
slices, stacks, flows = {}, {}, {}
late = 0
for e in ev:
    if not isinstance(e, dict) or not isinstance(e.get("ph"), str):
        fail("an event without ph: %r" % (e,))
    ph = e["ph"]
    need(e, ["pid", "tid"])
    for k in ("pid", "tid"):
        if not isinstance(e[k], int) or isinstance(e[k], bool):
            fail("%s is not an integer: %r" % (k, e))
    if ph == "M":
        need(e, ["name", "args"])
        if e["name"] in ("process_name", "thread_name"):
            if not isinstance(e["args"].get("name"), str):
                fail("metadata without args.name: %r" % e)
            (pnames if e["name"] == "process_name" else tnames).add(
                e["pid"] if e["name"] == "process_name" else
                (e["pid"], e["tid"]))
        elif e["name"] not in ("process_sort_index", "thread_sort_index",
                               "process_labels"):
            fail("unknown metadata %r" % e["name"])
        continue
    need(e, ["ts"] if ph == "E" else ["name", "ts"])
    ts = num(e, "ts")
    if ts < 0:
        fail("negative ts: %r" % e)
    key = (e["pid"], e["tid"])
    used.add(key)
    if ph == "X":
        need(e, ["dur"])
        dur = num(e, "dur")
        if dur < 0:
            fail("negative dur: %r" % e)
        slices.setdefault(key, []).append((ts, ts + dur, e["name"]))
        if e.get("cat") == "frame" and e["name"].startswith("worst frame"):
            a = e.get("args", {})
            if (not isinstance(a.get("latency_ms"), (int, Decimal)) or
                    a["latency_ms"] <= 0 or a.get("late") is not True or
                    not a.get("explanation")):
                fail("a late frame without its args: %r" % e)
            late += 1
    elif ph == "B":
        stacks.setdefault(key, []).append((ts, e["name"]))
    elif ph == "E":
        st = stacks.get(key)
        if not st:
            fail("E without its B: %r" % e)
        b, name = st.pop()
        if e.get("name", name) != name:
            fail("E names another slice than its B: %r" % e)
        if ts < b:
            fail("E before its B: %r" % e)
        slices.setdefault(key, []).append((b, ts, name))
    elif ph in ("s", "t", "f"):
        need(e, ["id", "cat"])
        if ph == "f" and e.get("bp", "e") != "e":
            fail("a flow end binds with bp e or none: %r" % e)
        flows.setdefault((e["cat"], str(e["id"])), []).append((ph, ts))
    elif ph in ("i", "I"):
        if e.get("s", "t") not in ("g", "p", "t"):
            fail("instant scope not g, p or t: %r" % e)
    else:
        fail("unknown phase %r" % ph)
for key, st in stacks.items():
    if st:
        fail("B without its E on %r" % (key,))
for key, sl in slices.items():
    sl.sort(key=lambda s: (s[0], -s[1]))
    open_ = []
    for s in sl:
        while open_ and open_[-1][1] <= s[0]:
            open_.pop()
        if open_ and s[1] > open_[-1][1]:
            fail("slices cross on %r: %r and %r" % (key, open_[-1], s))
        open_.append(s)
for k, fl in flows.items():
    phs = [p for p, t in sorted(fl, key=lambda x: x[1])]
    if phs.count("s") != 1 or phs.count("f") != 1 or phs[0] != "s" or \
            phs[-1] != "f":
        fail("flow %r is not one s, then one f: %r" % (k, fl))
for pid, tid in used:
    if pid not in pnames:
        fail("pid %d has no process_name" % pid)
    if (pid, tid) not in tnames:
        fail("pid %d tid %d has no thread_name" % (pid, tid))
if len(sys.argv) > 2 and late < int(sys.argv[2]):
    fail("%d late frames, fewer than %s" % (late, sys.argv[2]))
print("ok events=%d late=%d slices=%d flows=%d" % (len(ev), late,
      sum(len(s) for s in slices.values()), len(flows)))
PY

test_expect_success 'the checker passes a small valid file and catches each planted fault' '
	cat >good.json <<-\JS &&
	{"traceEvents":[
	{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"p"}},
	{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"t"}},
	{"ph":"X","name":"a","ts":10.5,"dur":5,"pid":1,"tid":2},
	{"ph":"X","name":"b","ts":11,"dur":1.25,"pid":1,"tid":2},
	{"ph":"B","name":"c","ts":20,"pid":1,"tid":2},
	{"ph":"E","ts":21,"pid":1,"tid":2},
	{"ph":"s","cat":"w","name":"w","id":1,"ts":11,"pid":1,"tid":2},
	{"ph":"f","cat":"w","name":"w","id":1,"ts":20.001,"bp":"e","pid":1,"tid":2},
	{"ph":"i","name":"m","ts":12,"s":"t","pid":1,"tid":2}
	],"displayTimeUnit":"ms"}
	JS
	python3 check.py good.json >out && has out "^ok events=9 " &&
	for bad in "s/\"dur\":5,//" "s/\"dur\":5/\"dur\":-5/" \
	    "s/\"ts\":11,\"dur\":1.25/\"ts\":14,\"dur\":2/" \
	    "/\"ph\":\"f\"/d" "/\"ph\":\"B\"/d" "/\"ph\":\"E\"/d" \
	    "/thread_name/d" "/process_name/d" "s/\"ts\":10.5/\"ts\":\"10.5\"/" \
	    "s/\"traceEvents\"/\"events\"/" "s/\"name\":\"a\",//"; do
		sed "$bad" good.json >bad.json &&
		! python3 check.py bad.json >out 2>&1 && has out "^bad trace" ||
		{ echo "not caught: $bad"; cat out; return 1; }
	done
'

if ! is_root || ! command -v setpriv >/dev/null; then
	test_skip '--trace-out without root' 'not root, or no setpriv'
else
	test_expect_success '--trace-out without root: one line, exit 3, no file' '
		status_is 3 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$IB" $LPM -t 0.5 -c -W Audio -w None \
			--trace-out /tmp/ib-t0122-$$.json >out 2>err &&
		[ "$(err_lines err)" = 1 ] &&
		has err "^interbench: --trace needs root" &&
		[ ! -s out ] && [ ! -e /tmp/ib-t0122-$$.json ]
	'
fi

test_expect_success '--trace-out into a directory: one line, exit 2, nothing run' '
	mkdir dir &&
	status_is 2 "$IB" $LPM -t 0.5 -c -W Audio -w None --trace-out dir \
		>out 2>err &&
	[ "$(err_lines err)" = 1 ] && has err "^interbench: .*--trace-out" &&
	[ ! -s out ]
'

usable=
if is_root; then
	if grep -q " $TFS tracefs " /proc/self/mounts; then
		[ -d "$TFS/instances" ] && usable=1
	elif mount -t tracefs nodev "$TFS" 2>/dev/null; then
		[ -d "$TFS/instances" ] && usable=1
		umount "$TFS"
	fi
fi
if [ -z "$usable" ]; then
	test_skip '--trace-out on a real run' "no usable tracefs (root, mount -t tracefs)"
	test_done
	exit
fi
# Another interbench tracing (a test in another worktree) holds the
# instance: its run would be refused, not ours to judge.
if [ -d "$TFS/instances/interbench" ]; then
	test_skip '--trace-out on a real run' "$TFS/instances/interbench exists (another run?)"
	test_done
	exit
fi

test_expect_success 'a traced run (--trace-timer: wakeups) writes a file the checker passes' '
	"$IB" $LPM -t 1 -c -W Audio -w Burn --trace-timer --trace-frames 3 \
		--trace-out t.json --json r.json >out 2>&1 &&
	python3 check.py t.json 3 >chk && cat chk &&
	has chk "^ok " &&
	python3 - <<-\PY
	import json
	d = json.load(open("t.json"))
	ev = d["traceEvents"]
	names = [e["args"]["name"] for e in ev if e["ph"] == "M" and
	         e["name"] == "process_name"]
	assert names == ["Audio under Burn, repeat 1"], names
	cats = {e.get("cat") for e in ev}
	# a CPU track with tasks, frames, wakeups as flows
	for c in ("task", "frame", "wakeup"):
	    assert c in cats, (c, cats)
	assert any(e["ph"] == "M" and e["args"].get("name", "").startswith("CPU ")
	           for e in ev)
	# the frames are the JSON'"'"'s worst frames, their latency to the ns
	r = json.load(open("r.json"))
	want = sorted(round(w["latency_us"], 3) for w in
	              r["results"][0]["worst_frames"])
	got = sorted(round(e["dur"], 3) for e in ev
	             if e.get("name", "").startswith("worst frame"))
	assert got == want, (got, want)
	PY
'

test_expect_success '--breaktrace: the saved text keeps the ftrace header; --trace-out marks the frame' '
	status_is 5 "$IB" $LPM -t 1 -c -W Audio -w Burn --breaktrace 1 \
		--trace-out b.json >out 2>&1 &&
	f=$(ls interbench-breaktrace-*.txt) &&
	[ "$(head -n 1 "$f")" = "# tracer: nop" ] &&
	grep -q "^#  *TASK-PID  *CPU#  *|||||  *TIMESTAMP  *FUNCTION" "$f" &&
	grep -q "^#  *| |  *|  *|||||  *|  *|" "$f" &&
	python3 check.py b.json 1 >chk && has chk "^ok " &&
	grep -q "\"breaktrace\":true" b.json
'

# A comm may hold any byte: a culprit named "ib\377\376caf\351" (not
# UTF-8: two bytes never UTF-8, then "cafe" with its e-acute in Latin-1, a
# lead byte the comm's end cuts short) on the benchmark's CPU is written
# as U+FFFD in --trace-out's file, which a strict UTF-8 reader takes, and
# so on the page.
make_culprit || fail "cannot make the culprit"
# lib.sh's culprit under that name: a script's comm is its file's name
BADNAME=$(printf 'ib\377\376caf\351')
ln ibculprit "$BADNAME"
test_expect_success 'a comm that is not UTF-8: escaped in --trace-out and the page' '
	chrt -f 1 taskset -c $CULPRIT_CPU "./$BADNAME" /dev/null culprit.fifo &
	bpid=$!
	taskset -c $CULPRIT_CPU "$IB" $LPM -t 1 -c -W Video -w None --trace \
		--trace-frames 5 --trace-out u.json --html u.html >out 2>&1; rc=$?
	kill $bpid; wait $bpid 2>/dev/null
	[ $rc = 0 ] && python3 check.py u.json 5 >chk && has chk "^ok " &&
	grep -q "\"ib\\\\ufffd\\\\ufffdcaf\\\\ufffd:[0-9]*\"" u.json &&
	python3 -c "import json, sys
json.load(open(sys.argv[1], encoding=\"utf-8\"))" u.json &&
	python3 -c "import sys; t = open(sys.argv[1], encoding=\"utf-8\").read()
assert \"ib\ufffd\ufffdcaf\ufffd:\" in t" u.html
'

test_done
