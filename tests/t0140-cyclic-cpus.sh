#!/bin/sh
# Cyclic on every CPU (--cyclic-threads, as cyclictest -S) and
# --dma-latency (the PM QoS request cyclictest makes by default).
. "$(dirname "$0")/lib.sh"

NCPU=$(getconf _NPROCESSORS_ONLN)

test_expect_success 'bad values: one line, exit 2' '
	status_is 2 "$IB" -W Cyclic --cyclic-threads 0 2>err &&
	has err "not all or a number of CPUs" && [ $(err_lines err) = 1 ] &&
	status_is 2 "$IB" -W Cyclic --cyclic-threads some 2>err &&
	status_is 2 "$IB" -W Cyclic --cyclic-threads 129 2>err &&
	status_is 2 "$IB" --dma-latency -1 2>err && has err "out of range" &&
	status_is 2 "$IB" --dma-latency 1x 2>err
'

test_expect_success '--cyclic-threads all: a line per CPU, the worst named, JSON per CPU' '
	"$IB" -c -t 1 -W Cyclic -w None --cyclic-threads all \
		--json all.json >out 2>&1 || { cat out; false; } &&
	[ $(grep -c "^          cpu  *[0-9]*: " out) = "$NCPU" ] &&
	awk "/^          cpu  *[0-9]*: / {
		n = \$3 + 0; p50 = \$6 + 0; p99 = \$8 + 0; mx = \$10 + 0
		if (n < 1 || p50 > p99 || p99 > mx) { print \"bad: \" \$0; exit 1 }
	}" out &&
	if [ "$NCPU" -gt 1 ]; then has out "<- worst CPU (p99)"; fi &&
	[ $(grep -c "\"p99_us\"" all.json) -ge "$NCPU" ] &&
	[ $(grep -c "\"worst\": true" all.json) = 1 ]
'

test_expect_success 'the cell is every CPU together: its samples are the sum' '
	total=$(awk "/cyclic: .* samples,/ { for (i = 1; i <= NF; i++) if (\$(i + 1) ~ /^samples/) { print \$i; exit } }" out) &&
	sum=$(awk "/^          cpu  *[0-9]*: / { s += \$3 } END { print s }" out) &&
	[ "$total" = "$sum" ] && [ "$sum" -gt 0 ]
'

test_expect_success '--cyclic-threads 1: one pinned thread, on the first CPU' '
	"$IB" -c -t 0.5 -W Cyclic -w None --cyclic-threads 1 >out 2>&1 &&
	[ $(grep -c "^          cpu  *[0-9]*: " out) = 1 ] &&
	hasnt out "worst CPU"
'

test_expect_success 'more threads than CPUs: the cell says so' '
	status_is 4 "$IB" -c -t 0.5 -W Cyclic -w None -u \
		--cyclic-threads 2 >out 2>&1 &&
	has out "fewer CPUs than that"
'

# A cell that cannot run (above) beside a measured one that breaks a
# gate: both a fault and a finding, exit 7 (3 > 7 > 1 > 4).
test_expect_success 'a broken gate and an unmeasured cell: exit 7, both said' '
	status_is 7 "$IB" -c -t 0.3 -W Cyclic -W Audio -w None -u \
		--cyclic-threads 2 --fail-if "p50>=0ns" >out 2>&1 &&
	has out "^FAILED --fail-if .p50>=0ns.: Audio under None has" &&
	has out "1 of 2 cells were not measured"
'

test_expect_success 'by default one unpinned thread, no per-CPU lines' '
	"$IB" -c -t 0.5 -W Cyclic -w None >out 2>&1 &&
	hasnt out "^          cpu "
'

if is_root && [ -w /dev/cpu_dma_latency ] && command -v od >/dev/null; then
	test_expect_success '--dma-latency 7: held while it runs, let go after, recorded' '
		before=$(od -An -td4 /dev/cpu_dma_latency | tr -d " ")
		"$IB" -c -t 2 -W Audio -w None --dma-latency 7 \
			--json d.json >out 2>&1 &
		pid=$! &&
		wait_proc ib:bench:Audio &&
		during=$(od -An -td4 /dev/cpu_dma_latency | tr -d " ") &&
		wait_pid $pid 30 && [ "$rc" = 0 ] &&
		after=$(od -An -td4 /dev/cpu_dma_latency | tr -d " ") &&
		[ "$during" = 7 ] && [ "$after" = "$before" ] &&
		has out "cpu_dma_latency held at 7 us" &&
		has d.json "\"dma_latency_us\": 7"
	'
else
	test_skip '--dma-latency held and let go' 'needs root and /dev/cpu_dma_latency'
fi

test_done
