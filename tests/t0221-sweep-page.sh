#!/bin/sh
# A sweep's page: `interbench report SWEEP.json -o PAGE` on a hand-made
# document (tests/golden/sweep.json: a-a unchanged, nice19 better on
# both tasks, spinner worse, scx skipped). A row of the verdicts' table
# per candidate, the skipped one with its reason; a forest row per
# candidate x task x figure and per cell; the bands of "unchanged" and
# of the base's noise; links to each candidate's pages; every word
# escaped; the closing line; a broken document refused in one line,
# exit 2, no page; well-formed (xmllint) and drawn (headless Chromium)
# where installed.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

SWEEP=$TESTS_DIR/golden/sweep.json
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)

# How many times $2 occurs in file $1.
count() { grep -o -- "$2" "$1" | wc -l; }

test_expect_success 'report draws a sweep document as its page' '
	cp "$SWEEP" sw.json &&
	"$IB" report sw.json -o sw.html >out 2>err &&
	[ ! -s err ] &&
	[ "$(cat out)" = "Wrote sw.html (the sweep'"'"'s page)" ] &&
	head -n 1 sw.html | grep -q "^<!DOCTYPE html>$" &&
	has sw.html "<title>interbench sweep 5f3a9c0e12ab34cd</title>" &&
	has sw.html "Started 2026-11-29T06:00:00Z, finished 2026-11-29T06:20:00Z" &&
	has sw.html "at alpha / 3 (Bonferroni over the 3 candidates judged)" &&
	has sw.html "5 passes over 4 states; measured 80 cells; 3 separate ab runs would measure 120: ratio 0.667. The machine.s time: 176.4 s." &&
	! grep -q "<script" sw.html
'

test_expect_success 'the verdicts: a row per candidate, the skipped one with its reason' '
	[ $(count sw.html "<tr class=\"cand\">") = 4 ] &&
	grep "<tr class=\"cand\"><th>scx</th>" sw.html >scx &&
	has scx "colspan=\"4\">skipped: no sched_ext in this kernel</td>" &&
	grep "<tr class=\"cand\"><th>nice19</th>" sw.html >n19 &&
	[ $(count n19 "<td class=\"better\">") = 3 ] &&
	has n19 "<b>better</b><br/><span title=\"p99 latency ms\">−31 % \[−40, −22\]</span>" &&
	has n19 "(stopped at 3: every cell decided)" &&
	grep "<tr class=\"cand\"><th>spinner</th>" sw.html >sp &&
	[ $(count sp "<td class=\"worse\">") = 3 ] &&
	has sp "+48 % \[36, 62\]" &&
	grep "<tr class=\"cand\"><th>a-a</th>" sw.html >aa &&
	[ $(count aa "<td class=\"unchanged\">") = 3 ] &&
	# the tasks are columns, in the order first seen
	has sw.html "<th>verdict</th><th>Audio</th><th>Video</th><th>pairs</th>"
'

test_expect_success 'the forests: a row per candidate x task x figure, and per cell' '
	# 3 judged candidates x (Audio 1 figure + Video 2); x 2 tasks x 2 loads
	[ $(count sw.html "<g class=\"fr\">") = 9 ] &&
	[ $(count sw.html "<g class=\"fc\">") = 12 ] &&
	has sw.html ">nice19 · Audio · p99 latency ms</text>" &&
	has sw.html ">spinner · Video · Burn</text>" &&
	# a-a'"'"'s deadlines met has no interval: its point, and said
	[ $(count sw.html ">no interval</text>") = 1 ] &&
	has sw.html "<title>a-a · Video · % deadlines met: +0.1 % (no interval), unchanged</title><rect" &&
	# rows coloured by the verdict: green better, vermillion worse
	[ $(grep "<g class=\"fr\">" sw.html | grep -c "#009E73") = 3 ] &&
	[ $(grep "<g class=\"fr\">" sw.html | grep -c "#D55E00") = 3 ] &&
	has sw.html "new / base, on a log scale" &&
	# the scale is the ratio in log10: the zero line (no change) at the
	# tick x1
	z=$(sed -n "s/.*<line class=\"zero\" x1=\"\([0-9.]*\)\".*/\1/p" sw.html | head -n 1) &&
	t=$(sed -n "s/.*<text x=\"\([0-9.]*\)\"[^>]*class=\"tick\">\xc3\x971<\/text>.*/\1/p" sw.html | head -n 1) &&
	[ -n "$z" ] && [ -n "$t" ] &&
	awk -v z="$z" -v t="$t" "BEGIN { exit !(z - t < 1 && t - z < 1) }"
'

test_expect_success 'the bands: unchanged, and the base'"'"'s noise per task' '
	[ $(count sw.html "<rect class=\"unchanged\"") = 2 ] &&
	has sw.html "<title>unchanged: within ±5.0 %</title>" &&
	# the median of each task'"'"'s sd_pct (3.1 and 4.0), twice
	has sw.html "<title>base&#39;s run-to-run noise, ±2 SD (±6.2 %)</title>" &&
	has sw.html "<title>base&#39;s run-to-run noise, ±2 SD (±8.0 %)</title>" &&
	has sw.html ">base&#39;s run-to-run noise, ±2 SD</text>"
'

test_expect_success 'links to each candidate'"'"'s comparison and result file' '
	[ $(count sw.html "href=") = 6 ] &&
	for c in a-a nice19 spinner; do
		has sw.html "<a href=\"sw.$c.html\">comparison</a>" &&
		has sw.html "<a href=\"sw.$c.json\">result file</a>" || return 1
	done
'

test_expect_success 'the closing line: who helps, who hurts' '
	has sw.html "<p class=\"closing\">a-a changes nothing decided; nice19 helps Audio, Video; spinner hurts Audio, Video; scx was not judged (skipped).</p>"
'

test_expect_success 'an interrupted sweep says so' '
	sed -e "s/\"interrupted\": null/\"interrupted\": \"signal 15\"/" \
		-e "s/\"finished\": \"[^\"]*\"/\"finished\": null/" sw.json >int.json &&
	"$IB" report int.json -o int.html >out 2>err && [ ! -s err ] &&
	has int.html "<span class=\"warn\">interrupted: signal 15</span>" &&
	hasnt int.html "finished"
'

test_expect_success 'markup in a name, an option or a page is escaped' '
	sed -e "s/\"name\": \"nice19\"/\"name\": \"<b>x\&amp;\"/" \
		-e "s/\"page\": \"sw.nice19.html\"/\"page\": \"a\\\\\"b<.html\"/" \
		-e "s/\"options\": \"--load-nice 19\"/\"options\": \"<script>\"/" \
		sw.json >esc.json &&
	"$IB" report esc.json -o esc.html >out 2>err && [ ! -s err ] &&
	hasnt esc.html "<b>x" && hasnt esc.html "<script" &&
	has esc.html "<th>&lt;b&gt;x&amp;amp;</th>" &&
	has esc.html ">&lt;b&gt;x&amp;amp; · Audio · p99 latency ms</text>" &&
	has esc.html "<a href=\"a&quot;b&lt;.html\">comparison</a>" &&
	has esc.html "<td>&lt;script&gt;</td>"
'

# Exit 2 with one line on stderr, and page.html as it was.
bad() {
	echo old >page.html
	status_is 2 "$IB" report "$@" -o page.html >out 2>err &&
	[ $(wc -l <err) = 1 ] && [ "$(cat page.html)" = old ] &&
	[ -z "$(ls page.html?* 2>/dev/null)" ] && [ ! -s out ] ||
		{ cat err; return 1; }
}

test_expect_success 'a broken sweep document is refused in one line, no page' '
	sed "s/\"candidates\": \[/\"kandidates\": [/" sw.json >nocand.json &&
	bad nocand.json &&
	[ "$(cat err)" = "interbench report: nocand.json: not a sweep document: \"candidates\" is missing, not an array" ] &&
	sed "0,/\"name\": \"nice19\"/s//\"name\": 19/" sw.json >type.json &&
	bad type.json &&
	[ "$(cat err)" = "interbench report: type.json: not a sweep document: candidates[1].\"name\" is a number, not text" ] &&
	sed "s/\"change\": -31.2/\"change\": \"a lot\"/" sw.json >num.json &&
	bad num.json &&
	has err "^interbench report: num.json: not a sweep document: candidates\[1\].tasks\[0\].figures\[0\].\"change\" is text, not a number$" &&
	sed "s/\"noise\": \[/\"noise\": 3, \"x\": [/" sw.json >noise.json &&
	bad noise.json && has err "\"noise\" is a number, not an array"
'

test_expect_success 'a sweep document is drawn alone: not with result files, nor --svg' '
	sh "$TESTS_DIR/mkresult.sh" 0.41 2 1 >r.json &&
	"$IB" report r.json -o r.html >/dev/null &&
	bad sw.json r.json &&
	has err "^interbench report: sw.json is a sweep document, drawn alone: not with result files$" &&
	bad r.json sw.json && has err "sw.json is a sweep document, drawn alone" &&
	mkdir svgs && bad sw.json --svg svgs &&
	has err "^interbench report: --svg is for result files, not the sweep document sw.json$" &&
	# another schema is still a result file'"'"'s error, as ever
	sed "s/interbench-sweep\/1/interbench-sweep\/9/" sw.json >other.json &&
	bad other.json && has err "schema is \"interbench-sweep/9\""
'

if command -v xmllint >/dev/null 2>&1; then
	test_expect_success 'the pages are well-formed (xmllint)' '
		xmllint --noout sw.html int.html esc.html
	'
else
	test_skip 'the pages are well-formed' "xmllint is not installed (apt-get install libxml2-utils)"
fi

# Width and height of a PNG (its IHDR).
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }'; }

if [ -n "$CHROMIUM" ]; then
	test_expect_success 'Chromium renders the sweep page, not blank' '
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
			--disable-quic --no-first-run --disable-background-networking \
			--disable-component-update --disable-sync \
			--user-data-dir="$(mktemp -d "$TRASH/chr.XXXXXX")" \
			--screenshot="$TRASH/sw.png" --window-size=1280,1400 \
			"file://$TRASH/sw.html" >/dev/null 2>&1 &&
		[ "$(png_size sw.png)" = 1280x1400 ] &&
		# A blank page compresses to a few KB; plots do not.
		[ $(wc -c <sw.png) -gt 40000 ]
	'
else
	test_skip 'Chromium renders the sweep page' "chromium is not installed (apt-get install chromium)"
fi

test_done
