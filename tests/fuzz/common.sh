# SPDX-License-Identifier: Apache-2.0
# Sourced by smoke.sh and long.sh: builds the fuzz build directory.
FUZZ_HARNESSES="binding policytoml argv config targets verdict index proxyreq pushplan repo-probe httpstream"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fuzz_build=${AG_FUZZ_BUILD:-$root/build-fuzz}
fuzz_dir=$root/tests/fuzz

fuzz_setup() {
	if [ ! -f "$fuzz_build/build.ninja" ]; then
		CC=clang meson setup "$fuzz_build" -Dfuzz=true \
			-Dbuildtype=debugoptimized >"$fuzz_build.setup.log" 2>&1 || {
			cat "$fuzz_build.setup.log" >&2
			return 1
		}
	fi
	local targets=()
	for h in $FUZZ_HARNESSES; do
		targets+=("tests/fuzz/fuzz-$h")
	done
	ninja -C "$fuzz_build" "${targets[@]}" >"$fuzz_build/fuzz-ninja.log" 2>&1 || {
		tail -40 "$fuzz_build/fuzz-ninja.log" >&2
		return 1
	}
}

# fuzz_run HARNESS CORPUS_DIR ARTIFACT_DIR LOG libfuzzer-options...
fuzz_run() {
	local h=$1 corpus=$2 art=$3 log=$4
	shift 4
	local dict=()
	[ -f "$fuzz_dir/$h.dict" ] && dict=(-dict="$fuzz_dir/$h.dict")
	mkdir -p "$corpus" "$art"
	LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
	"$fuzz_build/tests/fuzz/fuzz-$h" "${dict[@]}" -max_len=4096 \
		-timeout="${AG_FUZZ_TIMEOUT:-60}" \
		-rss_limit_mb=2048 -artifact_prefix="$art/" -print_final_stats=1 \
		"$@" "$corpus" "$fuzz_dir/corpus/$h" >"$log" 2>&1
}

# The closing figures of a libFuzzer log: execs cov ft corpus-units corpus-bytes
fuzz_figures() {
	local log=$1 last execs
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	echo "${execs:-?} $(sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/([0-9]+[a-zA-Z]*).*/\1 \2 \3 \4/' <<<"$last")"
}
