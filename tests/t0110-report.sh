#!/bin/sh
# The pictures: `interbench report`, --html on a run and compare --html.
# Pages and SVG files are well-formed (xmllint, where installed); the
# counts of cells, curves, dots and points match the JSON; files of one
# boot and process, or of several, are said so; a real browser
# (headless Chromium, where installed) renders them to a PNG of the size
# asked that is not blank; bad input is a one-line error, exit 2, and no
# page, half-written or not.
# tests/run: in parallel (its two measuring runs go through measured).
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
HAVE_XMLLINT=
command -v xmllint >/dev/null 2>&1 && HAVE_XMLLINT=1
NO_XMLLINT="xmllint is not installed (apt-get install libxml2-utils)"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
NO_CHROMIUM="chromium is not installed (apt-get install chromium)"
HAVE_PY=
command -v python3 >/dev/null 2>&1 && HAVE_PY=1
mk() { sh "$TESTS_DIR/mkresult.sh" "$@"; }

# How many times $2 occurs in file $1.
count() { grep -o -- "$2" "$1" | wc -l; }

test_expect_success 'a run with --html writes the page (and every result its windows)' '
	measured "$IB" $LPM -n 2 -t 0.5 -c -W audio -W gaming -w none -w burn \
		--json r.json --html r.html >out 2>&1 || { cat out; fail "run"; }
	# every file said as every command says it: "Wrote PATH (WHAT)"
	has out "^Wrote r.json (the results as JSON)$" &&
	has out "^Wrote r.html (the run.s page)$" &&
	head -n 1 r.html | grep -q "^<!DOCTYPE html>$" &&
	has r.html "</html>" &&
	[ $(count r.json "\"worst_by_window_us\"") = 8 ] &&
	[ $(count r.json "\"window_ms\": 3") = 8 ]
'

test_expect_success 'interbench report draws the same run, with --svg' '
	mkdir svgs &&
	"$IB" report r.json -o p.html --svg svgs >out 2>err &&
	[ ! -s err ] &&
	unmarked out >out.u &&
	[ "$(sed -n 1p out.u)" = "Wrote p.html (the page of 1 file)" ] &&
	[ "$(sed -n 2p out.u)" = "Wrote svgs (each picture as an SVG file)" ] &&
	[ $(wc -l <out.u) = 2 ] &&
	head -n 1 p.html | grep -q "^<!DOCTYPE html>$" &&
	[ $(ls svgs | wc -l) -ge 12 ] &&
	! grep -q "<script\|src=\|href=" p.html
'

test_expect_success 'report of two files lists first the settings recorded differently' '
	sed "s/\"load_nice\": 0/\"load_nice\": 5/" r.json >r5.json &&
	"$IB" report r.json r5.json -o two.html >out 2>err && [ ! -s err ] &&
	[ "$(sed -n 1p out)" = "Settings recorded differently in r.json and r5.json:" ] &&
	grep -q "^  settings.load_nice  *0 -> 5$" out &&
	[ "$(tail -n 1 out)" = "Wrote two.html (the page of 2 files)" ] &&
	grep -q "<h2>Settings recorded differently</h2>" two.html &&
	# side by side, and said to be no verdict, on the page and the console
	[ "$(tail -n 2 out | head -n 1)" = "The files are drawn side by side, not judged: \`interbench compare r.json r5.json --html FILE\` says whether the second is better or worse, cell by cell." ] &&
	grep -q "<h2>The files side by side</h2>" two.html &&
	has two.html "it does not judge them: whether the second is better or worse" &&
	[ $(count two.html "<title>% deadlines met (periodic tasks), % desired CPU (others), file by file</title>") = 1 ] &&
	has two.html ">None 1<" && has two.html ">Burn 2<" &&
	grep -q "<td>settings.load_nice</td><td>0</td><td>5</td>" two.html &&
	# the scheduling row names autogroup and RT throttling too
	grep -q "autogroup o[nf]*, RT throttling [0-9-]* us/s" two.html
'

# Where each file was measured: ab's A and B (or a file twice) are one
# boot and one process; nightly files a boot each; older files neither.
test_expect_success 'report of files of one boot and one process says so in a line' '
	b=$(head -c 8 /proc/sys/kernel/random/boot_id) &&
	i=$(sed -n "s/^    \"invocation\": \"\(........\).*/\1/p" r.json) &&
	[ -n "$i" ] &&
	has out "^The 2 files come from 1 boot and 1 invocation (boot $b, invocation $i)$" &&
	has two.html "<h2>Boots and invocations</h2>" &&
	hasnt two.html "<th>boot</th>"
'

test_expect_success 'files of other boots and processes: each one'"'"'s, and how many' '
	b=$(head -c 8 /proc/sys/kernel/random/boot_id) &&
	sed "s/\"invocation\": \"[^\"]*\"/\"invocation\": \"1111aaaa-0000\"/" \
		r.json >inv.json &&
	sed "s/\"invocation\": \"[^\"]*\"/\"invocation\": \"2222bbbb-0000\"/;
	     s/\"boot_id\": \"[^\"]*\"/\"boot_id\": \"3333cccc-0000\"/" \
		r.json >boot.json &&
	grep -v "\"boot_id\"\|\"invocation\"" r.json >old.json &&
	"$IB" report r.json inv.json boot.json old.json -o lv.html >out 2>err &&
	[ ! -s err ] &&
	has out "^The 4 files come from 2 boots and 3 invocations (1 file records neither):$" &&
	has out "^  inv.json   boot $b  invocation 1111aaaa$" &&
	has out "^  boot.json  boot 3333cccc  invocation 2222bbbb$" &&
	has out "^  old.json   boot -         invocation -$" &&
	[ $(grep -c "^  [a-z]*\.json  *boot " out) = 4 ] &&
	has lv.html "<tr><td>boot.json</td><td>3333cccc</td><td>2222bbbb</td></tr>" &&
	# the boot and the invocation are not settings that differ
	hasnt out "boot_id\|system.invocation"
'

if [ -n "$HAVE_XMLLINT" ]; then
	test_expect_success 'every page and SVG file is well-formed (xmllint)' '
		xmllint --noout r.html p.html two.html lv.html svgs/*.svg
	'
else
	test_skip 'every page and SVG file is well-formed' "$NO_XMLLINT"
fi

test_expect_success 'the matrix has a cell per cell of the JSON' '
	m=$(ls svgs/*-map-matrix.svg) &&
	[ $(count "$m" "<g class=\"cell\">") = 4 ] &&
	has "$m" ">Audio<" && has "$m" ">Burn<"
'

test_expect_success 'a CDF and a tail curve per measured cell, a dot per repeat' '
	[ $(cat svgs/*-cdf-*.svg | grep -c "<g class=\"curve\"") = 4 ] &&
	[ $(cat svgs/*-tail-*.svg | grep -c "<g class=\"curve\"") = 4 ] &&
	[ $(cat svgs/*-cdf-*.svg | grep -o "class=\"mark\"" | wc -l) = 12 ] &&
	[ $(cat svgs/*-repeats-*.svg | grep -o "class=\"rep\"" | wc -l) = 8 ]
'

if [ -n "$HAVE_PY" ]; then
	test_expect_success 'latency over time: a plot per cell, a point per window with frames' '
		[ $(ls svgs/*-time-*.svg | wc -l) = 4 ] &&
		python3 - r.json svgs <<-\EOF
		import json, sys, glob
		d = json.load(open(sys.argv[1]))
		first = {}
		for r in d["results"]:
		    first.setdefault((r["bench"], r["load"]), r)
		for f in sorted(glob.glob(sys.argv[2] + "/*-time-*.svg")):
		    s = open(f).read()
		    t = s.split("<title>")[1].split(" (")[0]
		    b, l = t.split(" under ")
		    want = [v for v in first[(b, l)]["worst_by_window_us"]["values"] if v is not None]
		    pts = s.split("points=\"")[1].split("\"")[0].split()
		    assert len(pts) == len(want), (f, len(pts), len(want))
		EOF
	'
else
	test_skip 'latency over time: a point per window' "python3 is not installed"
fi

test_expect_success 'a figure of the table appears as a map of its own' '
	has p.html "mean latency</title>" && has p.html "p99 latency</title>" &&
	has p.html "Cyclic\|% desired CPU"
'

test_expect_success 'compare --html: summary, a forest row per cell and metric, two CDFs a cell' '
	mk 1.0 5 1 >A.json && mk -k Audio/Burn:1.5 2.0 5 1 >B.json &&
	"$IB" compare A.json B.json --html c.html --json c.json >out 2>err
	[ $? -le 1 ] && [ ! -s err ] &&
	# said as report says its page, after the verdicts
	tail -n 2 out >said &&
	has said "^Wrote c.html (compare.s page)$" &&
	[ "$(tail -n 1 out)" = "Wrote c.json (the verdicts as JSON)" ] &&
	has c.html "Summary: geometric mean" &&
	[ $(count c.html "<g class=\"frow\">") -ge 9 ] &&
	[ $(count c.html "<g class=\"curve\"") = 6 ] &&
	has c.html "#D55E00" &&
	# an interval past the min change is inconclusive, drawn dashed and
	# hollow; one within it unchanged: never both called "no change"
	inc=$(grep -c "inconclusive: the data cannot tell</title><line [^>]*stroke-dasharray=\"4 3\"/><rect [^>]*fill=\"none\"" c.html) &&
	[ "$inc" -ge 1 ] &&
	hasnt c.html "no clear change"
'

# The page states the interval it drew, the one compare computed (its
# JSON's "level", the console's): 95 %, or ab's 98.75 % at four looks.
# The summary describes the cells: its markers are one neutral style,
# never a verdict's colour, dashes, hollow or words; the cells' rows keep
# theirs. The marks a cell carries on either side are on the page.
if [ -n "$HAVE_PY" ]; then
	test_expect_success 'compare --html: the interval computed, a summary that judges nothing, the marks' '
		for looks in 1 4; do
			mk -a ab1:A:$looks 1.0 5 1 >PA.json &&
			mk -a ab1:B:$looks -k Audio/Burn:0.1 -I Audio/Burn:others_cpu_pct:34 \
				2.0 5 1 >PB.json &&
			"$IB" compare PA.json PB.json --html pc.html --json pc.json >pc.out
			[ $? -le 1 ] || return 1
			level=$(python3 -c "import json, sys; print(\"%g\" % (json.load(open(sys.argv[1]))[\"level\"] * 100))" pc.json) &&
			{ [ "$looks:$level" = 1:95 ] ||
			  [ "$looks:$level" = 4:98.75 ]; } &&
			has pc.out "(${level} % interval, runs" &&
			[ $(count pc.html "% interval)</text>") -ge 3 ] &&
			[ $(count pc.html "% interval)</text>") = $(count pc.html "[ (]${level} % interval)</text>") ] &&
			{ [ $looks = 1 ] || hasnt pc.html "[^.0-9]95 % interval"; } ||
				return 1
		done &&
		python3 - pc.html <<-\EOF &&
		import re, sys
		page = open(sys.argv[1]).read()
		summ = page.split("Summary: geometric mean", 1)[1].split("</svg>")[0]
		rows = re.findall(r"<g class=\"frow\">.*?</g>", summ)
		assert rows, "no summary rows"
		for r in rows:
		    assert "inconclusive" not in r and "unchanged" not in r, r
		    assert "dasharray" not in r and "fill=\"none\"" not in r, r
		    assert "#0072B2" in r and "#777777" not in r, r
		    assert "a description, not a verdict" in r, r
		rest = page.split("Summary: geometric mean", 1)[1].split("</svg>", 1)[1]
		assert "inconclusive: the data cannot tell</title><line" in rest
		assert "better</title>" in rest
		EOF
		has pc.html "<li>Audio / Burn: <b>[a-z]*</b>.* <span class=\"warn\">\[B busy 34 %\]</span></li>" &&
		hasnt pc.html "<li>Audio / None: .*busy" &&
		has pc.html "<p class=\"warn\">Row marks: 1 of 3 cells compared carry row marks (B: busy 1)"
	'
else
	test_skip 'compare --html: the interval computed, a summary that judges nothing, the marks' "python3 is not installed"
fi

# The colour of a map's cell: the fill after its <title>TEXT</title>.
cell_fill() { grep -o "<title>$2</title><rect [^>]*fill=\"#[0-9a-f]*\"" "$1" |
	sed "s/.*fill=\"//; s/\"//"; }

if [ -n "$HAVE_PY" ]; then
	# Audio (20 FPS) and Video (60 FPS), each at its own frame rate: one
	# colour, the best; the stutters of two files on one scale.
	test_expect_success 'FPS against the task'"'"'s own rate; the stutters of two files on one scale' '
		python3 - r.json fa.json fb.json <<-\EOF &&
		import copy, json, sys
		d = json.load(open(sys.argv[1]))
		for r in d["results"]:
		    r["stutters"] = 0
		rs = [r for r in d["results"] if r["bench"] == "Audio" and r["status"] == "ok"]
		for r in rs:
		    r["fps"] = {"mean": 20, "low_1pct": 20, "low_0_1pct": 20}
		    v = copy.deepcopy(r)
		    v["bench"] = "Video"
		    v["period_us"] = 16666.666
		    v["fps"] = {"mean": 59.98, "low_1pct": 59.98, "low_0_1pct": 59.98}
		    v["stutters"] = 6 if r["load"] == "Burn" else 0
		    d["results"].append(v)
		json.dump(d, open(sys.argv[2], "w"))
		for r in d["results"]:
		    if r["bench"] == "Video":
		        r["stutters"] = 2 if r["load"] == "Burn" else 1
		json.dump(d, open(sys.argv[3], "w"))
		EOF
		mkdir fsvg && "$IB" report fa.json fb.json -o fab.html --svg fsvg >out &&
		a=$(ls fsvg/*-map-fps-mean.svg | head -n 1) &&
		[ "$(cell_fill "$a" "Audio under None: FPS 20")" = "$(cell_fill "$a" "Video under None: FPS 59.98")" ] &&
		[ "$(cell_fill "$a" "Audio under None: FPS 20")" = "#fde725" ] &&
		l=$(ls fsvg/*-map-fps-low_1pct.svg | head -n 1) &&
		[ "$(cell_fill "$l" "Audio under Burn: 1 % low FPS 20")" = "$(cell_fill "$l" "Video under Burn: 1 % low FPS 59.98")" ] &&
		has "$a" "pale at the task&#39;s own frame rate" &&
		# the most of either file is the darkest of both, and said so
		[ $(ls fsvg/*-map-stutters.svg | wc -l) = 2 ] &&
		for m in fsvg/*-map-stutters.svg; do
			has "$m" "pale 0, dark 6: the largest of the page" || return 1
		done &&
		sa=$(ls fsvg/*-map-stutters.svg | head -n 1) &&
		sb=$(ls fsvg/*-map-stutters.svg | tail -n 1) &&
		[ "$(cell_fill "$sa" "Video under Burn: frames over two periods 6")" = "#440154" ] &&
		[ "$(cell_fill "$sb" "Video under Burn: frames over two periods 2")" != "#440154" ] &&
		has fsvg/04-map-files-stutters.svg "Video under Burn: frames over two periods 2"
	'
else
	test_skip 'FPS against the task'"'"'s own rate; stutters on one scale' "python3 is not installed"
fi

if [ -n "$HAVE_XMLLINT" ]; then
	test_expect_success 'the compare page is well-formed (xmllint)' 'xmllint --noout c.html'
else
	test_skip 'the compare page is well-formed' "$NO_XMLLINT"
fi

# Width and height of a PNG (its IHDR).
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }'; }
shot() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$TRASH/chr.XXXXXX")" \
		--screenshot="$TRASH/$2" --window-size=1280,2000 \
		"file://$TRASH/$1" >/dev/null 2>&1
}

if [ -n "$CHROMIUM" ]; then
	test_expect_success 'Chromium renders the report and the compare page' '
		shot p.html p.png && shot c.html c.png &&
		[ "$(png_size p.png)" = 1280x2000 ] &&
		[ "$(png_size c.png)" = 1280x2000 ] &&
		# A blank page compresses to a few KB; plots do not.
		[ $(wc -c <p.png) -gt 40000 ] && [ $(wc -c <c.png) -gt 40000 ]
	'
else
	test_skip 'Chromium renders the report and the compare page' "$NO_CHROMIUM"
fi

# Chromium lays out a copy of the page with a script that lists every
# text of an SVG drawn past the picture's edges: none is cut.
measure() {
	head -n -1 "$1" >"m-$1" && cat >>"m-$1" <<-\EOF &&
	<script>
	window.addEventListener("load", function () {
	  var out = [], n = 0;
	  document.querySelectorAll("svg").forEach(function (svg) {
	    var s = svg.getBoundingClientRect();
	    svg.querySelectorAll("text").forEach(function (t) {
	      var b = t.getBoundingClientRect();
	      n++;
	      if (b.left < s.left - 0.5 || b.right > s.right + 0.5 ||
	          b.top < s.top - 0.5 || b.bottom > s.bottom + 0.5)
	        out.push("CUT " + t.getAttribute("class") + ": " + t.textContent);
	    });
	  });
	  var p = document.createElement("pre");
	  p.textContent = "MEASURED " + n + " texts;" + out.join(";");
	  document.body.appendChild(p);
	});
	</script>
	</body></html>
	EOF
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$TRASH/chr.XXXXXX")" \
		--window-size=1280,2000 --dump-dom "file://$TRASH/m-$1" 2>/dev/null |
		grep -o "MEASURED [0-9][^<]*" | tr ";" "\n"
}

if [ -n "$CHROMIUM" ]; then
	test_expect_success 'Chromium: no text of a picture is cut (titles wrap)' '
		measure p.html >mp && measure c.html >mc && measure two.html >m2 &&
		cat mp mc m2 &&
		grep -q "^MEASURED [1-9][0-9]* texts$" mp &&
		grep -q "^MEASURED [1-9][0-9]* texts$" mc &&
		grep -q "^MEASURED [1-9][0-9]* texts$" m2 &&
		! grep -q "^CUT" mp mc m2 &&
		# a time plot'"'"'s title, too wide over its frame, starts left
		has p.html "x=\"6.0\" y=\"16.0\" text-anchor=\"start\" class=\"ptitle\"><tspan>Gaming under None (3 ms windows)</tspan></text>"
	'
else
	test_skip 'Chromium: no text of a picture is cut' "$NO_CHROMIUM"
fi

# Exit 2 with one line on stderr, and page.html as it was.
bad() {
	echo old >page.html
	status_is 2 "$IB" report "$@" -o page.html >out 2>err &&
	[ $(err_lines err) = 1 ] && [ "$(cat page.html)" = old ] &&
	[ -z "$(ls page.html?* 2>/dev/null)" ] || { cat err; return 1; }
}

test_expect_success 'bad input: another schema, a truncated file, no file' '
	echo "{\"schema\": \"other/1\", \"results\": []}" >other.json &&
	bad other.json && has err "schema is \"other/1\"" &&
	head -c 3000 r.json >cut.json && bad cut.json &&
	bad missing.json && has err "missing.json" &&
	bad && has err "need result files"
'

test_expect_success 'bad input: the text logfile, or no JSON at all, is no result file' '
	measured "$IB" $LPM -t 0.1 -W audio -w none >/dev/null 2>&1 &&
	log=$(ls -t *.log | head -n 1) && grep -q "^Benchmarking kernel " "$log" &&
	bad "$log" &&
	[ "$(cat err)" = "interbench report: $log: interbench'"'"'s text logfile, not a result file: give the file a run writes with --json FILE" ] &&
	echo "hello" >text.txt && bad text.txt &&
	has err "text.txt: not a result file (not JSON; interbench --json FILE writes those)" &&
	: >empty.json && bad empty.json && has err "empty.json: not a result file (empty"
'

test_expect_success 'the header: the machine, and cells the host stole from' '
	# The host may really have stolen from a cell of r.json: start from
	# a copy where it stole from none, then mark one (the median of its
	# two repeats, 2.5 %, as the console marks a row).
	sed "s/\"steal_pct\": [-0-9.e+]*/\"steal_pct\": 0/" r.json >quiet.json &&
	"$IB" report quiet.json -o v.html &&
	has v.html "scheduling</th><td>preempt " &&
	! has v.html "Confounder: the host stole" &&
	sed "0,/\"steal_pct\": 0/s//\"steal_pct\": 5/" quiet.json \
		>stolen.json &&
	"$IB" report stolen.json -o s.html >out &&
	has s.html "Confounder: the host stole more than 1 % of the CPU time (2.5 %) in 1 of 4 cells, marked \[steal\]" &&
	has out "^  the host stole more than 1 % of the CPU time (2.5 %) in 1 of 4 cells, marked \[steal\]"
'

# Every row mark the console gives a row ([steal], [busy], [throttled],
# [no rt], [stalled]) is said by report, on the page and on stdout, each
# with its figure and its cells; none reads as a quiet machine.
test_expect_success 'report: every row mark, with its figure and cells, page and stdout' '
	mk -R -T Video/Burn -I Audio/Burn:others_cpu_pct:34 \
		-I Audio/Burn:steal_pct:2.5 -I Audio/None:cgroup_throttled_pct:3 \
		1.0 3 1 >marks.json &&
	"$IB" report marks.json -o marks.html >out &&
	has out "^marks.json: 3 of 3 cells marked:$" &&
	for m in "the host stole more than 1 % of the CPU time (2.5 %) in 1 of 3 cells, marked \[steal\]: .*: Audio/Burn" \
		"other tasks used more than 5 % of the run.*s CPU time (34 %) in 1 of 3 cells, marked \[busy\]: .*: Audio/Burn" \
		"the run.*s cgroup.*s CPU quota throttled more than 1 % of the CPU time (3 %) in 1 of 3 cells, marked \[throttled\]: .*: Audio/None" \
		"in the figures of 3 of 3 cells, marked \[no rt\]: Audio/None, Audio/Burn, Video/Burn" \
		"a thread stalled .* in 1 of 3 cells, marked \[stalled\]: Video/Burn"; do
		has out "^  .*$m$" &&
		has marks.html "<p class=\"warn\">Confounder: .*$m\.</p>" || return 1
	done &&
	[ "$(unmarked out)" = "Wrote marks.html (the page of 1 file)" ] &&
	mk 1.0 3 1 >clean.json && "$IB" report clean.json -o clean.html >out &&
	[ "$(cat out)" = "Wrote clean.html (the page of 1 file)" ] &&
	has clean.html "No cell carries a mark" && hasnt clean.html "Confounder"
'

test_expect_success 'a result file cannot put markup into the page (interrupted)' '
	sed "s/\"finished\": \"[^\"]*\"/\"interrupted\": \"<script>alert(1)<\/script>\"/" \
		r.json >hostile.json &&
	grep -q "\"interrupted\": \"<script>" hostile.json &&
	"$IB" report hostile.json -o h.html &&
	has h.html "stopped (&lt;script&gt;alert(1)&lt;/script&gt;)" && hasnt h.html "<script"
'
# A crafted file cannot make the page grow with the square of its cells:
# 1000 cells on the diagonal (each its own task and load) are refused in
# one line; 1000 tasks under one load draw a page linear in them.
if command -v jq >/dev/null; then
	test_expect_success 'a crafted 1000-cell file: refused or drawn in linear time and size' '
		jq ".results = [range(1000) as \$i | .results[0] |
			.bench = \"B\(\$i)\" | .load = \"L\(\$i)\"]" r.json >diag.json &&
		status_is 2 timeout 20 "$IB" report diag.json -o diag.html 2>err &&
		[ $(err_lines err) = 1 ] && has err "1000 tasks x 1000 loads: more than a page draws" &&
		[ ! -e diag.html ] &&
		jq ".results = [range(1000) as \$i | .results[0] | .bench = \"B\(\$i)\"]" \
			r.json >col.json &&
		timeout 60 "$IB" report col.json -o col.html &&
		[ $(wc -c <col.html) -lt $((100 * 1024 * 1024)) ] &&
		jq ".results = [range(4097) as \$i | .results[0] | .bench = \"B\(\$i)\"]" \
			r.json >big.json &&
		status_is 2 timeout 20 "$IB" compare big.json big.json >/dev/null 2>err &&
		has err "big.json: more than 4096 cells" &&
		status_is 2 timeout 20 "$IB" report big.json -o big.html 2>err &&
		has err "big.json: more than 4096 cells"
	'
else
	test_skip 'a crafted 1000-cell file' 'no jq'
fi
# The page's "whose" cell reckons as the console's line does, from the
# integer ns the file's us were written from: other tasks 1645000 ns are
# 1.65 ms on both (from the us, 29600.867 - 26478.507 - 1477.36, it was
# 1.64999.. and 1.64); a comm of markup is escaped, the timer part
# (50 us late, WHY_LATE_NS) shown.
if command -v jq >/dev/null; then
	test_expect_success 'a worst frame'"'"'s culprits on the page as the console reckons them' '
		jq ".results[0].worst_frames = [{latency_us: 29700, timer_us: 50,
			wait_us: 29650, cpu: 1, others_us: 29600.867,
			ran_instead: [{comm: \"a<b&c\", pid: 7, us: 26478.507},
				      {comm: \"sleep\", pid: 8, us: 1477.36}],
			timer_ran_instead: [{comm: \"spin\", pid: 9, us: 40}],
			timer_others_us: 40}]" r.json >why.json &&
		"$IB" report why.json -o why.html &&
		has why.html "<td>timer: spin:9 0.04 ms; wait: a&lt;b&amp;c:7 26.5 ms, sleep:8 1.48 ms, other tasks 1.65 ms</td></tr>"
	'
else
	test_skip 'a worst frame'"'"'s culprits on the page' 'no jq'
fi

test_expect_success 'a page that cannot be written: exit 2, one line' '
	status_is 2 "$IB" report r.json -o nodir/p.html 2>err &&
	[ $(err_lines err) = 1 ] && has err "nodir/p.html" &&
	status_is 2 "$IB" report r.json -o x.html --svg nodir 2>err &&
	[ $(err_lines err) = 1 ] && [ ! -e x.html ] &&
	status_is 2 "$IB" compare A.json B.json --html nodir/c.html >/dev/null 2>err &&
	[ $(err_lines err) = 1 ] &&
	status_is 2 "$IB" $LPM -t 0.1 -c -W audio -w none --html nodir/r.html 2>err &&
	has err "option --html"
'

test_expect_success 'report --help and a figure chosen by name' '
	"$IB" report --help >h && has h "interbench report RESULT.json" &&
	"$IB" report r.json -o f.html --figure p99 &&
	has f.html "The matrix at a glance: p99 latency" &&
	status_is 2 "$IB" report r.json -o f.html --figure nope 2>err &&
	has err "no figure named"
'

test_done
