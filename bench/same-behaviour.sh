#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/same-behaviour.sh OLD NEW - run about 60 command lines that
# measure nothing (every --help, --list, --completion, dry runs, bad
# input, compare/report/trend/ab refusals and compare/report/trend on the
# golden files) with two interbench binaries, and say each whose stdout,
# stderr, exit status or written file differs. For a move that must
# change no behaviour: build OLD before it, NEW after. Exit 0 all alike.
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD NEW" >&2; exit 2; }
OLD=$(readlink -f "$1") NEW=$(readlink -f "$2")
TOP=$(cd "$(dirname "$0")/.." && pwd)
G=$TOP/tests/golden
W=$(mktemp -d) || exit 3
trap 'rm -rf "$W"' EXIT
EX=/usr/share/doc/rt-app/examples
n=0 bad=0
# one command line, run by both binaries in their own empty directory;
# the HTML's generation stamp and any path of the work dir are masked
run() {
	n=$((n + 1))
	for side in old new; do
		d=$W/$side/$n
		mkdir -p "$d"
		b=$OLD; [ $side = new ] && b=$NEW
		(cd "$d" && HOME=$d XDG_STATE_HOME=$d/.state timeout 20 \
			"$b" "$@" >stdout 2>stderr; echo $? >status)
		for f in "$d"/*; do
			sed -i -e "s|$W/$side/$n|WORK|g" -e "s|$b|IB|g" \
				-e 's/[0-9]\{8\}-[0-9]\{6\}/STAMP/g' -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][T ][0-9:]*\(Z\|+00:00\)\{0,1\}/DATE/g' "$f"
		done
	done
	if ! diff -r "$W/old/$n" "$W/new/$n" >"$W/diff" 2>&1; then
		bad=$((bad + 1))
		echo "DIFFERS: interbench $*"
		head -20 "$W/diff" | sed 's/^/    /'
	fi
}
run --help
run --version
run --list
run --completion bash
run ab --help
run compare --help
run report --help
run trend --help
run bisect --help
run -n 3 --dry-run
run -t 5 -W audio,video -w burn,none --dry-run
run -W modern -w all --dry-run
run -u -W cyclic -w none --dry-run
run -W server -w hack --dry-run
run --json x.json --csv x.csv --junit x.xml --dry-run
run -n auto --dry-run
run --fail-if 'p99>20ms' --fail-if 'deadlines<95@2' -n 3 --dry-run
run --remeasure-if 'steal>1' --remeasure 2 --dry-run
run -W "rtapp:$TOP/contrib/rtapp/pipeline.json" -w none --dry-run
run -W "rtapp:$TOP/contrib/rtapp/periodic.json" -w "rtapp:$TOP/contrib/rtapp/pipeline.json" --dry-run
[ -e "$EX/mp3-short.json" ] && run -W "rtapp:$EX/mp3-short.json" -w none --dry-run
run -W audoi
run -w brun
run --bogus
run -t -1
run -t abc
run -n 0
run --fail-if 'p99>>3'
run --fail-if 'nosuch>3'
run --remeasure-if 'p99>3ms'
run --remeasure 3
run -W "rtapp:/nonexistent.json"
run -W rtapp
run --dma-latency x
run --load-group nope
run -x 2>/dev/null
run compare
run compare "$G/A.json"
run compare "$G/A.json" /nonexistent.json
run compare --alpha 2 "$G/A.json" "$G/B.json"
run compare "$G/A.json" "$G/B.json"
run compare -v "$G/A.json" "$G/B.json"
run compare "$G/A.json" "$G/B.json" "$G/C.json"
run compare --json c.json --junit c.xml "$G/A.json" "$G/B.json"
run compare --html c.html "$G/A.json" "$G/B.json"
run compare --min-change 10 "$G/C.json" "$G/D.json"
run compare "$G/A.txt" "$G/B.json"
run report "$G/A.json" -o r.html
run report "$G/A.json" "$G/B.json" -o r.html
run report "$G/A.txt" -o r.html
run report
run trend "$G/A.json" "$G/B.json" "$G/C.json" "$G/D.json"
run trend --html t.html "$G/A.json" "$G/B.json" "$G/C.json" "$G/D.json"
run trend "$G/A.json"
run trend --alpha 0 "$G/A.json" "$G/B.json"
run ab --bogus
run ab --a-cmd true
run ab --a-cmd true --b-cmd true --dry-run
run ab -n 3 --b-nice 19 --dry-run
run bisect
echo "$n command lines, $bad differ"
[ $bad -eq 0 ]
