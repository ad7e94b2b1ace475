#!/bin/sh
# Files that cannot be turned against their user: a symbolic link planted
# where interbench writes (each output, its temporary file, the logfile,
# the calibration) is never written through; the logfile is never a link,
# a file with other links or another user's file in a shared directory.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
RUN="-t 0.2 -W audio -w none"
LOG=$(uname -r).log

# A file that must never change.
victim() { echo "do not touch" >victim; }
untouched() { [ "$(cat victim)" = "do not touch" ] || fail "victim written: $(cat victim)"; }

for kind in json csv junit kcidb ktap; do
	test_expect_success "--$kind: a link planted at the file is replaced, not followed" '
		victim && ln -s victim out &&
		"$IB" $LPM $RUN -c --'$kind' out >log 2>&1 || { cat log; false; }
		untouched && [ -f out ] && [ ! -L out ] && [ -s out ]
	'
	test_expect_success "--$kind: a link planted at out.tmp (the old temporary name) is never used" '
		rm -f out out.tmp && victim && ln -s victim out.tmp &&
		"$IB" $LPM $RUN -c --'$kind' out >log 2>&1 || { cat log; false; }
		untouched && [ -L out.tmp ] && [ -f out ] && [ ! -L out ]
	'
	test_expect_success "--$kind: no temporary file is left behind" '
		ls >files && ! grep -q "^out\.[A-Za-z0-9]\{6\}$" files || { cat files; false; }
	'
done

# A device, or a link to one or into /proc (as /dev/stdout is, to
# /proc/self/fd/1: a regular file when the output is redirected), is
# never renamed over: `--json /dev/null` once made /dev/null a regular
# file. The links here are the test's own, never the system's.
ln -s /proc/self/fd/1 stdout-link
if is_root && mknod dev c 1 3 2>/dev/null && ln -s dev dev-link; then
	for o in "--json dev" "--csv dev" "--junit dev" "--html dev" "--kcidb dev" "--ktap dev" \
	    "--json dev-link" "--junit stdout-link"; do
		test_expect_success "$o: a device there is refused before anything runs" '
			status_is 2 "$IB" $LPM $RUN -c '"$o"' >out 2>err &&
			[ $(err_lines err) = 1 ] && has err "it is not a regular file" &&
			[ -c dev ] && [ -L dev-link ] && [ -L stdout-link ] && [ ! -s out ]
		'
	done
	test_expect_success 'report -o and compare --json/--html: a device is refused' '
		"$IB" $LPM $RUN -c --json r.json >log 2>&1 &&
		status_is 2 "$IB" report r.json -o dev 2>err && has err "not a regular file" &&
		status_is 2 "$IB" compare r.json r.json --json dev >/dev/null 2>err &&
		has err "not a regular file" &&
		status_is 2 "$IB" compare r.json r.json --html dev >/dev/null 2>err &&
		has err "not a regular file" && [ -c dev ] &&
		[ -z "$(ls dev.* 2>/dev/null)" ]
	'
else
	test_skip 'a device at an output is refused' 'needs root to make a device node'
fi

test_expect_success 'a name too long for its temporary is refused before anything runs' '
	long=$(printf "%0250d" 0).json &&
	status_is 2 "$IB" $LPM $RUN -c --json "$long" >out 2>err &&
	[ $(err_lines err) = 1 ] && has err "option --json: cannot write .*: File name too long" &&
	[ ! -s out ] && [ -z "$(ls 0000* 2>/dev/null)" ]
'

test_expect_success 'a link planted at the calibration file is replaced, not followed' '
	victim && rm -f interbench.loops_per_ms && ln -s victim interbench.loops_per_ms &&
	"$IB" -b $RUN -c >log 2>&1 || { cat log; false; }
	untouched && [ ! -L interbench.loops_per_ms ] &&
	grep -q "^[0-9][0-9]*$" interbench.loops_per_ms
'

test_expect_success 'a link at the calibration file is not read as one, and says so' '
	echo 1234 >other && rm -f interbench.loops_per_ms &&
	ln -s other interbench.loops_per_ms &&
	"$IB" $RUN -c >log 2>&1 || { cat log; false; }
	has log "not reading interbench.loops_per_ms: it is a symbolic link" &&
	hasnt log "Loops per ms: 1234 "
'

CAL="$XDG_STATE_HOME/interbench/$(uname -n).loops_per_ms"
test_expect_success 'a link planted at the per-machine calibration is replaced, not followed, and not read' '
	rm -f interbench.loops_per_ms && victim && echo 1234 >other &&
	mkdir -p "$XDG_STATE_HOME/interbench" && rm -f "$CAL" && ln -s "$TRASH/other" "$CAL" &&
	"$IB" $RUN -c >log 2>&1 || { cat log; false; }
	has log "not reading $CAL: it is a symbolic link" && hasnt log "Loops per ms: 1234 " &&
	[ ! -L "$CAL" ] && [ "$(cat other)" = 1234 ] && sed -n 1p "$CAL" | grep -q "^[0-9][0-9]*$" &&
	rm -f "$CAL" && ln -s "$TRASH/victim" "$CAL" &&
	"$IB" -b $RUN -c >log 2>&1 || { cat log; false; }
	untouched && [ ! -L "$CAL" ]
'

test_expect_success 'a link planted at the logfile is refused before anything starts' '
	victim && rm -f "$LOG" && ln -s victim "$LOG" &&
	status_is 2 "$IB" $LPM $RUN >out 2>err &&
	untouched && has err "logfile .*: it is a symbolic link (use -c" && [ ! -s out ]
'

test_expect_success 'a logfile with another hard link is refused' '
	rm -f "$LOG" && victim && ln victim "$LOG" &&
	status_is 2 "$IB" $LPM $RUN >out 2>err &&
	untouched && has err "it has other hard links"
'

test_expect_success 'a FIFO at the logfile is refused, not waited on' '
	rm -f "$LOG" && mkfifo "$LOG" &&
	status_is 2 timeout 10 "$IB" $LPM $RUN >out 2>err &&
	has err "it is not a regular file"
'

test_expect_success 'an ordinary logfile of ours is still appended to' '
	rm -f "$LOG" && echo "earlier run" >"$LOG" &&
	"$IB" $LPM $RUN >out 2>&1 && head -n 1 "$LOG" | grep -q "^earlier run$" &&
	has "$LOG" "^Benchmarking kernel"
'

if is_root && command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$TRASH"
	test_expect_success 'root does not append to a logfile another user planted in a sticky shared directory' '
		mkdir -m 1777 shared &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			sh -c "echo planted >shared/$LOG" &&
		cd shared && status_is 2 "$IB" $LPM $RUN >out 2>err &&
		has err "it belongs to another user in a shared directory" &&
		[ "$(cat "$LOG")" = planted ]
	'
	test_expect_success 'root does not trust a calibration file another user planted in a sticky directory' '
		mkdir -m 1777 shared-calib &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			sh -c "echo 1 >shared-calib/interbench.loops_per_ms" &&
		cd shared-calib && "$IB" -t 0.1 -c -W audio -w none >out 2>err &&
		has err "not reading interbench.loops_per_ms: it belongs to another user in a shared directory" &&
		! grep -q "^Using 1 loops per ms" out
	'
	test_expect_success 'a user'"'"'s calibration goes to ~/.local/state/interbench without XDG_STATE_HOME' '
		mkdir nhome && chown nobody nhome && chmod 755 . &&
		(cd nhome && env -u XDG_STATE_HOME HOME="$TRASH/nhome" \
			INTERBENCH_LOCK="$TRASH/nhome/lock" \
			setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$IB" -t 0.2 -c -W audio -w none) >out 2>err || { cat out err; false; }
		f=nhome/.local/state/interbench/$(uname -n).loops_per_ms &&
		sed -n 1p "$f" | grep -q "^[0-9][0-9]*$" &&
		[ "$(stat -c %U:%a nhome/.local/state/interbench)" = nobody:700 ] &&
		[ "$(stat -c %a nhome/.local/state)" = 700 ] &&
		has out "measured now, saved in $TRASH/$f" && [ ! -e nhome/interbench.loops_per_ms ]
	'
	test_expect_success 'root appends to a logfile of the directory'"'"'s owner (sudo in a home)' '
		mkdir home && chown nobody home &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			sh -c "echo mine >home/$LOG" &&
		cd home && "$IB" $LPM $RUN >out 2>&1 && has "$LOG" "^Benchmarking kernel"
	'
	test_expect_success 'root replaces, not writes into, a JSON file another user planted' '
		mkdir -m 1777 shared2 &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			sh -c "echo planted >shared2/out.json; chmod 666 shared2/out.json" &&
		ln shared2/out.json planted &&
		"$IB" $LPM $RUN -c --json shared2/out.json >out 2>&1 || { cat out; false; }
		[ "$(stat -c %U shared2/out.json)" = root ] && valid_json shared2/out.json &&
		[ "$(cat planted)" = planted ]
	'
	test_expect_success 'the Read load leaves another user'"'"'s file in -D: one line, exit 2' '
		mkdir -m 1777 shared-d &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			sh -c "echo theirs >shared-d/interbench.read" &&
		status_is 2 "$IB" $LPM -t 0.1 -c -W audio -w read -D shared-d >out 2>err &&
		[ $(err_lines err) = 1 ] &&
		has err "option -D: shared-d/interbench.read belongs to another user (uid [0-9]*) and the Read load would replace it" &&
		[ "$(cat shared-d/interbench.read)" = theirs ] && [ ! -s out ]
	'
else
	test_skip 'root and another user'"'"'s logfile in a sticky directory' 'not root, or no setpriv'
	test_skip 'root appends to a logfile of the directory'"'"'s owner' 'not root, or no setpriv'
	test_skip 'root replaces a JSON file another user planted' 'not root, or no setpriv'
	test_skip 'the Read load leaves another user'"'"'s file in -D' 'not root, or no setpriv'
fi

# Outputs on a filesystem that fills up: one line naming the file and the
# real errno, exit 3, and what was valid is left valid.
if is_root && mkdir full && mount -t tmpfs -o size=16k tmpfs full 2>/dev/null; then
	test_expect_success 'a JSON file that no longer fits: one line, exit 3, still a whole document' '
		status_is 3 "$IB" $LPM -t 0.1 -c -W audio -w none -n 6 --json full/k.json >out 2>err &&
		[ $(err_lines err) = 1 ] && has err "cannot write full/k.json: No space left on device" &&
		valid_json full/k.json &&
		[ $(grep -c "\"bench\": \"Audio\"" full/k.json) -lt 6 ] &&
		[ -z "$(ls full | grep -v "^k.json$")" ]
	'
	rm -f full/k.json
	test_expect_success 'a logfile that cannot be written: said, exit 3' '
		head -c 16384 /dev/zero >full/fill 2>/dev/null; (cd full &&
		status_is 3 "$IB" $LPM -t 0.1 -W audio -w none >../out 2>../err) &&
		has err "cannot write the logfile .*: No space left on device"
	'
	umount full
else
	test_skip 'outputs on a full filesystem' 'needs root to mount a small tmpfs'
fi
# Root's calibration, without XDG_STATE_HOME, is the machine's: in a
# private mount namespace, on a fresh /var/lib, never the system's.
if is_root && unshare -m true 2>/dev/null; then
	test_expect_success 'root'"'"'s calibration goes to /var/lib/interbench without XDG_STATE_HOME' '
		env -u XDG_STATE_HOME unshare -m sh -c "
			mount -t tmpfs -o mode=755 tmpfs /var/lib || exit 9
			\"\$0\" -t 0.2 -c -W audio -w none >out 2>err; echo \$? >rc
			stat -c %U:%a /var/lib/interbench >mode
			cat /var/lib/interbench/$(uname -n).loops_per_ms >cal" "$IB" &&
		[ "$(cat rc)" = 0 ] && [ "$(cat mode)" = root:700 ] &&
		sed -n 1p cal | grep -q "^[0-9][0-9]*$" && has cal "^kernel $(uname -r)$" &&
		has out "measured now, saved in /var/lib/interbench/$(uname -n).loops_per_ms"
	'
else
	test_skip 'root'"'"'s calibration in /var/lib/interbench' 'needs root and unshare -m'
fi

# An output that is an input, or two outputs in one file: one line,
# exit 2, nothing replaced.
test_expect_success 'an output naming an input or another output is refused' '
	"$IB" $LPM $RUN -c --json in.json >log 2>&1 && cp in.json keep.json &&
	status_is 2 "$IB" report in.json -o in.json 2>err && has err "in.json is a result file to read" &&
	status_is 2 "$IB" compare in.json keep.json --json ./in.json >/dev/null 2>err &&
	has err "is a result file to read" &&
	status_is 2 "$IB" compare in.json keep.json --json x.json --html x.json >/dev/null 2>err &&
	has err "name one file" &&
	status_is 2 "$IB" $LPM $RUN -c --json f --html f 2>err && has err "options --json and --html name one file" &&
	status_is 2 "$IB" $LPM $RUN -c --json g.json --junit ./g.json 2>err &&
	has err "options --json and --junit name one file, ./g.json" &&
	status_is 2 "$IB" compare in.json keep.json --json y.json --html ../${PWD##*/}/y.json >/dev/null 2>err &&
	has err "name one file" &&
	cmp in.json keep.json && [ ! -e f ] && [ ! -e x.json ] && [ ! -e g.json ] && [ ! -e y.json ]
'
test_expect_success 'nothing was left running' 'no_ib_procs'
test_done
