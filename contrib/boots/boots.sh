#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/boots/boots.sh - measure K boots: reboot the machine K times
# and run interbench once (or IB_INVOCATIONS times) in each boot, a
# result file per run, so that `interbench study DIR` can tell how much
# of a cell's variance is the boot's (memory placement, IRQ affinity,
# timer placement), the invocation's and the repeat's.
#
#   boots.sh start DIR K [INTERBENCH OPTIONS...]
#   boots.sh step DIR
#   boots.sh status DIR
#   boots.sh stop DIR
#
# start   checks the options (interbench --dry-run), records the plan in
#         DIR (made if missing, and holding no plan yet), installs the
#         boot hook and reboots. The hook is a systemd oneshot unit,
#         interbench-boots.service, that runs `boots.sh step DIR` once
#         multi-user.target is reached, enabled with systemctl.
# step    what each boot runs (the hook): waits IB_SETTLE seconds, runs
#         interbench with the options and --json DIR/boot-N.json under a
#         time limit, records the boot's id and the outcome in DIR/boots,
#         then reboots while fewer than K boots were measured; after the
#         K-th it removes the hook, writes DIR/done and says what next.
# status  the plan, the boots so far, the hook, and whether it ended.
# stop    removes the hook and marks DIR stopped: no step measures or
#         reboots again, whatever it is doing now.
#
# The environment at start (read once, recorded in DIR/plan: at boot
# the hook runs with systemd's, not yours):
#   IB              interbench (default: the one at the top of this tree)
#   IB_SETTLE       seconds a step waits before measuring (default 60): a
#                   boot's own work (services starting, udev, timers due
#                   at boot, the page cache filling) would be measured
#                   as the boot's effect
#   IB_TIMEOUT      seconds an interbench run may take (default 7200);
#                   then it is stopped (SIGTERM, SIGKILL 60 s later) and
#                   recorded as timed out
#   IB_INVOCATIONS  I: interbench runs I times in each boot, files
#                   boot-N.inv-J.json (default 1: boot-N.json), so that
#                   one procedure measures both the boot and the
#                   invocation level
#   IB_REBOOT       the command that reboots (default: systemctl reboot)
#   IB_SYSTEMCTL    systemctl (default: systemctl)
#   IB_SYSTEMD_DIR  where the unit is written (default /etc/systemd/system)
#   IB_BOOT_ID_FILE a test hook: where the boot's id is read (default
#                   /proc/sys/kernel/random/boot_id); a machine that
#                   cannot reboot (tests/t0230-boots.sh) stands in ids
#
# DIR holds: plan and options (what start recorded), boots (a line per
# boot: N, its boot id, ok, failed:STATUS or timeout), boot-N.json (or
# boot-N.inv-J.json) and boot-N.out (interbench's output, or .inv-J.out)
# for every run, a failed run's partial file as boot-N.json.failed, log
# (what each step did, dated), done or stopped (why) at the end.
#
# Safety. A run that exits with a status other than 0 or 1 (1: a
# --fail-if gate broke, the file is whole) or runs past IB_TIMEOUT is
# recorded and not counted: another boot is tried, and two such boots in
# a row stop the procedure (so at most 2K boots are made). A step whose
# boot id is the previous step's (or start's, for the first) says that
# no reboot happened and stops it; so does a reboot command that fails.
# Stopping removes the hook, so no reboot loop is left behind. A lock
# (DIR/lock, flock) keeps two steps from running at once.
#
# Exit status: 0 done, or the next boot asked for; 1 the procedure
# stopped (a line says why; DIR/stopped too); 2 bad command line or
# environment (one line; nothing installed); 3 another step holds DIR's
# lock, or the hook could not be installed.

me=boots.sh
set -f	# options are kept as words, never globbed
unit=interbench-boots.service

say() { printf '%s: %s\n' "$me" "$*"; }
die() {
	st=$1
	shift
	printf '%s: %s\n' "$me" "$*" >&2
	exit "$st"
}
usage="usage: $me start DIR K [OPTIONS...] | step DIR | status DIR | stop DIR (-h for more)"

if [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit 0
fi
[ $# -ge 2 ] || die 2 "$usage"
cmd=$1
dir=$2
shift 2

# A natural number ($2 names it in the error): at least $3.
number() {
	case $1 in
	''|*[!0-9]*) die 2 "$2 '$1' is not a whole number" ;;
	esac
	[ "${#1}" -le 6 ] && [ "$1" -ge "$3" ] ||
		die 2 "$2 '$1' is out of range ($3 to 999999)"
}

# The plan's value of key $1 (a line key=value in DIR/plan).
plan() { sed -n "s/^$1=//p" "$dir/plan" | head -n 1; }

# A path the unit's command line can carry unquoted ($2 names it).
plain() {
	case $1 in
	*[!A-Za-z0-9._/+,:@-]*)
		die 2 "$2 '$1' has a character the unit's command line would need quoted: use a plain path" ;;
	esac
}

boot_id() { head -n 1 "$bootid_file" 2>/dev/null; }

logline() { printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >>"$dir/log"; }

unit_path() { printf '%s/%s\n' "$sysdir" "$unit"; }

# Remove the hook: disabled, its unit file gone, systemd told. Each part
# is tried even if one fails; the return says whether the file is gone.
unhook() {
	[ -e "$(unit_path)" ] || return 0
	$systemctl disable "$unit" >/dev/null 2>&1
	rm -f "$(unit_path)"
	$systemctl daemon-reload >/dev/null 2>&1
	[ ! -e "$(unit_path)" ]
}

# End the procedure: the hook removed, DIR/stopped says why, status 1.
stop_here() {
	unhook || say "could not remove $(unit_path): remove it by hand" >&2
	echo "$*" >"$dir/stopped"
	logline "stopped: $*"
	die 1 "stopped: $*"
}

# The settings recorded by start, in the variables every command uses.
load_plan() {
	[ -f "$dir/plan" ] || die 2 "$dir holds no plan (boots.sh start DIR K ...)"
	dir=$(cd "$dir" && pwd)
	k=$(plan k) ib=$(plan ib) settle=$(plan settle) tmo=$(plan timeout)
	invs=$(plan invocations) reboot=$(plan reboot)
	systemctl=$(plan systemctl) sysdir=$(plan systemd_dir)
	bootid_file=$(plan boot_id_file) script=$(plan script)
}

# --- start

cmd_start() {
	[ $# -ge 1 ] || die 2 "$usage"
	k=$1
	shift
	number "$k" K 1
	plain "$dir" DIR
	for o; do
		case $o in
		--json|--json=*) die 2 "option '$o': boots.sh gives --json itself (DIR/boot-N.json)" ;;
		*'
'*) die 2 "an option holds a newline: the plan keeps one option a line" ;;
		esac
	done
	here=$(cd "$(dirname "$0")" && pwd) || die 2 "cannot find my own directory"
	plain "$here" "this script's directory"
	ib=${IB:-$here/../../interbench}
	case $ib in /*) ;; *) ib=$(pwd)/$ib ;; esac
	[ -x "$ib" ] && [ -f "$ib" ] || die 2 "IB '$ib' is not an executable file (make, or set IB)"
	settle=${IB_SETTLE:-60}
	number "$settle" IB_SETTLE 0
	tmo=${IB_TIMEOUT:-7200}
	number "$tmo" IB_TIMEOUT 1
	invs=${IB_INVOCATIONS:-1}
	number "$invs" IB_INVOCATIONS 1
	reboot=${IB_REBOOT:-systemctl reboot}
	systemctl=${IB_SYSTEMCTL:-systemctl}
	sysdir=${IB_SYSTEMD_DIR:-/etc/systemd/system}
	bootid_file=${IB_BOOT_ID_FILE:-/proc/sys/kernel/random/boot_id}
	case $sysdir in /*) ;; *) sysdir=$(pwd)/$sysdir ;; esac
	[ -d "$sysdir" ] || die 2 "IB_SYSTEMD_DIR '$sysdir' is not a directory"
	[ -e "$sysdir/$unit" ] &&
		die 2 "$sysdir/$unit exists: another procedure runs (boots.sh stop ITS_DIR)"
	boot0=$(boot_id)
	[ -n "$boot0" ] || die 2 "cannot read the boot id from $bootid_file"
	mkdir -p "$dir" || die 2 "cannot make DIR '$dir'"
	dir=$(cd "$dir" && pwd)
	plain "$dir" DIR
	[ -e "$dir/plan" ] && die 2 "$dir already holds a plan: a new DIR, or rm -r it"
	# The options are checked now, not at the first boot: a bad one
	# would otherwise cost a reboot to find.
	"$ib" "$@" --dry-run --json "$dir/check.json" >"$dir/check.out" 2>&1
	st=$?
	why=$(grep -v '^$' "$dir/check.out" | tail -n 1)
	rm -f "$dir/check.json" "$dir/check.out"
	[ $st -eq 0 ] || die 2 "interbench refuses the options: $why"
	: >"$dir/options"
	for o; do
		printf '%s\n' "$o" >>"$dir/options"
	done
	{
		echo "k=$k"
		echo "ib=$ib"
		echo "settle=$settle"
		echo "timeout=$tmo"
		echo "invocations=$invs"
		echo "reboot=$reboot"
		echo "systemctl=$systemctl"
		echo "systemd_dir=$sysdir"
		echo "boot_id_file=$bootid_file"
		echo "script=$here/$me"
		echo "start_boot_id=$boot0"
		echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} >"$dir/plan"
	: >"$dir/boots"
	script=$here/$me
	hook || {
		unhook
		rm -f "$dir/plan"
		die 3 "could not install the boot hook ($(unit_path))"
	}
	logline "start: $k boots, in boot $boot0; rebooting"
	say "$k boots planned in $dir; hook $(unit_path) installed; rebooting ($reboot)"
	do_reboot
}

# Install the hook: the unit, enabled for multi-user.target.
hook() {
	cat >"$(unit_path)" <<EOF || return 1
# Made by $script start: removed by its last step, or by
# $script stop $dir
[Unit]
Description=interbench boots: measure this boot ($dir)
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/bin/sh $script step $dir
# The step has its own time limit (IB_TIMEOUT) on interbench.
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
	$systemctl daemon-reload && $systemctl enable "$unit"
}

# Reboot, or stop the procedure if the command fails.
do_reboot() {
	sh -c "$reboot" || stop_here "the reboot command failed ($reboot)"
	exit 0
}

# --- step

# Run interbench once: $1 the file's stem (boot-N or boot-N.inv-J).
# Returns 0 measured, else the status (124: timed out).
run_one() {
	stem=$1
	# The options one a line, back into the positional parameters.
	set --
	while IFS= read -r o; do
		set -- "$@" "$o"
	done <"$dir/options"
	timeout -k 60 "$tmo" "$ib" "$@" --json "$dir/$stem.json" \
		>"$dir/$stem.out" 2>&1 </dev/null
	st=$?
	case $st in
	0|1) return 0 ;;
	esac
	[ -e "$dir/$stem.json" ] && mv -f "$dir/$stem.json" "$dir/$stem.json.failed"
	return $st
}

cmd_step() {
	[ $# -eq 0 ] || die 2 "$usage"
	load_plan
	exec 9>>"$dir/lock"
	flock -n 9 || die 3 "another step holds $dir/lock"
	if [ -e "$dir/stopped" ]; then
		unhook
		die 1 "$dir was stopped ($(cat "$dir/stopped")): nothing run"
	fi
	if [ -e "$dir/done" ]; then
		unhook
		say "$dir is done: nothing run"
		exit 0
	fi
	n=$(($(wc -l <"$dir/boots") + 1))
	id=$(boot_id)
	[ -n "$id" ] || stop_here "cannot read the boot id from $bootid_file"
	prev=$(tail -n 1 "$dir/boots" | cut -d ' ' -f 2)
	[ -n "$prev" ] || prev=$(plan start_boot_id)
	[ "$id" != "$prev" ] ||
		stop_here "boot $n has the previous boot's id ($id): no reboot happened"
	logline "boot $n ($id): settling ${settle} s"
	sleep "$settle"
	outcome=ok
	j=1
	while [ $j -le "$invs" ]; do
		stem=boot-$n
		[ "$invs" -gt 1 ] && stem=boot-$n.inv-$j
		run_one "$stem"
		st=$?
		# timeout(1): 124 after SIGTERM, 137 when SIGKILL was needed
		if [ $st -eq 124 ] || [ $st -eq 137 ]; then
			outcome=timeout
		elif [ $st -ne 0 ]; then
			outcome=failed:$st
		fi
		logline "boot $n: $stem: interbench status $st"
		j=$((j + 1))
	done
	last=$(tail -n 1 "$dir/boots" | cut -d ' ' -f 3)
	echo "$n $id $outcome" >>"$dir/boots"
	# boots.sh stop while this boot measured: no reboot.
	[ -e "$dir/stopped" ] && stop_here "$(cat "$dir/stopped")"
	if [ "$outcome" != ok ]; then
		say "boot $n: interbench $outcome (see $dir/boot-$n*.out)" >&2
		case $last in
		''|ok) ;;
		*) stop_here "two boots in a row failed (boots $((n - 1)) and $n: $last, $outcome)" ;;
		esac
	fi
	got=$(grep -c ' ok$' "$dir/boots")
	if [ "$got" -ge "$k" ]; then
		unhook || say "could not remove $(unit_path): remove it by hand" >&2
		echo "$got boots measured of $n" >"$dir/done"
		logline "done: $got boots measured"
		say "done: $got boots measured in $dir; next: interbench study $dir"
		exit 0
	fi
	logline "boot $n: $outcome; $got of $k measured; rebooting"
	say "boot $n: $outcome; $got of $k measured; rebooting"
	exec 9>&-
	do_reboot
}

# --- status, stop

cmd_status() {
	[ $# -eq 0 ] || die 2 "$usage"
	load_plan
	got=$(grep -c ' ok$' "$dir/boots")
	all=$(wc -l <"$dir/boots")
	echo "plan: $k boots of: $ib $(tr '\n' ' ' <"$dir/options")"
	echo "measured: $got of $k ($all boots, $((all - got)) failed)"
	if [ -e "$(unit_path)" ]; then
		echo "hook: $(unit_path)"
	else
		echo "hook: none"
	fi
	if [ -e "$dir/done" ]; then
		echo "done: $(cat "$dir/done")"
	elif [ -e "$dir/stopped" ]; then
		echo "stopped: $(cat "$dir/stopped")"
	else
		echo "running"
	fi
	if [ "$all" -gt 0 ]; then
		echo "last boot: $(tail -n 1 "$dir/boots")"
	fi
}

cmd_stop() {
	[ $# -eq 0 ] || die 2 "$usage"
	load_plan
	if [ ! -e "$dir/done" ] && [ ! -e "$dir/stopped" ]; then
		echo "stopped by hand" >"$dir/stopped"
		logline "stopped by hand"
	fi
	unhook || die 3 "could not remove $(unit_path): remove it by hand"
	say "hook removed; $(grep -c ' ok$' "$dir/boots") boots measured in $dir"
}

case $cmd in
start) cmd_start "$@" ;;
step) cmd_step "$@" ;;
status) cmd_status "$@" ;;
stop) cmd_stop "$@" ;;
*) die 2 "unknown command '$cmd': $usage" ;;
esac
