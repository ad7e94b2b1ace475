#!/bin/sh
# --trace: a culprit of our own is named with its run time; the lines,
# the JSON, --breaktrace; tracefs left exactly as found after a normal
# end, an error and SIGINT; the one-line refusals. Needs root, tracefs
# and jq: skipped (not passed) without them.
# tests/run: alone (it checks that a disturbance it plants is seen).
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
TFS=/sys/kernel/tracing

tracefs_mounted() { grep -q " $TFS tracefs " /proc/self/mounts; }

# Everything --trace may touch, as text: mounts, instances, the top
# instance's tracer and switch.
tracefs_state() {
	grep " tracefs " /proc/self/mounts | awk '{ print $2 }'
	if [ -d "$TFS/instances" ]; then
		ls "$TFS/instances"
		cat "$TFS/current_tracer" "$TFS/tracing_on"
	fi
}

if ! command -v jq >/dev/null || ! command -v bash >/dev/null ||
   ! command -v chrt >/dev/null; then
	test_skip '--trace' 'needs jq, bash and chrt'
	test_done
	exit
fi

# Not root: as is; root: as nobody (setpriv), or skipped.
if ! is_root; then
	NOROOT=
elif command -v setpriv >/dev/null; then
	NOROOT="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	NOROOT=none
fi
if [ "$NOROOT" = none ]; then
	test_skip '--trace without root' 'root, and no setpriv to drop it'
else
	test_expect_success '--trace without root: one line, exit 3, nothing run' '
		status_is 3 $NOROOT "$IB" $LPM -t 0.5 -c -W Audio -w None \
			--trace >out 2>err &&
		[ "$(err_lines err)" = 1 ] && has err "^interbench: --trace needs root" &&
		[ ! -s out ]
	'
fi

test_expect_success '--trace-alternate without a trace, with an odd or auto -n, or with --breaktrace: one line, exit 2' '
	for o in "-n 4" "--trace -n 3" "--trace -n auto" "--trace-timer -n 1" \
	    "--trace -n 4 --breaktrace 1000"; do
		status_is 2 "$IB" $LPM -t 0.3 -c -W Audio -w None $o \
			--trace-alternate >out 2>err &&
		[ "$(err_lines err)" = 1 ] && [ ! -s out ] &&
		has err "^interbench: option --trace-alternate needs --trace or --trace-timer, no --breaktrace, and an even -n$" ||
		{ echo "not refused: $o"; cat out err; return 1; }
	done &&
	status_is 2 "$IB" ab $LPM -t 0.3 -c -W Audio -w None -o alt \
		--trace-alternate >out 2>err &&
	[ "$(err_lines err)" = 1 ] && [ ! -e alt.A.json ] &&
	has err "^interbench: option --trace-alternate is not for ab: its pairs alternate already"
'

# Is tracefs usable here (root, mountable)? Leave it as found.
usable=
if is_root; then
	if tracefs_mounted; then
		[ -d "$TFS/instances" ] && usable=1
	elif mount -t tracefs nodev "$TFS" 2>/dev/null; then
		[ -d "$TFS/instances" ] && usable=1
		umount "$TFS"
	fi
fi
if [ -z "$usable" ]; then
	test_skip '--trace on a real run' "no usable tracefs (root, mount -t tracefs)"
	test_done
	exit
fi
was_mounted=
tracefs_mounted && was_mounted=1
tracefs_mounted || mount -t tracefs nodev "$TFS"
if [ -d "$TFS/instances/interbench" ]; then
	test_skip '--trace on a real run' "$TFS/instances/interbench exists (another run?)"
	[ -n "$was_mounted" ] || umount "$TFS"
	test_done
	exit
fi

make_culprit || fail "cannot make the culprit"
BCPU=$CULPRIT_CPU

test_expect_success 'a culprit on the benchmark CPU is named with about its run time' '
	mkdir "$TFS/instances/ibtest" &&
	echo 1 >"$TFS/instances/ibtest/tracing_on" &&
	chrt -f 1 taskset -c $BCPU ./ibculprit \
		"$TFS/instances/ibtest/trace_marker" culprit.fifo &
	cpid=$!
	sleep 0.3
	# Its comm may show as <...>: the instance records no switches.
	pid=$(sed -n "s/^.*-\([0-9]*\) *\[.*tracing_mark_write: ibculprit$/\1/p" \
		"$TFS/instances/ibtest/trace" | head -n 1)
	rmdir "$TFS/instances/ibtest"
	echo "culprit $cpid, in the trace $pid"
	taskset -c $BCPU "$IB" $LPM -t 2 -c -W Video -w None --trace -v \
		--trace-frames 10 --json "$TRASH/c.json" >out 2>&1; rc=$?
	kill $cpid; wait $cpid 2>/dev/null
	cat out
	[ $rc = 0 ] && [ -n "$pid" ] &&
	# A frame that waited 0.5 ms or more while ibculprit ran for most
	# of the wait, and never for more than it (its time is in the
	# window). The host may steal more than that in one frame, so the
	# worst frame need not be one of its; one of the ten must be.
	jq -e --argjson p "$pid" "[.results[0].worst_frames[] | select(
		.complete and .wait_us >= 500 and
		(.ran_instead[0].comm == \"ibculprit\") and
		(.ran_instead[0].pid == \$p) and
		(.ran_instead[0].us >= 0.5 * .wait_us) and
		(.ran_instead[0].us <= .wait_us + 1))] | length > 0" c.json &&
	grep -q "^          worst [0-9.]* ms: timer +[0-9.e-]*.*; waited [0-9.]* on cpu $BCPU .*behind ibculprit:$pid [0-9.]*" out
'

test_expect_success 'an idle CPU is nobody'"'"'s: idle time apart, its cause named' '
	jq -e ".results[0].worst_frames | all(has(\"timer_idle_us\") and
		has(\"wait_idle_us\") and has(\"idle_cause\") and has(\"host_us\") and
		has(\"throttled_us\") and has(\"throttled_by\") and
		has(\"throttle_inferred\") and has(\"timer_fired_late_us\"))" c.json &&
	jq -e "[.results[0].worst_frames[] | .ran_instead[], .timer_ran_instead[] |
		select(.pid == 0)] | length == 0" c.json &&
	jq -e "[.results[0].worst_frames[] | select(.idle_cause != null) |
		select(.timer_idle_us + .wait_idle_us <= 0)] | length == 0" c.json &&
	# The host, or the cgroup this run is in if its CPU quota ran out.
	jq -e ".system.virtual_machine as \$vm | [.results[0].worst_frames[] |
		select(.idle_cause != null) | .idle_cause] |
		all(. == \"throttled\" or
		    . == (if \$vm then \"host\" else \"idle_exit_or_host\" end))" c.json &&
	jq -e "[.results[0].worst_frames[] | select(.idle_cause == \"throttled\") |
		select(.throttled_us == null)] | length == 0" c.json
'
test_expect_success 'the report lists the worst frames and whose they were' '
	"$IB" report c.json -o c.html &&
	has c.html "Why it was late (--trace): the worst frames" &&
	[ $(sed -n "/Why it was late/,/<\/table>/p" c.html | grep -c "^<tr><td>Video") = 10 ]
'
# The page's table names whom the console's lines name, frame by frame
# (each "comm:pid ms" and "other tasks ms" of line i in row i), and the
# timer part's culprit
# too: a culprit above the timing thread's priority holds its CPU.
Q="'"
same_culprits() {
	grep "^          worst " "$1" >lines &&
	# the page's text, its markup escapes undone (a comm may hold < or &)
	sed -n "/Why it was late/,/<\/table>/p" "$2" | grep "^<tr><td>" |
		sed "s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&#39;/$Q/g; s/&amp;/\&/g" \
		>rows &&
	[ -s lines ] || { echo "$1: no worst lines"; return 1; }
	[ "$(wc -l <lines)" = "$(wc -l <rows)" ] ||
		{ echo "$1: $(wc -l <lines) lines, $2: $(wc -l <rows) rows"; return 1; }
	i=0 && while read -r line; do
		i=$((i + 1))
		row=$(sed -n "${i}p" rows)
		for who in $(echo "$line" | grep -o \
		    "[^ ,;(]*:[0-9][0-9]* [0-9.e+-]*\|other tasks [0-9.e+-]*" |
		    tr " " "@"); do
			case $row in *"$(echo "$who" | tr "@" " ") ms"*) ;;
			*) printf "frame %d: %s not in\n%s\nthe line:\n%s\n" \
				"$i" "$who" "$row" "$line"; return 1 ;; esac
		done
	done <lines
}
# A culprit above every thread of ours, as a user's spinner: a shell
# pinned at SCHED_FIFO 99 that runs ibexec (30 ms of spinning) every
# 0.1 s, a new process each time, which ran as sh until it exec'd.
cat >ibexec <<'EOF'
#!/bin/bash
end=$(( ${EPOCHREALTIME/./} + 30000 ))
while [ ${EPOCHREALTIME/./} -lt $end ]; do :; done
EOF
chmod +x ibexec
chrt -f 99 taskset -c $BCPU sh -c 'while :; do ./ibexec; sleep 0.1; done' &
xpid=$!
taskset -c $BCPU "$IB" $LPM -t 2 -c -W Video -w None --trace -v \
	--trace-frames 5 --html "$TRASH/x.html" --json "$TRASH/x.json" \
	>xout 2>&1
xrc=$?
kill $xpid; wait $xpid 2>/dev/null
test_expect_success 'the page names the culprits the console names, the timer part'"'"'s too' '
	{ [ $xrc = 0 ] || echo "exit status $xrc"; } &&
	same_culprits out c.html && same_culprits xout x.html &&
	grep -q "^          worst [0-9.]* ms: timer +[0-9.e-]* [^;]*behind [^ ]*:[0-9]" xout &&
	grep -q "<td>timer: [^;]*:[0-9]* [0-9.e+-]* ms; wait: " rows ||
	{ tail -n 30 xout; false; }
'
# ibexec ran as ibexec: blamed by the name it had while it ran, not sh,
# the name it was switched in under before its exec.
test_expect_success 'a culprit that exec'"'"'d is named as it ran, not as it was forked' '
	jq -e "[.results[0].worst_frames[] | .ran_instead[], .timer_ran_instead[] |
		select(.comm == \"ibexec\" and .us >= 10000)] | length > 0" x.json &&
	jq -e "[.results[0].worst_frames[] | .ran_instead[], .timer_ran_instead[] |
		select(.comm == \"sh\" and .us >= 5000)] | length == 0" x.json &&
	grep -q "^          worst .* behind \([^;]*, \)*ibexec:[0-9]* [0-9]" xout &&
	has x.html "ibexec:[0-9]* [0-9.e+-]* ms"
'
# The swimlane of each frame, from c.json alone: a frame ibculprit held
# up 0.5 ms or more has its slice (the SVG's data: its pid, on the wait's
# CPU) over at least half of the wait part's width; Chromium draws that
# picture, and the PNG is no blank: many colours, the culprit's among them.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if command -v python3 >/dev/null 2>&1; then
	test_expect_success 'the swimlane: the culprit'"'"'s slice covers the wait part' '
		mkdir svg && "$IB" report c.json -o c.html --svg svg &&
		has c.html "<g class=\"swimlane\"" &&
		cpid=$(jq "[.results[0].worst_frames[] | .ran_instead[] |
			select(.comm == \"ibculprit\") | .pid][0]" c.json) &&
		python3 - "$cpid" svg/*-swimlane-*.svg >covered <<-\EOF &&
		import sys, xml.etree.ElementTree as ET
		ns = "{http://www.w3.org/2000/svg}"
		pid = sys.argv[1]
		for path in sys.argv[2:]:
		    root = ET.parse(path).getroot()
		    lane = root.find(".//" + ns + "g[@class=\"swimlane\"]")
		    wait = root.find(".//" + ns + "g[@class=\"span-wait\"]")
		    if lane is None or wait is None:
		        continue
		    x0, x1 = float(wait.get("data-x0")), float(wait.get("data-x1"))
		    us = float(wait.get("data-to-us")) - float(wait.get("data-from-us"))
		    cov = 0.0
		    for r in root.iter(ns + "rect"):
		        if r.get("class") != "slice" or r.get("data-pid") != pid:
		            continue
		        if r.get("data-cpu") != lane.get("data-cpu"):
		            continue
		        a = float(r.get("x")); b = a + float(r.get("width"))
		        cov += max(0.0, min(b, x1) - max(a, x0))
		    if us >= 500 and cov >= 0.5 * (x1 - x0):
		        print(path, us, x1 - x0, cov)
		EOF
		cat covered && [ -s covered ]
	'
else
	test_skip 'the swimlane: the culprit'"'"'s slice covers the wait part' "python3 is not installed"
fi
if [ -n "$CHROMIUM" ] && command -v python3 >/dev/null 2>&1; then
	test_expect_success 'Chromium draws that swimlane: not blank, the culprit'"'"'s colour in it' '
		svg=$(head -n 1 covered | cut -d" " -f1) && [ -n "$svg" ] &&
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
			--disable-quic --no-first-run --disable-background-networking \
			--disable-component-update --disable-sync \
			--user-data-dir="$(mktemp -d "$TRASH/chr.XXXXXX")" \
			--screenshot="$TRASH/lane.png" --window-size=900,260 \
			"file://$TRASH/$svg" >/dev/null 2>&1
		[ -s lane.png ] && python3 - lane.png >colours <<-\EOF &&
		import sys, struct, zlib
		d = open(sys.argv[1], "rb").read()
		assert d[:8] == b"\x89PNG\r\n\x1a\n"
		i, idat = 8, b""
		while i < len(d):
		    n, t = struct.unpack(">I4s", d[i:i + 8])
		    if t == b"IHDR":
		        w, h, depth, ctype = struct.unpack(">IIBB", d[i + 8:i + 18])
		    if t == b"IDAT":
		        idat += d[i + 8:i + 8 + n]
		    i += 12 + n
		assert depth == 8 and ctype in (2, 6)
		bpp = 3 if ctype == 2 else 4
		raw, stride, prev, seen = zlib.decompress(idat), w * bpp, None, set()
		for y in range(h):
		    f = raw[y * (stride + 1)]
		    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
		    up = prev or bytearray(stride)
		    for x in range(stride):
		        a = line[x - bpp] if x >= bpp else 0
		        b = up[x]; c = up[x - bpp] if x >= bpp else 0
		        if f == 1: line[x] = (line[x] + a) & 255
		        elif f == 2: line[x] = (line[x] + b) & 255
		        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
		        elif f == 4:
		            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
		            pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
		            line[x] = (line[x] + pr) & 255
		    prev = line
		    for x in range(0, stride, bpp):
		        seen.add(bytes(line[x:x + 3]))
		print(len(seen), "colours", "culprit" if b"\xd5\x5e\x00" in seen else "none")
		EOF
		cat colours &&
		[ $(cut -d" " -f1 colours) -gt 8 ] && has colours " culprit$"
	'
else
	test_skip 'Chromium draws that swimlane' "needs chromium and python3"
fi
test_expect_success 'JSON: worst_frames with the keys the issue names, worst first' '
	n=$(jq ".results[0].worst_frames | length" c.json) && [ "$n" = 10 ] &&
	jq -e ".results[0].worst_frames | all(has(\"latency_us\") and
		has(\"timer_us\") and has(\"wait_us\") and has(\"cpu\") and
		has(\"ran_instead\") and has(\"irq_us\") and has(\"softirq_us\"))" c.json &&
	jq -e ".results[0].worst_frames | (.[0].latency_us >= .[1].latency_us) and
		(.[1].latency_us >= .[2].latency_us)" c.json &&
	jq -e ".results[0].worst_frames | all(.timer_us + .wait_us -
		.latency_us | fabs < 0.01)" c.json &&
	jq -e ".results[0].trace_lost_events == 0 and
		.trace.instance == \"$TFS/instances/interbench\" and
		.trace.clock == \"mono\" and (.trace.missing_events | type) == \"array\"" c.json &&
	valid_json c.json
'

test_expect_success 'the worst frame on the console, the rest there with -v, all in the log' '
	"$IB" $LPM -t 1 -W Audio -w None --trace >out 2>&1 &&
	[ "$(grep -c "^          worst " out)" = 1 ] &&
	has out "^          2 more frames explained in the logfile (or -v here)$" &&
	has out "^Logfile: $(uname -r).log (\(created\|appended to\))$" &&
	has "$(uname -r).log" "^          worst [0-9.]* ms: timer" &&
	# three frames unless --trace-frames says otherwise
	[ "$(grep -c "^          worst " "$(uname -r).log")" = 3 ] &&
	has out "^Trace: tracefs instance $TFS/instances/interbench, clock mono"
'

test_expect_success '--trace-frames 5 explains 5' '
	"$IB" $LPM -t 1 -c -W Video -w None --trace-frames 5 --trace \
		--json "$TRASH/f.json" >out 2>&1 &&
	[ "$(jq ".results[0].worst_frames | length" f.json)" = 5 ]
'

test_expect_success '--trace-alternate -n 4: passes 1 and 4 traced, 2 and 3 not (T U U T)' '
	"$IB" $LPM -t 0.3 -n 4 -c -W Audio -w None --trace --trace-alternate \
		--trace-frames 2 --json "$TRASH/alt.json" >out 2>&1 &&
	jq -e "[.results | sort_by(.repeat)[] | has(\"trace_lost_events\")] ==
		[true, false, false, true] and ([.results | sort_by(.repeat)[] |
		.worst_frames | length] == [2, 0, 0, 2])" alt.json
'

# --trace records the events its explanation reads, but not the four on
# every frame's path (hrtimer expiry entry and exit, two wakings):
# --trace-timer adds them, and with them when the timer fired.
test_expect_success '--trace: no timer events, so no "fired late"; the instance had only its own' '
	{ "$IB" $LPM -t 2 -c -W Video -w None --trace --trace-frames 5 \
		--json "$TRASH/n.json" >out 2>&1 & } && pid=$! &&
	wait_proc ib:bench:Video 10 && sleep 0.5 &&
	cat "$TFS/instances/interbench/set_event" >events; wait $pid; rc=$?
	cat events
	[ $rc = 0 ] && has out "clock mono, CPUs [0-9,-]*, timer events off (--trace-timer)" &&
	grep -qx "sched:sched_switch" events &&
	grep -qx "irq:softirq_entry" events &&
	! grep -q "hrtimer\|sched_waking\|sched_wakeup\|timer_expire" events &&
	jq -e ".trace.timer == false and (.results[0].worst_frames |
		length == 5 and all(.timer_fired_late_us == null))" n.json
'
# The two switches on an idle frame's path (the idle task to the timing
# thread, it to the simulated thread) are not recorded: the filter is set,
# the threads have the names it matches, and the frames of an idle cell
# mostly have no event of the trace's in them (each had two). A kernel
# that refuses the filter records them all, and says so.
{ taskset -c $BCPU "$IB" $LPM -t 2 -c -W Audio -w None --trace \
	--trace-frames 10 --json "$TRASH/f.json" >fout 2>&1 & } &&
fpid=$! && wait_proc ib:bench:Audio 10 && sleep 0.5
cat "$TFS/instances/interbench/events/sched/sched_switch/filter" >filter
ps -L -o comm= -p "$(our_procs ib:bench:Audio | head -n 1)" >comms
wait $fpid; frc=$?
if [ $frc = 0 ] && jq -e ".trace.switch_filter == null" f.json >/dev/null; then
	test_expect_success '--trace on a kernel that refuses the filter: every switch recorded, and said' '
		has fout "switches to a periodic task.s threads from idle or its timing thread: recorded"
	'
	test_skip '--trace: the switches on the path not recorded' "this kernel refused the filter"
else
	test_expect_success '--trace: switches to the simulated thread from idle or its timing thread are not recorded' '
		cat filter comms fout
		[ $frc = 0 ] && grep -q "ib:timer:\*" filter &&
		grep -q "ib:sim:\*" filter && grep -qx "ib:timer:Audio" comms &&
		grep -qx "ib:sim:Audio" comms && grep -qx "ib:bench:Audio" comms &&
		jq -e --rawfile f filter ".trace.switch_filter == (\$f | rtrimstr(\"\n\"))" f.json &&
		has fout "switches to a periodic task.s threads from idle or its timing thread: from their stamps" &&
		jq -e "[.results[0].worst_frames[] | select(.trace_events == 0)] |
			length >= 3" f.json
	'
fi
# A frame's parts run on the CPUs the run may use: only there is it
# recorded (tracing_cpumask, hex), so another CPU's events cost nothing.
if [ "$(nproc)" -ge 2 ]; then
	test_expect_success '--trace under taskset -c 1 records on CPU 1 alone' '
		{ taskset -c 1 "$IB" $LPM -t 2 -c -W Video -w Burn --trace \
			--trace-frames 5 --json "$TRASH/c1.json" >out 2>&1 & } &&
		pid=$! && wait_proc ib:bench:Video 10 && sleep 0.5 &&
		cat "$TFS/instances/interbench/tracing_cpumask" >mask; wait $pid; rc=$?
		cat mask out
		[ $rc = 0 ] && [ "$(sed "s/^0*//" mask)" = 2 ] &&
		has out "clock mono, CPUs 1, timer events off" &&
		jq -e ".trace.cpus == \"1\" and (.results[0].worst_frames |
			length == 5 and all(.cpu == 1 and .timer_cpu == 1)) and
			([.results[0].worst_frames[].picture.slices[][0]] |
			length > 0 and all(. == 1))" c1.json
	'
fi
test_expect_success '--trace-timer: its events, and when the timer fired' '
	tracefs_state >before &&
	{ "$IB" $LPM -t 2 -c -W Video -w None --trace-timer --trace-frames 5 \
		--json "$TRASH/m.json" >out 2>&1 & } && pid=$! &&
	wait_proc ib:bench:Video 10 && sleep 0.5 &&
	cat "$TFS/instances/interbench/set_event" >events; wait $pid; rc=$?
	tracefs_state >after
	[ $rc = 0 ] && cmp before after && has out "clock mono, CPUs [0-9,-]*, timer events on;" &&
	grep -qx "timer:hrtimer_expire_entry" events &&
	grep -qx "sched:sched_waking" events && ! grep -q "sched_wakeup" events &&
	jq -e ".trace.timer == true and ([.results[0].worst_frames[] |
		select(.timer_fired_late_us != null)] | length > 0)" m.json
'

test_expect_success 'tracefs as found after a normal end (mounted before)' '
	tracefs_state >before &&
	"$IB" $LPM -t 0.5 -c -W Audio -w None --trace >out 2>&1 &&
	tracefs_state >after && cmp before after
'

test_expect_success '--breaktrace: a marker, the trace saved and named, exit 5' '
	chrt -f 1 taskset -c $BCPU ./ibculprit /dev/null culprit.fifo &
	cpid=$!
	tracefs_state >before
	taskset -c $BCPU "$IB" $LPM -t 2 -c -W Audio -w None --breaktrace 1000 \
		--json "$TRASH/b.json" >out 2>&1; rc=$?
	kill $cpid; wait $cpid 2>/dev/null
	cat out
	tracefs_state >after
	[ $rc = 5 ] && cmp before after &&
	f=$(sed -n "s/.*trace saved to \(interbench-breaktrace-[0-9-]*\.txt\).*/\1/p" out) &&
	[ -s "$f" ] && grep -q "tracing_mark_write: interbench: breaktrace: latency [0-9]* us" "$f" &&
	[ "$(stat -c %a "$f")" = 600 ] &&
	grep -q "sched_switch" "$f" &&
	jq -e ".trace.breaktrace_file == \"$f\" and .interrupted == \"breaktrace\" and
		([.results[0].worst_frames[] | select(.breaktrace)] | length == 1) and
		([.results[0].worst_frames[] | select(.breaktrace)][0].latency_us > 1000)" b.json &&
	has out "^          break [0-9.]* ms: timer"
'

test_expect_success 'tracefs as found after an error (an instance already there is not ours)' '
	mkdir "$TFS/instances/interbench" &&
	tracefs_state >before &&
	"$IB" $LPM -t 0.5 -c -W Audio -w None --trace >out 2>err; rc=$?
	tracefs_state >after
	rmdir "$TFS/instances/interbench"
	[ $rc = 3 ] && cmp before after && [ "$(err_lines err)" = 1 ] &&
	has err "cannot make $TFS/instances/interbench: File exists" && [ ! -s out ]
'

# SIGKILL leaves the instance recording: nothing can catch it. The next
# run, holding the lock, knows it for a killed run's (the state file
# beside the lock names it) and removes it before it measures.
test_expect_success 'a --trace run killed by SIGKILL: the next run removes its instance' '
	tracefs_state >before &&
	{ "$IB" $LPM -t 3 -c -W Audio -w None --trace >k.out 2>&1 & } &&
	pid=$! && wait_proc ib:bench:Audio 10 && sleep 0.3 &&
	kill -KILL $pid && wait_pid $pid 10 &&
	i=0; while [ -n "$(our_procs "ib:*")" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1)); done
	[ -d "$TFS/instances/interbench" ] &&
	[ "$(cat "$TFS/instances/interbench/tracing_on")" = 1 ] &&
	[ -s "$INTERBENCH_LOCK.trace" ] &&
	"$IB" $LPM -t 0.2 -c -W Audio -w None >n.out 2>&1 &&
	has n.out "removed $TFS/instances/interbench, left recording by a killed interbench (pid $pid)" &&
	[ ! -d "$TFS/instances/interbench" ] && [ ! -e "$INTERBENCH_LOCK.trace" ] &&
	tracefs_state >after && cmp before after
'
test_expect_success 'an instance not ours (no state file) is still refused, not removed' '
	mkdir "$TFS/instances/interbench" &&
	"$IB" $LPM -t 0.2 -c -W Audio -w None >n.out 2>&1
	[ -d "$TFS/instances/interbench" ] && hasnt n.out "removed" &&
	rmdir "$TFS/instances/interbench"
'
test_expect_success 'tracefs as found after SIGINT' '
	tracefs_state >before &&
	{ "$IB" $LPM -t 3 -c -W Audio -W Video -w None --trace >out 2>&1 & } &&
	pid=$! && sleep 1.5 &&
	[ -d "$TFS/instances/interbench" ] &&
	kill -INT $pid && wait_pid $pid 10 &&
	tracefs_state >after &&
	[ "$rc" = 130 ] && cmp before after && has out "Interrupted by signal 2" &&
	no_ib_procs
'

# ab with one side traced: each pair says what tracing costs a cell. Our
# events are on only while a traced cell records, so the sides'
# commands, run between cells, always find them off, and A's cells run
# with none of them.
test_expect_success 'ab --b-opts --trace-timer: B traced, A not; our events on only while B records' '
	ev="$TFS/instances/interbench/events/sched/sched_switch/enable" &&
	tev="$TFS/instances/interbench/events/timer/hrtimer_expire_entry/enable" &&
	tracefs_state >before &&
	"$IB" ab $LPM -t 0.3 -n 3 -c -W Audio -w None -o tr \
		--a "cat $ev $tev >>ev.a" --b "cat $ev $tev >>ev.b" \
		--b-opts "--trace-timer --trace-frames 2" >out 2>&1; rc=$?
	tracefs_state >after
	cat out ev.a ev.b
	[ $rc -le 1 ] && cmp before after &&
	has out "^  B traced: tracefs instance .*, timer events on;" &&
	[ "$(sort -u ev.a ev.b)" = 0 ] && [ $(wc -l <ev.b) -ge 2 ] &&
	jq -e ".trace.timer and ([.results[] | .worst_frames | length] == [2, 2, 2])" tr.B.json &&
	jq -e ".trace == null and ([.results[] | .worst_frames] == [null, null, null])" tr.A.json
'

test_expect_success 'ab: --trace common to both sides is refused, one line, exit 2' '
	status_is 2 "$IB" ab $LPM -t 0.3 -c -W Audio -w None -o no --trace >out 2>err &&
	[ $(err_lines err) = 1 ] && has err "option --trace is not for both sides: give it to one (--b-opts --trace)" &&
	status_is 2 "$IB" ab $LPM -t 0.3 -c -W Audio -w None -o no --a-opts -B --trace-timer >out 2>err &&
	has err "option --trace-timer is not for both sides" && [ ! -e no.A.json ]
'

# Unmounted before: mounted by interbench, unmounted again, also on an
# error after the mount.
umount "$TFS"
test_expect_success 'tracefs as found after a normal end (not mounted before)' '
	tracefs_state >before &&
	"$IB" $LPM -t 0.5 -c -W Audio -w None --trace >out 2>&1 &&
	tracefs_state >after && cmp before after && ! tracefs_mounted
'

test_expect_success 'tracefs as found after an error once mounted (not mounted before)' '
	mkdir -p mnt && mount -t tracefs nodev mnt && mkdir mnt/instances/interbench &&
	umount mnt && tracefs_state >before &&
	"$IB" $LPM -t 0.5 -c -W Audio -w None --trace >out 2>err; rc=$?
	tracefs_state >after
	mount -t tracefs nodev mnt && rmdir mnt/instances/interbench; umount mnt
	[ $rc = 3 ] && cmp before after && ! tracefs_mounted
'

test_expect_success 'tracefs as found after SIGINT (not mounted before)' '
	tracefs_state >before &&
	{ "$IB" $LPM -t 3 -c -W Audio -w None --trace >out 2>&1 & } &&
	pid=$! && sleep 1.5 && kill -INT $pid && wait_pid $pid 10 &&
	tracefs_state >after && [ "$rc" = 130 ] && cmp before after &&
	! tracefs_mounted
'
[ -n "$was_mounted" ] && mount -t tracefs nodev "$TFS"

test_done
