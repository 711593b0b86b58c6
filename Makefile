# SPDX-License-Identifier: Apache-2.0
# Thin wrapper over Meson for the README's commands.
#   make demo    build and run the recovery demo on a scratch repository
#   make check   build (normal + ASan/UBSan) and run the whole test suite
#   make bench   run the benchmarks and print ratios
BUILD ?= build
ASAN_BUILD ?= build-asan
# make install PREFIX=DIR (README "Install"); DESTDIR is honoured for packagers
PREFIX ?= /usr/local

.PHONY: all build asan demo check test bench fuzz clean install

all: build

$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dbuildtype=release -Db_ndebug=false \
		-Dc_args='-D_FORTIFY_SOURCE=2'

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(ASAN_BUILD)/build.ninja:
	CC=clang meson setup $(ASAN_BUILD) -Dbuildtype=debug \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args='-fno-omit-frame-pointer -fno-sanitize-recover=undefined'

asan: $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

demo: build
	demo/recovery-demo.sh $(BUILD)/src/agentic-git

test: build
	tests/run-tests.sh $(BUILD)

# The pinned agent CLIs (npm) for `agents check` against the real tools and
# the end-to-end tests that drive them (t0531, t0535).
check: build asan
	ci/install-agent-clis.sh
	AG_FUZZ_SMOKE=1 tests/run-tests.sh $(BUILD) $(ASAN_BUILD)

bench: build
	bench/run-all.sh $(BUILD)/src/agentic-git

# Nothing in the binaries depends on the prefix (agentic-git finds the shim
# and the proxy beside itself), so re-pointing it costs no rebuild.
install: build
	meson configure $(BUILD) -Dprefix=$(abspath $(PREFIX))
	meson install -C $(BUILD) $(if $(DESTDIR),--destdir "$(DESTDIR)")

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
