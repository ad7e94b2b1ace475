#!/bin/sh
# tests/deps.sh, the installer of the test tools CI runs before make
# check: what it would ask apt for, in what order and how, as root and
# not, with and without apt, against stand-ins for apt-get, apt-cache,
# dpkg-query and id (nothing is installed, the network is not asked); it
# never fails the build. And its list holds every tool a test skips
# without, for the tools Debian packages.
# tests/run: in parallel (it measures nothing).
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
DEPS=$TOP/tests/deps.sh

# Stand-ins: dpkg-query knows the packages in $HAVE as installed,
# apt-cache knows every package but those in $LACK, apt-get records its
# calls and fails an install when $FAIL is set, id says $UID_IS.
mkdir fake
cat >fake/dpkg-query <<'EOF'
#!/bin/sh
p=$(eval echo \${$#})
case " $HAVE " in *" $p "*) echo "install ok installed" ;;
*) echo "unknown ok not-installed" ;; esac
EOF
cat >fake/apt-cache <<'EOF'
#!/bin/sh
case " $LACK " in *" $2 "*) exit 100 ;; esac
echo "Package: $2"
EOF
cat >fake/apt-get <<'EOF'
#!/bin/sh
echo "apt-get $* [DEBIAN_FRONTEND=$DEBIAN_FRONTEND]" >>"$CALLS"
case "$*" in *install*) [ -z "$FAIL" ] || { echo "E: no room" >&2; exit 100; } ;; esac
exit 0
EOF
cat >fake/id <<'EOF'
#!/bin/sh
echo "$UID_IS"
EOF
chmod +x fake/*
CALLS=$TRASH/calls
ALL=$(sh "$DEPS" --list | tr '\n' ' ')
export CALLS ALL
deps() { PATH=$TRASH/fake:$PATH sh "$DEPS" >out 2>&1; }

test_expect_success '--list: the packages, among them those the issue names' '
	sh "$DEPS" --list >list &&
	for p in lava-dispatcher python3-yaml libxml2-utils chromium valgrind \
		cppcheck clang rt-tests rt-app python3-jsonschema jq; do
		grep -qx "$p" list || fail "$p not in the list"
	done
'

test_expect_success 'everything installed: said, nothing asked of apt, exit 0' '
	: >"$CALLS" && HAVE="$ALL" UID_IS=0 deps &&
	has out "^deps.sh: all [0-9]* packages are installed$" && [ ! -s "$CALLS" ]
'

test_expect_success 'root, two missing: apt-get update, then one non-interactive install of both' '
	: >"$CALLS" &&
	HAVE=$(echo "$ALL" | sed "s/ jq / /; s/ valgrind / /") UID_IS=0 deps &&
	[ $(wc -l <"$CALLS") = 2 ] &&
	head -n 1 "$CALLS" | grep -q "^apt-get -q update \[DEBIAN_FRONTEND=noninteractive\]$" &&
	tail -n 1 "$CALLS" | grep -q "^apt-get -q -y --no-install-recommends .* install valgrind jq \[DEBIAN_FRONTEND=noninteractive\]$" &&
	has out "^deps.sh: installing valgrind jq$" &&
	has out "^deps.sh: installed in [0-9]* s$"
'

test_expect_success 'a package the archive lacks is said and left out; the rest is installed' '
	: >"$CALLS" &&
	HAVE=$(echo "$ALL" | sed "s/ jq / /; s/ rt-app / /") LACK=rt-app UID_IS=0 deps &&
	has out "^deps.sh: the archive has no package rt-app: not installed$" &&
	tail -n 1 "$CALLS" | grep -q " install jq \[" || { cat "$CALLS"; false; }
'

test_expect_success 'an install that fails is said, and the build goes on (exit 0)' '
	: >"$CALLS" &&
	HAVE=$(echo "$ALL" | sed "s/ jq / /") FAIL=1 UID_IS=0 deps &&
	has out "^deps.sh: apt-get install failed" && has out "E: no room" &&
	has out "^deps.sh: still missing: jq$"
'

test_expect_success 'not root: says what it would install, installs nothing, exit 0' '
	: >"$CALLS" &&
	HAVE=$(echo "$ALL" | sed "s/ jq / /") UID_IS=1000 deps &&
	has out "^deps.sh: not root: not installing jq" && [ ! -s "$CALLS" ]
'

test_expect_success 'no apt-get: says so, exit 0' '
	PATH=/nonexistent /bin/sh "$DEPS" >out 2>&1 &&
	has out "^deps.sh: no apt-get here: installing nothing"
'

test_expect_success 'a bad argument: usage, exit 2' '
	status_is 2 sh "$DEPS" --bogus >out 2>err && has err "usage"
'

# Every tool a test skips without (named in the test or its reason) is
# in a package of the list, but PTS (no Debian package: PTS_CMD) and the
# php it needs; and every "X is not installed" the tests say names one.
test_expect_success 'every tool a test skips without is installed by deps.sh' '
	for f in "$TESTS_DIR"/t*.sh; do
		case $f in */t0100-deps.sh) ;; *) cat "$f" ;; esac
	done >src &&
	[ $(grep -c "test_skip " src) -ge 40 ] &&
	for tool in "jq:jq" "xmllint:libxml2-utils" "valgrind:valgrind" \
		"cppcheck:cppcheck" "clang:clang" "libFuzzer:libclang-rt-dev" \
		"setpriv:util-linux" "unshare:util-linux" "chrt:util-linux" \
		"taskset:util-linux" "script(1):bsdutils" "bash:bash" \
		"lava-dispatcher:lava-dispatcher" "yaml:python3-yaml" \
		"python3:python3" "chromium:chromium" \
		"jsonschema:python3-jsonschema" "make or cc:make" "make or cc:gcc" \
		"git:git" "rt-app:rt-app" "perl:perl"; do
		t=${tool%%:*} p=${tool#*:}
		grep -qiF "$t" src || fail "no test names $t (update this list)"
		grep -qx "$p" list || fail "$t: $p is not in deps.sh"
	done &&
	grep -o "[A-Za-z0-9()_.-]* is not installed" src | sort -u >named &&
	[ -s named ] &&
	while read -r t rest; do
		case $t in jq|xmllint|valgrind|cppcheck|clang|bash|chromium|python3|\
			jsonschema|lava-dispatcher|git|rt-app|perl|"script(1)") ;;
		*) fail "a test says $t is not installed: is it in deps.sh?" ;;
		esac
	done <named
'

test_done
