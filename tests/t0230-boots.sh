#!/bin/sh
# contrib/boots/boots.sh on a stand-in for a machine that reboots: the
# unit directory, systemctl and the reboot command are stand-ins
# (IB_SYSTEMD_DIR, IB_SYSTEMCTL, IB_REBOOT), each "boot" is a new id in
# a file (IB_BOOT_ID_FILE) and the test runs `step` itself, as the
# hook would at the next boot. The real interbench measures K boots;
# a stand-in interbench fails, hangs or takes invocations.
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
BOOTS=$TOP/contrib/boots/boots.sh
TINY="-l 1000000 -t 0.3 -W audio -w none -c -n 1"

mkdir bin units
# systemctl: records its calls; enable and disable make and remove the
# link in multi-user.target.wants as the real one does.
cat >bin/systemctl <<EOF
#!/bin/sh
echo "\$*" >>$TRASH/systemctl.log
case \$1 in
enable) mkdir -p $TRASH/units/multi-user.target.wants &&
	ln -sf ../\$2 $TRASH/units/multi-user.target.wants/\$2 ;;
disable) rm -f $TRASH/units/multi-user.target.wants/\$2 ;;
esac
EOF
# The reboot: a line a call, and a status from the file rebootst.
cat >bin/reboot <<EOF
#!/bin/sh
echo reboot >>$TRASH/reboots
exit \$(cat $TRASH/rebootst 2>/dev/null || echo 0)
EOF
# A stand-in interbench: --dry-run refuses --bogus as the real one does;
# a run writes its --json file, sleeps ibsleep seconds if that file is
# there, and exits with the status in ibstatus (default 0).
cat >bin/fakeib <<EOF
#!/bin/sh
out=
for a; do
	case \$a in --bogus) echo "interbench: unknown option '--bogus'" >&2; exit 2 ;; esac
done
for a; do
	[ "\$a" = --dry-run ] && exit 0
done
while [ \$# -gt 0 ]; do
	[ "\$1" = --json ] && out=\$2
	shift
done
echo '{"system": {}}' >"\$out"
[ -e $TRASH/ibsleep ] && exec sleep \$(cat $TRASH/ibsleep)
exit \$(cat $TRASH/ibstatus 2>/dev/null || echo 0)
EOF
chmod +x bin/*
IB_SYSTEMD_DIR=$TRASH/units IB_SYSTEMCTL=$TRASH/bin/systemctl
IB_REBOOT=$TRASH/bin/reboot IB_SETTLE=0 IB_BOOT_ID_FILE=$TRASH/boot_id
export IB_SYSTEMD_DIR IB_SYSTEMCTL IB_REBOOT IB_SETTLE IB_BOOT_ID_FILE
UNIT=$TRASH/units/interbench-boots.service
WANTS=$TRASH/units/multi-user.target.wants/interbench-boots.service

# A new boot: a new id (as the kernel's, 36 characters), counted in a
# file, as each test's body is a subshell of its own.
new_boot() {
	n_boot=$(($(cat boot_n 2>/dev/null || echo 0) + 1))
	echo "$n_boot" >boot_n &&
	printf '%08d-0000-4000-8000-%012d\n' "$$" "$n_boot" >boot_id
}
reboots() { cat reboots 2>/dev/null | wc -l; }
hooked() { [ -f "$UNIT" ] && [ -L "$WANTS" ]; }
unhooked() { [ ! -e "$UNIT" ] && [ ! -e "$WANTS" ]; }
# A fresh start for stand-in runs: $1 the directory, $2 K, then
# VAR=VALUE settings for start.
fresh() {
	d=$1 k=$2
	shift 2
	# A hook an earlier test failed to remove would fail this one too.
	rm -rf units/* && rm -f reboots ibstatus ibsleep rebootst && new_boot &&
	env IB=$TRASH/bin/fakeib "$@" "$BOOTS" start "$d" "$k" -W audio >start.out 2>&1 &&
	[ "$(reboots)" = 1 ] && hooked
}

new_boot
test_expect_success 'start: the plan recorded, the hook installed, a reboot' '
	IB=$IB "$BOOTS" start real 3 $TINY >start.out 2>&1 &&
	has start.out "3 boots planned" &&
	[ "$(reboots)" = 1 ] && hooked &&
	has systemctl.log "^daemon-reload$" &&
	has systemctl.log "^enable interbench-boots.service$" &&
	has real/plan "^k=3$" && has real/plan "^ib=$IB$" &&
	has real/plan "^start_boot_id=$(cat boot_id)$" &&
	[ "$(tr "\n" " " <real/options)" = "$TINY " ] &&
	has "$UNIT" "^ExecStart=/bin/sh $BOOTS step $TRASH/real$" &&
	has "$UNIT" "^Type=oneshot$" && has "$UNIT" "^After=multi-user.target$" &&
	has "$UNIT" "^WantedBy=multi-user.target$"
'

# systemd's own check of the unit, where it works on a known good one.
mkdir good && printf '[Service]\nType=oneshot\nExecStart=/bin/true\n' >good/ib-good.service
if command -v systemd-analyze >/dev/null 2>&1 &&
    systemd-analyze verify good/ib-good.service >/dev/null 2>&1; then
	test_expect_success 'the unit is one systemd-analyze verify takes' '
		systemd-analyze verify "$UNIT" >verify.out 2>&1 &&
		! grep -i "warn\|error\|unknown\|ignoring" verify.out
	'
else
	test_skip 'the unit verified by systemd' 'no working systemd-analyze verify here'
fi

test_expect_success 'K boots measured by the real interbench, a file and an id each' '
	for b in 1 2 3; do
		new_boot &&
		"$BOOTS" step real >step$b.out 2>&1 || { cat step$b.out; return 1; }
		valid_json real/boot-$b.json &&
		grep -q "\"boot_id\": \"[0-9a-f-]*\"" real/boot-$b.json &&
		[ "$(sed -n "${b}p" real/boots)" = "$b $(cat boot_id) ok" ] || return 1
		if [ $b -lt 3 ]; then
			[ "$(reboots)" = $((b + 1)) ] && hooked &&
			has step$b.out "boot $b: ok; $b of 3 measured; rebooting" || return 1
		fi
	done
	[ "$(wc -l <real/boots)" = 3 ] &&
	[ "$(cut -d " " -f 2 real/boots | sort -u | wc -l)" = 3 ] &&
	ls real/boot-*.json >files && [ "$(wc -l <files)" = 3 ]
'

test_expect_success 'after the K-th: no reboot, the hook removed, done' '
	[ "$(reboots)" = 3 ] && unhooked &&
	has systemctl.log "^disable interbench-boots.service$" &&
	[ -f real/done ] && has step3.out "next: interbench study $TRASH/real$" &&
	"$BOOTS" status real >st.out && has st.out "^measured: 3 of 3 " &&
	has st.out "^hook: none$" && has st.out "^done: "
'

test_expect_success 'a step after done measures nothing and does not reboot' '
	new_boot && "$BOOTS" step real >again.out 2>&1 &&
	has again.out "is done: nothing run" &&
	[ "$(reboots)" = 3 ] && [ "$(wc -l <real/boots)" = 3 ]
'

test_expect_success 'IB_INVOCATIONS: I runs a boot, a file each' '
	fresh inv 2 IB_INVOCATIONS=2 &&
	has inv/plan "^invocations=2$" &&
	new_boot && "$BOOTS" step inv >s1.out 2>&1 &&
	new_boot && "$BOOTS" step inv >s2.out 2>&1 &&
	for f in 1.inv-1 1.inv-2 2.inv-1 2.inv-2; do
		[ -s inv/boot-$f.json ] && [ -f inv/boot-$f.out ] || fail "no boot-$f"
	done
	[ ! -e inv/boot-1.json ] && [ -f inv/done ] && [ "$(reboots)" = 2 ] && unhooked
'

test_expect_success 'stop: the hook removed, no step measures or reboots again' '
	fresh stopped 3 &&
	new_boot && "$BOOTS" step stopped >s1.out 2>&1 && [ "$(reboots)" = 2 ] &&
	"$BOOTS" stop stopped >stop.out 2>&1 && unhooked &&
	has stopped/stopped "stopped by hand" &&
	"$BOOTS" status stopped >st.out && has st.out "^stopped: stopped by hand$" &&
	new_boot && status_is 1 "$BOOTS" step stopped >s2.out 2>&1 &&
	has s2.out "nothing run" && [ "$(reboots)" = 2 ] &&
	[ "$(wc -l <stopped/boots)" = 1 ]
'

test_expect_success 'a failed run is recorded, and another boot tried' '
	fresh fail1 2 && echo 4 >ibstatus &&
	new_boot && "$BOOTS" step fail1 >s1.out 2>&1 &&
	has fail1/boots "^1 [0-9a-f-]* failed:4$" && [ -f fail1/boot-1.json.failed ] &&
	[ ! -e fail1/boot-1.json ] && [ "$(reboots)" = 2 ] && hooked &&
	rm ibstatus && new_boot && "$BOOTS" step fail1 >s2.out 2>&1 &&
	new_boot && "$BOOTS" step fail1 >s3.out 2>&1 &&
	[ -f fail1/done ] && [ "$(reboots)" = 3 ] && unhooked &&
	[ -s fail1/boot-2.json ] && [ -s fail1/boot-3.json ]
'

test_expect_success 'a broken gate (status 1) is a measured boot' '
	fresh gate 1 && echo 1 >ibstatus &&
	new_boot && "$BOOTS" step gate >s1.out 2>&1 &&
	has gate/boots " ok$" && [ -f gate/done ] && [ -s gate/boot-1.json ]
'

test_expect_success 'two failed boots in a row stop it: no reboot, no hook' '
	fresh fail2 3 && echo 3 >ibstatus &&
	new_boot && "$BOOTS" step fail2 >s1.out 2>&1 && [ "$(reboots)" = 2 ] &&
	new_boot && status_is 1 "$BOOTS" step fail2 >s2.out 2>&1 &&
	has s2.out "two boots in a row failed" && [ "$(reboots)" = 2 ] &&
	unhooked && has fail2/stopped "two boots in a row" && [ ! -e fail2/done ]
'

test_expect_success 'a run past IB_TIMEOUT is stopped and recorded' '
	fresh slow 2 IB_TIMEOUT=1 && echo 30 >ibsleep &&
	new_boot && start=$(date +%s) && "$BOOTS" step slow >s1.out 2>&1 &&
	[ $(($(date +%s) - start)) -lt 20 ] &&
	has slow/boots "^1 [0-9a-f-]* timeout$" && [ "$(reboots)" = 2 ] &&
	"$BOOTS" stop slow >/dev/null && unhooked
'

test_expect_success 'no reboot since start (the same boot id): said, stopped' '
	fresh same0 2 &&
	status_is 1 "$BOOTS" step same0 >s1.out 2>&1 &&
	has s1.out "no reboot happened" && [ "$(reboots)" = 1 ] && unhooked &&
	[ ! -s same0/boots ] && [ ! -e same0/boot-1.json ]
'

test_expect_success 'no reboot between two steps: said, stopped' '
	fresh same1 3 &&
	new_boot && "$BOOTS" step same1 >s1.out 2>&1 && [ "$(reboots)" = 2 ] &&
	status_is 1 "$BOOTS" step same1 >s2.out 2>&1 &&
	has s2.out "boot 2 has the previous boot.s id" && [ "$(reboots)" = 2 ] &&
	unhooked && [ "$(wc -l <same1/boots)" = 1 ]
'

test_expect_success 'a reboot command that fails stops it' '
	fresh rebootfail 2 && echo 1 >rebootst &&
	new_boot && status_is 1 "$BOOTS" step rebootfail >s1.out 2>&1 &&
	has s1.out "reboot command failed" && unhooked &&
	[ -s rebootfail/boot-1.json ]
'

test_expect_success 'two steps never run at once (the lock)' '
	fresh locked 2 && new_boot || return 1
	flock locked/lock sleep 3 & holder=$!
	sleep 0.5 &&
	status_is 3 "$BOOTS" step locked >s1.out 2>&1 &&
	has s1.out "another step holds" && [ ! -e locked/boot-1.json ] &&
	[ "$(reboots)" = 1 ] && hooked
	rc=$?
	kill $holder 2>/dev/null; wait $holder 2>/dev/null
	"$BOOTS" stop locked >/dev/null 2>&1
	return $rc
'

# Each bad input: exit 2, one line on stderr, nothing installed or
# rebooted.
bad() {
	rm -f reboots && new_boot &&
	status_is 2 "$@" >bad.out 2>bad.err && [ "$(wc -l <bad.err)" = 1 ] &&
	[ ! -s bad.out ] && [ "$(reboots)" = 0 ] && unhooked ||
		{ cat bad.err; return 1; }
}
test_expect_success 'bad input: one line, exit 2, nothing installed' '
	bad "$BOOTS" &&
	bad "$BOOTS" start b1 &&
	bad "$BOOTS" start b2 0 &&
	bad "$BOOTS" start b3 three &&
	bad "$BOOTS" start b4 2 --json x.json &&
	bad "$BOOTS" start b5 2 --json=x.json &&
	bad "$BOOTS" start "b 6" 2 &&
	bad "$BOOTS" frob b7 &&
	bad "$BOOTS" step nowhere &&
	bad "$BOOTS" status nowhere &&
	bad "$BOOTS" stop nowhere &&
	bad env IB=$TRASH/nothing "$BOOTS" start b8 2 &&
	bad env IB_SETTLE=soon "$BOOTS" start b9 2 &&
	bad env IB_INVOCATIONS=0 "$BOOTS" start b10 2 &&
	bad env IB_SYSTEMD_DIR=$TRASH/none "$BOOTS" start b11 2 &&
	bad env IB="$IB" "$BOOTS" start b12 2 --bogus-option &&
	has bad.err "interbench refuses the options: .*bogus-option" &&
	[ ! -e b12/plan ] &&
	IB=$TRASH/bin/fakeib "$BOOTS" start b13 2 >/dev/null && rm -f reboots &&
	status_is 2 "$BOOTS" start b14 2 2>bad.err && [ "$(wc -l <bad.err)" = 1 ] &&
	has bad.err "exists: another procedure runs" &&
	[ "$(reboots)" = 0 ] && hooked && has "$UNIT" " step $TRASH/b13$" &&
	"$BOOTS" stop b13 >/dev/null &&
	bad "$BOOTS" start b13 2 && has bad.err "already holds a plan"
'

test_expect_success '-h prints the documentation' '
	"$BOOTS" -h >help && has help "^  boots.sh start DIR K" &&
	has help "IB_BOOT_ID_FILE"
'

# --- LAVA: contrib/lava/boots-job.sh's job, boots.yaml's steps

LAVA=$TOP/contrib/lava
IB_REPO=https://example.org/interbench.git IB_REVISION=0123abc
export IB_REPO IB_REVISION

test_expect_success 'LAVA: a job of K boot and test actions, boot N in each' '
	"$LAVA/boots-job.sh" 3 >job.yaml &&
	[ "$(grep -c "^- boot:$" job.yaml)" = 3 ] &&
	[ "$(grep -c "^- test:$" job.yaml)" = 3 ] &&
	[ "$(grep -c "^- deploy:$" job.yaml)" = 1 ] &&
	! grep -q "@[A-Z_]*@" job.yaml &&
	for n in 1 2 3; do
		has job.yaml "^      name: interbench-boot-$n$" &&
		has job.yaml "^        BOOT: \"$n\"$" || return 1
	done
	[ "$(grep -c "^        BOOTS: \"3\"$" job.yaml)" = 3 ] &&
	has job.yaml "^      path: contrib/lava/boots.yaml$" &&
	has job.yaml "^    - repository: $IB_REPO$" &&
	has job.yaml "^    minutes: $((15 + 3 * 40))$"
'

test_expect_success 'LAVA: boots-job.sh: bad input, one line, exit 2' '
	for a in 0 x 1000 "1 /nonexistent"; do
		status_is 2 "$LAVA/boots-job.sh" $a >out 2>err &&
		[ ! -s out ] && [ "$(wc -l <err)" = 1 ] || return 1
	done
	IB_OPTIONS="-W \"audio\"" status_is 2 "$LAVA/boots-job.sh" 2 >out 2>err &&
	has err "cannot carry" &&
	printf "device_type: qemu\n" >notpl &&
	status_is 2 "$LAVA/boots-job.sh" 2 notpl 2>err && has err "no .# @boot."
'

# LAVA's own schema (lava_common, from Debian's lava-common, which
# lava-dispatcher depends on): the Python that has it, PATH's or Debian's.
lava_py=""
for py in python3 /usr/bin/python3; do
	if "$py" -c "import yaml, lava_common.schemas" 2>/dev/null; then
		lava_py=$py
		break
	fi
done
if [ -n "$lava_py" ]; then
	cat >validate.py <<'PY'
import sys, yaml
from lava_common.schemas import validate
from lava_common.schemas.test.testdef import validate as validate_testdef
kind, path = sys.argv[1], sys.argv[2]
data = yaml.safe_load(open(path))
if kind == "job":
    validate(data, strict=True)
else:
    validate_testdef(data)
PY
	test_expect_success 'LAVA: the job and the test definition pass LAVA'"'"'s schema' '
		for k in 1 2 5; do
			"$LAVA/boots-job.sh" $k >job$k.yaml &&
			"$lava_py" validate.py job job$k.yaml || return 1
		done
		"$lava_py" validate.py testdef "$LAVA/boots.yaml" &&
		sed "0,/method: qemu/s//method: qemoo/" job2.yaml >broken.yaml &&
		! "$lava_py" validate.py job broken.yaml 2>err && has err "qemoo" &&
		sed "s/^  job:$/  jobs:/" job2.yaml >broken2.yaml &&
		! "$lava_py" validate.py job broken2.yaml 2>/dev/null
	'
else
	test_skip 'LAVA: the job passes LAVA'"'"'s schema' 'lava_common is not importable: lava-dispatcher is not installed (apt-get install lava-dispatcher)'
fi

# boots.yaml's steps as LAVA runs them (one shell, the repository's
# root, the params as variables), make and lava-test-case stood in for.
cat >bin/lava-test-case <<EOF
#!/bin/sh
echo "\$*" >>$TRASH/cases
EOF
printf '#!/bin/sh\nexit 0\n' >bin/make
chmod +x bin/lava-test-case bin/make
mkdir repo repo/contrib && cp -R "$LAVA" repo/contrib/ && cp "$IB" repo/interbench &&
	awk '/^run:/ { run = 1 } run && /^    - / { sub(/^    - /, ""); print }' \
		"$LAVA/boots.yaml" >repo/steps.sh
lava_steps() {
	(cd repo && PATH=$TRASH/bin:$PATH BOOT=$1 BOOTS=2 SETTLE=0 \
		OPTIONS="$TINY" IB_BOOTS_STATE=$TRASH/state sh -e steps.sh)
}

test_expect_success 'LAVA: a boot'"'"'s steps: its file, its cases, the file in the log' '
	[ "$(wc -l <repo/steps.sh)" = 2 ] &&
	new_boot && : >cases && lava_steps 1 >log1 2>&1 &&
	valid_json repo/boot-1.json &&
	has log1 "^interbench-boot 1 boot_id $(cat boot_id)$" &&
	has cases "^interbench-new-boot --result pass$" &&
	has cases "^Audio-None --result pass$" &&
	has cases "^interbench-run --result pass --measurement 0 " &&
	has log1 "^interbench-b64 boot-1.json [A-Za-z0-9+/=]*$" &&
	"$LAVA/boots-collect.sh" log1 got >list &&
	cmp got/boot-1.json repo/boot-1.json && has list "got/boot-1.json$"
'

test_expect_success 'LAVA: the files back from a log in LAVA'"'"'s YAML form' '
	new_boot && lava_steps 2 >log2 2>&1 &&
	cat log1 log2 | sed "s/.*/- {\"dt\": \"2026-11-28T17:00:00\", \"lvl\": \"target\", \"msg\": \"&\"}/" >job.log &&
	"$LAVA/boots-collect.sh" job.log back >list &&
	[ "$(wc -l <list)" = 2 ] && cmp back/boot-1.json got/boot-1.json &&
	cmp back/boot-2.json repo/boot-2.json &&
	status_is 1 "$LAVA/boots-collect.sh" cases none 2>err &&
	has err "no result file"
'

test_expect_success 'LAVA: no reboot between two boots fails the case, runs nothing' '
	: >cases && rm -f repo/boot-2.json && ! lava_steps 2 >log3 2>&1 &&
	has cases "^interbench-new-boot --result fail$" && hasnt cases "Audio-None" &&
	[ ! -e repo/boot-2.json ] && has log3 "no reboot happened"
'

test_done
