#!/usr/bin/env bats
# README "Install": `make install PREFIX=…` puts what the README lists under
# PREFIX and nothing elsewhere, and the installed agentic-git runs a
# guarded session (it finds its shim beside itself).
load lib

setup() {
	ag_setup
	SRC=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	[ -d "$AG_BUILD/meson-private" ] ||
		skip "AG_BUILD is not a meson build directory"
	command -v make >/dev/null && command -v meson >/dev/null ||
		skip "make or meson missing"
	OLD_PREFIX=$(meson introspect --buildoptions "$AG_BUILD" |
		jq -r '.[] | select(.name == "prefix") | .value')
}

teardown() {
	# the build directory is shared: put its prefix back
	[ -n "${OLD_PREFIX:-}" ] && meson configure "$AG_BUILD" -Dprefix="$OLD_PREFIX" >/dev/null
	true
}

@test "make install PREFIX=… lands what the README says, and the installed tool works" {
	# under DESTDIR, so that nothing can land outside the test's directory
	run make -C "$SRC" install PREFIX=/opt/ag-test DESTDIR="$T/dest" BUILD="$AG_BUILD"
	assert_success
	P=$T/dest/opt/ag-test
	[ -z "$(find "$T/dest" -mindepth 1 -maxdepth 1 ! -name opt)" ]
	for f in bin/agentic-git bin/agentic-git-shim bin/agentic-git-proxy \
		share/man/man1/agentic-git.1 \
		share/bash-completion/completions/agentic-git \
		share/zsh/site-functions/_agentic-git \
		share/fish/vendor_completions.d/agentic-git.fish \
		include/agentic-git/core.h; do
		[ -e "$P/$f" ] || { echo "missing: $f"; false; }
	done
	ls "$P"/lib*/*/libagentic-git-core.so* "$P"/lib*/libagentic-git-core.so* 2>/dev/null | grep -q .
	# the README's table names every top-level thing installed
	for f in $(cd "$P" && find . -type f | sed 's|^\./||'); do
		case "$f" in
		bin/agentic-git | bin/agentic-git-shim | bin/agentic-git-proxy | \
			share/man/man1/agentic-git.1 | \
			share/bash-completion/completions/agentic-git | \
			share/zsh/site-functions/_agentic-git | \
			share/fish/vendor_completions.d/agentic-git.fish | \
			include/agentic-git/core.h | lib*/libagentic-git-core.so* | \
			lib*/pkgconfig/agentic-git-core.pc) ;;
		*) echo "not in the README: $f"; false ;;
		esac
	done
	# a session from the installed binary: <home>/bin/git is the installed shim
	cd "$REPO"
	export AGENTIC_GIT_HOME=$T/inst-home
	run "$P/bin/agentic-git" run --agent inst --branch feat/inst -- git rev-parse --abbrev-ref HEAD
	assert_success
	# stdout's line among run's progress (stderr, off a terminal)
	assert_line feat/inst
	assert_equal "$(readlink "$AGENTIC_GIT_HOME/bin/git")" "$P/bin/agentic-git-shim"
}
