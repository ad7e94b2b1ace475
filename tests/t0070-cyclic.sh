#!/bin/sh
# The Cyclic timer-latency simulator: every sleep method, its details,
# its distribution, its options.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"

for m in clock_ns posix_ns itimer poll; do
	test_expect_success "Cyclic with $m: a row and its percentiles" '
		"$IB" $LPM -t 0.5 -c -W cyclic -w none --cyclic-method '$m' \
			--cyclic-interval 500 >out 2>&1 || { cat out; false; }
		grep -q "^--- Benchmarking simulated cpu of Cyclic" out &&
		grep -q "^None  *[0-9.e-]* +/- [0-9.e-]*  *[0-9.e-]*  *-  *[0-9.]*$STEAL_MARK$" out &&
		grep -q "cyclic: .*, '$m', every 500 us: [0-9]* samples" out &&
		grep -q "mean [0-9.]* us, mode [0-9.]*, min [0-9.]*, max [0-9.]*, SD [0-9.]*" out &&
		grep -q "percentiles (us): 25: [0-9.]* 50: .* 95.4: .* 99.99: [0-9.]*$" out &&
		n=$(sed -n "s/.*every 500 us: \([0-9]*\) samples.*/\1/p" out) &&
		[ "$n" -ge 500 ] && [ "$n" -le 1001 ] || fail "$n samples in 0.5 s at 500 us"
	'
done

test_expect_success 'percentiles rise with the rank, min <= p25 <= ... <= max' '
	"$IB" $LPM -t 0.5 -c -W cyclic -w none >out 2>&1 &&
	sed -n "s/.*percentiles (us)://p" out | tr " " "\n" | grep -v ":" | grep . >p &&
	sort -g p | cmp - p
'

if is_root; then
	test_expect_success 'as root Cyclic runs SCHED_FIFO 95 unless told otherwise' '
		"$IB" $LPM -t 0.3 -c -W cyclic -w none >out 2>&1 && has out "SCHED_FIFO 95" &&
		"$IB" $LPM -t 0.3 -c -W cyclic -w none --cyclic-policy rr --cyclic-prio 50 >out 2>&1 &&
		has out "SCHED_RR 50" &&
		"$IB" $LPM -t 0.3 -c -W cyclic -w none --cyclic-policy other >out 2>&1 &&
		has out "cyclic: SCHED_OTHER"
	'
else
	test_skip 'as root Cyclic runs SCHED_FIFO' 'not root'
fi

test_expect_success '--dist prints a distribution whose counts add up' '
	"$IB" $LPM -t 0.5 -c -W cyclic -w none --dist 1us >out 2>&1 &&
	has out "distribution: latency (us) from, count" &&
	n=$(sed -n "s/.*every 1000 us: \([0-9]*\) samples.*/\1/p" out) &&
	sum=$(awk "/distribution:/ { on = 1; next } on && /^ +[0-9.]+ [0-9]+/ { s += \$2 } END { print s + 0 }" out) &&
	{ [ "$sum" = "$n" ] || grep -q "more bins in the JSON" out; } || fail "bins add to $sum of $n"
'

test_expect_success 'the JSON carries percentiles, mode and the distribution' '
	"$IB" $LPM -t 0.3 -c -W cyclic -w none --dist 2000 --json c.json >/dev/null 2>&1 &&
	has c.json "\"latency_percentiles_us\"" && has c.json "\"99.99\":" &&
	has c.json "\"latency_mode_us\"" && has c.json "\"width_us\": 2" &&
	has c.json "\"dist\": \"2000\"" && valid_json c.json
'

if disk_loads_ok; then HELL="-w hell" NEW="Net Fork Hell"; else
	HELL="" NEW="Net Fork"; test_skip 'Cyclic and Server under Hell' "$DISK_WHY"; fi
test_expect_success 'Cyclic and Server run under the Net, Fork and Hell loads' '
	mkdir -p d && "$IB" $LPM -t 0.3 -c -W cyclic -W server -w net -w fork $HELL -D d >out 2>&1 ||
		{ cat out; false; }
	for b in Cyclic Server; do
		for l in $NEW; do
			awk -v b=$b -v l=$l "/^--- Bench/ { cur = \$6 } cur == b && \$1 == l && \$2 ~ /^[0-9]/ { f = 1 } END { exit !f }" out ||
				fail "no row for $b under $l"
		done
	done
'

bad() {
	test_expect_success "rejects $1" '
		"$IB" $LPM -t 0.3 -c '"$2"' >out 2>err; rc=$?
		[ $rc = 2 ] && [ $(err_lines err) = 1 ] && grep -q -- "'"$3"'" err && [ ! -s out ] ||
			{ echo "status $rc"; cat err; false; }
	'
}
bad 'an unknown method' '-W cyclic --cyclic-method sleepy' '--cyclic-method'
bad 'an unknown policy' '-W cyclic --cyclic-policy deadline' '--cyclic-policy'
bad 'a priority of 0' '-W cyclic --cyclic-prio 0' '--cyclic-prio'
bad 'a priority with garbage' '-W cyclic --cyclic-prio 9x' '--cyclic-prio'
bad 'an interval too short' '-W cyclic --cyclic-interval 1' '--cyclic-interval'
bad 'a width without a number' '-W cyclic --dist us' '--dist'
bad 'a width with a bad unit' '-W cyclic --dist 5h' '--dist'
bad 'Cyclic options without Cyclic' '-W audio --dist 1us' 'Cyclic'
test_done
