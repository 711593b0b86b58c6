/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes config_parse_buffer_opts (config.yaml) with command pinning off,
 * so no lookup touches the file system. Invariants:
 *  1. never crashes or leaks, whatever the bytes;
 *  2. a refusal carries at least one error, and every error line names the
 *     file: "fuzz.yaml:<line>:<col>: <message>";
 *  3. on success every profile has a name and an argv without NULLs, and
 *     the presets are still there.
 */
#include <ctype.h>
#include <string.h>
#include "agents/config.h"
#include "fuzz.h"

static void check_errors(const struct strbuf *errs)
{
	const char *p = errs->buf;

	FUZZ_CHECK(errs->len > 0, "refused without an error");
	while (*p) {
		const char *nl = strchr(p, '\n');
		const char *q = p + strlen("fuzz.yaml:");
		FUZZ_CHECK(!strncmp(p, "fuzz.yaml:", 10) && isdigit((unsigned char)*q),
			   "error without a position: '%.*s'",
			   (int)(nl ? nl - p : (long)strlen(p)), p);
		if (!nl)
			break;
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf errs = STRBUF_INIT;
	struct config_parse_opts opts = {
		.pin = CONFIG_PIN_SKIP,
		.base_dir = "/nonexistent",
		.path_env = "/nonexistent/bin",
		.home = "/nonexistent/home",
	};
	char *copy;

	if (size > CONFIG_MAX_BYTES)
		return 0;
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (config_parse_buffer_opts(copy, size, "fuzz.yaml", &opts, &cfg,
				     &errs) < 0) {
		check_errors(&errs);
	} else {
		FUZZ_CHECK(cfg.nr_profiles > 0, "presets lost");
		for (size_t i = 0; i < cfg.nr_profiles; i++) {
			const struct agent_profile *p = &cfg.profiles[i];
			FUZZ_CHECK(p->name && *p->name, "profile without a name");
			for (size_t j = 0; j < p->command.nr; j++)
				FUZZ_CHECK(p->command.v[j], "NULL argv element");
		}
	}
	agent_config_release(&cfg);
	strbuf_release(&errs);
	free(copy);
	return 0;
}
