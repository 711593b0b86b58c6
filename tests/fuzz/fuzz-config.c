/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness for the config.yaml parser (src/agents/config.h):
 * arbitrary bytes through config_parse_buffer_opts() with pinning skipped,
 * so the fuzzer does no file I/O. Seeds: the files in tests/data/config and
 * docs/config.yaml.example. Built by hand until the fuzz build is wired:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *     -Iinclude -Isrc tests/fuzz/fuzz-config.c src/agents/[a-z]*.c \
 *     src/base/[a-z]*.c $(pkg-config --cflags --libs libfyaml) -o fuzz-config
 *   ./fuzz-config -max_total_time=60 corpus/ tests/data/config/
 */
#include "base/common.h"
#include "agents/config.h"
#include "base/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct config_parse_opts opts = {
		.pin = CONFIG_PIN_SKIP,
		.base_dir = "/nonexistent",
		.home = "/home/fuzz",
	};
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf errs = STRBUF_INIT;

	config_parse_buffer_opts((const char *)data, size, "fuzz.yaml", &opts,
				 &cfg, &errs);
	agent_config_release(&cfg);
	strbuf_release(&errs);
	return 0;
}
