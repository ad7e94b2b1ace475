#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/trace-events.sh - what each class of --trace's events costs where
# it fires: perf bench sched pipe (two tasks passing a byte, on one CPU:
# two switches and two wakings a round trip) with each class alone on in
# a tracefs instance of its own (ibevents), in turn with none, ROUNDS
# times. Prints the median us a round trip and the events it wrote.
# Needs root, tracefs and perf.
#
#   bench/trace-events.sh [ROUNDS [LOOPS]]   (5, 50000)
ROUNDS=${1:-5}
LOOPS=${2:-50000}
T=/sys/kernel/tracing
command -v perf >/dev/null || { echo "needs perf" >&2; exit 1; }
CPU=$(taskset -pc $$ | sed "s/.*: //" | tr , "\n" | tail -n 1 | sed "s/.*-//")
mounted=
if [ ! -d $T/instances ]; then
	mount -t tracefs nodev $T || exit 1
	mounted=1
fi
I=$T/instances/ibevents
[ -d $I ] && { echo "$I exists" >&2; exit 1; }
trap '[ -d $I ] && { echo 0 >$I/tracing_on; rmdir $I; }
	[ -n "$mounted" ] && umount $T' EXIT
declare -A EV=(
	[none]=""
	[switch]="sched/sched_switch"
	[migrate]="sched/sched_migrate_task"
	[irq]="irq/irq_handler_entry irq/irq_handler_exit"
	[softirq]="irq/softirq_entry irq/softirq_exit"
	[waking]="sched/sched_waking"
	[hrtimer]="timer/hrtimer_expire_entry timer/hrtimer_expire_exit"
	[wakeup]="sched/sched_wakeup"
	[trace]="sched/sched_switch sched/sched_migrate_task irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit"
)
ORDER="none switch migrate irq softirq waking hrtimer wakeup trace"
for r in $(seq "$ROUNDS"); do
	for c in $ORDER; do
		if [ $c != none ]; then
			mkdir $I && echo mono >$I/trace_clock &&
			echo 8192 >$I/buffer_size_kb || exit 1
			for e in ${EV[$c]}; do echo 1 >$I/events/$e/enable; done
			echo 1 >$I/tracing_on
		fi
		us=$(taskset -c "$CPU" perf bench sched pipe -l "$LOOPS" 2>&1 |
			awk '/usecs\/op/ { print $1 }')
		n=0
		if [ $c != none ]; then
			echo 0 >$I/tracing_on
			n=$(awk '/^entries/ { print $2 }' $I/per_cpu/cpu"$CPU"/stats)
			rmdir $I
		fi
		echo "$c $us $n"
	done
done | awk -v loops="$LOOPS" -v rounds="$ROUNDS" '
function median(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j] + 0 < a[j - 1] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ if (!($1 in us)) order[++k] = $1; us[$1] = us[$1] " " $2; ev[$1] = ev[$1] " " $3 }
END {
	printf "perf bench sched pipe on one CPU, %d round trips, median of %d\n", loops, rounds
	printf "%-8s %9s %9s %9s %12s\n", "events", "us/trip", "added", "events", "us/event"
	base = median(us["none"])
	for (i = 1; i <= k; i++) {
		c = order[i]; u = median(us[c]); e = median(ev[c]) / loops
		printf "%-8s %9.3f %9.3f %9.2f %12s\n", c, u, u - base, e,
			(e > 0.1) ? sprintf("%.2f", (u - base) / e) : "-"
	}
}'
