#!/bin/sh
# How the benchmarked tasks and the loads are scheduled: --bench-policy,
# --bench-slice, --load-policy; their errors and refusals; the class the
# kernel reports for the simulated thread; compare refusing mixed runs.
. "$(dirname "$0")/lib.sh"

# count FILE TEXT: lines of FILE with TEXT
count() { grep -c -- "$2" "$1"; }

test_expect_success 'bad values: one line, exit 2, nothing started' '
	status_is 2 "$IB" --bench-policy bogus 2>err && has err "expected other, batch" &&
	status_is 2 "$IB" --load-policy fifo 2>err && has err "expected other, batch or idle" &&
	status_is 2 "$IB" --bench-slice 50 2>err && has err "out of range" &&
	status_is 2 "$IB" --bench-slice 300 --bench-policy rr 2>err &&
	has err "fair classes" &&
	status_is 2 "$IB" -r --bench-policy idle 2>err && has err "contradicts" &&
	status_is 2 "$IB" --bench-policy deadline -W Gaming 2>err &&
	has err "cannot be a deadline task" &&
	[ $(err_lines err) = 1 ] && no_ib_procs &&
	for bad in bogus cgroup:0 cgroup:10001 cgroup:x "cgroup:"; do
		status_is 2 "$IB" --load-group "$bad" 2>err &&
		has err "is not same, session, cgroup or cgroup:WEIGHT" &&
		[ $(err_lines err) = 1 ] || return 1
	done
'

test_expect_success 'deadline leaves out what is not periodic by default' '
	"$IB" --bench-policy deadline --dry-run >out &&
	has out "Audio under None" && hasnt out "Gaming under"
'

if is_root; then
	# threads NAME FIELD: FIELD of /proc/PID/sched of every thread of the
	# process named NAME, sorted, on one line: what the kernel shows
	# while it runs, beside what the run recorded of itself.
	threads() {
		p=$(our_procs "$1" | head -n 1) && [ -n "$p" ] &&
		cat /proc/$p/task/*/sched | awk -v f="$2" '$1 == f { print $3 }' |
			sort -n | tr "\n" " "
	}

	# One short cell a class: the kernel says what the thread got.
	for pol in other batch idle fifo rr deadline; do
		test_expect_success "--bench-policy $pol: the simulated thread ran $pol" "
			\"\$IB\" -c -t 0.5 -W Audio -W Video -w None \
				--bench-policy $pol --json $pol.json >out 2>&1 ||
				{ cat out; false; } &&
			[ \$(count $pol.json '\"policy\": \"$pol\"') = 2 ] &&
			has $pol.json '\"bench_policy\": \"$pol\"'
		"
	done

	test_expect_success 'deadline: runtime from the need (+1/8), period from the period' '
		has deadline.json "\"runtime_us\": 2812.5" &&
		has deadline.json "\"period_us\": 50000" &&
		has out "SCHED_DEADLINE"
	'

	test_expect_success '-r is fifo' '
		"$IB" -c -t 0.5 -W Audio -w None -r --json r.json >out 2>&1 &&
		has r.json "\"bench_policy\": \"fifo\"" &&
		has r.json "\"policy\": \"fifo\""
	'

	test_expect_success 'a deadline task may not be bound to one CPU: exit 3, nothing started' '
		status_is 3 "$IB" -c -t 0.5 -W Audio -w None -u \
			--bench-policy deadline 2>err &&
		has err "refuses SCHED_DEADLINE" && [ $(err_lines err) = 1 ] &&
		no_ib_procs
	'

	# Linux 6.12 took slice requests; older kernels are refused.
	if "$IB" -c -t 0.2 -W Audio -w None --bench-slice 300 \
		--json slice.json >sout 2>serr; then
		test_expect_success '--bench-slice 300: the thread asked for 300 us' '
			has slice.json "\"slice_us\": 300" &&
			has slice.json "\"bench_slice_us\": 300" &&
			has sout "slice 300 us"
		'
		test_expect_success '--bench-slice 300, as /proc shows it: se.slice 300000 ns' '
			"$IB" -c -t 2 -W Audio -w None --bench-slice 300 \
				>out 2>&1 &
			pid=$! &&
			wait_proc ib:bench:Audio && sleep 0.5 &&
			slices=$(threads ib:bench:Audio se.slice)
			wait_pid $pid 30 && [ "$rc" = 0 ] &&
			echo "slices: $slices" &&
			echo " $slices" | grep -q " 300000 "
		'
	else
		test_expect_success '--bench-slice on a kernel without slices: exit 3, one line' '
			status_is 3 "$IB" -c -t 0.2 -W Audio -w None \
				--bench-slice 300 2>err &&
			has err "slice requests" && [ $(err_lines err) = 1 ]
		'
	fi

	test_expect_success 'deadline, as /proc shows it: one thread SCHED_DEADLINE, the timing thread FIFO' '
		"$IB" -c -t 2 -W Audio -w None --bench-policy deadline >out 2>&1 &
		pid=$! &&
		wait_proc ib:bench:Audio && sleep 0.5 &&
		pols=$(threads ib:bench:Audio policy)
		wait_pid $pid 30 && [ "$rc" = 0 ] &&
		echo "policies: $pols" &&
		[ "$(echo " $pols" | grep -o " 6 " | wc -l)" = 1 ] &&
		echo " $pols" | grep -q " 1 "
	'

	test_expect_success 'Gaming (greedy) records its class too' '
		"$IB" -c -t 0.5 -W Gaming -w None --bench-policy batch \
			--json g.json >out 2>&1 &&
		has g.json "\"policy\": \"batch\""
	'

	test_expect_success 'a deadline reservation taken already: exit 3 (EBUSY), one line, nothing started' '
		command -v chrt >/dev/null || { echo "no chrt: skipped"; exit 0; }
		# A sleeping task that holds 95 % of a CPU: nearly all there is
		# beside the fair servers; the probe asks a whole CPU.
		chrt -d --sched-runtime 9500000 --sched-deadline 10000000 \
			--sched-period 10000000 0 sleep 2 &
		hold=$! && sleep 0.3 &&
		status_is 3 "$IB" -c -t 0.5 -W Audio -w None \
			--bench-policy deadline 2>err;
		st=$?; kill $hold; wait $hold 2>/dev/null
		[ $st = 0 ] && has err "admission control" &&
		[ $(err_lines err) = 1 ] && no_ib_procs
	'

	test_expect_success '--load-policy idle: every thread of the load is SCHED_IDLE' '
		"$IB" -c -t 3 -W Audio -w Burn --load-policy idle \
			--json li.json >out 2>&1 &
		pid=$! &&
		wait_proc ib:load:Burn &&
		sleep 0.5 &&
		lp=$(our_procs ib:load:Burn | head -n 1) &&
		pols=$(cat /proc/$lp/task/*/sched | awk "/^policy/ { print \$3 }" | sort -u) &&
		wait_pid $pid 30 && [ "$rc" = 0 ] &&
		[ "$pols" = 5 ] &&
		has out "loads SCHED_IDLE" && has li.json "\"load_policy\": \"idle\""
	'

	test_expect_success 'compare refuses runs scheduled differently, unless asked' '
		status_is 2 "$IB" compare other.json deadline.json >out 2>err &&
		has err "scheduled differently" && [ $(err_lines err) = 1 ] &&
		# one repeat each: shown, nothing judged (exit 8)
		status_is 8 "$IB" compare other.json deadline.json --allow-policies >out 2>err &&
		has out "note: other.json: tasks other" &&
		status_is 8 "$IB" compare other.json other.json >out 2>err
	'

	# The load's session and autogroup, and interbench's own, as /proc
	# shows them while it runs: "SID AUTOGROUP-LINE".
	where() { echo "$(awk "{ print \$6 }" /proc/$1/stat) $(cat /proc/$1/autogroup)"; }

	test_expect_success '--load-group session: the load has a session (and autogroup) of its own' '
		"$IB" -c -t 3 -W Audio -w Burn --load-group session \
			--json ls.json >out 2>&1 &
		pid=$! &&
		wait_proc ib:load:Burn && sleep 0.3 &&
		lp=$(our_procs ib:load:Burn | head -n 1) &&
		bp=$(our_procs ib:bench:Audio | head -n 1) &&
		l=$(where $lp) && b=$(where $bp) && me=$(where $pid) &&
		wait_pid $pid 30 && [ "$rc" = 0 ] &&
		echo "load: $l; bench: $b; interbench: $me" &&
		[ "${l%% *}" = "$lp" ] && [ "$b" = "$me" ] &&
		if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled)" = 1 ]; then
			[ "${l#* }" != "${me#* }" ] || fail "one autogroup"
			has out "^Loads: in a session of their own (autogroup on"
		fi &&
		has ls.json "\"load_group\": \"session\""
	'

	cg_root() {
		if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
			echo /sys/fs/cgroup
		else
			echo /sys/fs/cgroup/cpu
		fi
	}
	if grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
	   [ -e /sys/fs/cgroup/cpu/cpu.shares ]; then
		test_expect_success '--load-group cgroup:10: the load in its own group at that weight, removed after' '
			"$IB" -c -t 3 -W Audio -w Burn --load-group cgroup:10 \
				--json lc.json >out 2>&1 &
			pid=$! &&
			wait_proc ib:load:Burn && sleep 0.3 &&
			lp=$(our_procs ib:load:Burn | head -n 1) &&
			bp=$(our_procs ib:bench:Audio | head -n 1) &&
			g=$(cg_root)/interbench-$pid &&
			procs=$(cat $g/cgroup.procs) &&
			w=$(cat $g/cpu.weight 2>/dev/null || cat $g/cpu.shares) &&
			in_b=$(grep -c "interbench-" /proc/$bp/cgroup || true) &&
			wait_pid $pid 30 && [ "$rc" = 0 ] &&
			echo "procs $procs weight $w" &&
			echo "$procs" | grep -qx "$lp" && [ "$in_b" = 0 ] &&
			{ [ "$w" = 10 ] || [ "$w" = 102 ]; } &&
			[ ! -e "$g" ] &&
			has lc.json "\"load_group\": \"cgroup\"" &&
			has lc.json "\"load_cpu_weight\": 10" &&
			has out "^Loads: in their own cgroup v[12] $g, cpu"
		'

		test_expect_success 'cgroup: removed after SIGINT; a SIGKILLed run'"'"'s removed by the next run' '
			"$IB" -c -t 5 -W Audio -w Burn --load-group cgroup >out 2>&1 &
			pid=$! &&
			wait_proc ib:load:Burn && kill -INT $pid &&
			wait_pid $pid 30 && [ "$rc" = 130 ] &&
			[ ! -e $(cg_root)/interbench-$pid ] ||
				fail "after SIGINT (exit $rc): $(ls -d $(cg_root)/interbench-*)"
			"$IB" -c -t 5 -W Audio -w Burn --load-group cgroup >out 2>&1 &
			pid=$! &&
			wait_proc ib:load:Burn && kill -KILL $pid &&
			wait_pid $pid 30 && sleep 0.5 &&
			[ -d $(cg_root)/interbench-$pid ] &&
			"$IB" -c -t 0.2 -W Audio -w None --load-group cgroup >out 2>&1 &&
			[ ! -e $(cg_root)/interbench-$pid ]
		'

		test_expect_success 'compare refuses loads placed differently, unless asked' '
			status_is 2 "$IB" compare other.json lc.json >out 2>err &&
			has err "loads other in their own cgroup weight 10" &&
			status_is 8 "$IB" compare other.json lc.json --allow-policies >out 2>err &&
			has out "settings.load_group  *same -> cgroup"
		'
	else
		test_skip '--load-group cgroup' 'no cgroup hierarchy with the cpu controller'
	fi
else
	test_skip 'the classes on a real run' 'needs root (real-time and deadline)'
fi

test_done
