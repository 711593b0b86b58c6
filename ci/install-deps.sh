#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages agentic-git needs to build, test and run its
# demo (llvm: llvm-symbolizer, without which the sanitizer build's named leak
# suppressions in tests/lsan.supp never match). Idempotent: installs only what is missing. Run as root (or with sudo
# available) on Debian 12 or newer.
set -eu

PKGS="build-essential clang meson ninja-build pkg-config git
libsodium-dev libjansson-dev libyaml-dev libseccomp-dev libcmocka-dev libssl-dev
bats bats-assert bats-support bubblewrap jq strace procps util-linux
libclang-rt-14-dev llvm lld parallel nodejs npm e2fsprogs curl"
# the static checks (ci/static-check.sh)
PKGS="$PKGS cppcheck clang-format"
# the fleet page's test opens it in a real browser (t0920-report.bats)
PKGS="$PKGS chromium"
# the generated completion scripts are loaded by each shell (t0925)
PKGS="$PKGS zsh fish"
# sessions --watch is driven in a real terminal (t0930)
PKGS="$PKGS tmux"

missing=""
for p in $PKGS; do
	# node and npm only run ci/install-agent-clis.sh; a NodeSource nodejs
	# already ships npm (and conflicts with Debian's npm package).
	if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then
		continue
	fi
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "install-deps: need root (or sudo) to install:$missing" >&2
		exit 1
	}
	SUDO=sudo
fi
echo "install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
