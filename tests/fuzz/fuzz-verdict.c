/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes verdict_parse (the agent's RESOLVED/ESCALATED line). Invariants:
 *  1. never crashes, reads nothing past the buffer;
 *  2. a verdict's normalised line starts with its own word and holds no
 *     newline;
 *  3. the verdict is the last one in the text: appending a line with the
 *     other verdict changes the answer to that one.
 */
#include <string.h>
#include "base/strbuf.h"
#include "fleet/agent-verdict.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf line = STRBUF_INIT;
	enum agent_verdict v;
	char *copy;

	if (size > 1 << 20)
		return 0;
	copy = malloc(size + 32);
	memcpy(copy, data, size);
	v = agent_verdict_parse(copy, size, &line);
	if (v == AGENT_VERDICT_NONE) {
		FUZZ_CHECK(!line.len, "no verdict but a line '%s'", line.buf);
	} else {
		const char *w = agent_verdict_str(v);
		FUZZ_CHECK(!strncmp(line.buf, w, strlen(w)), "line '%s' for %s",
			   line.buf, w);
		FUZZ_CHECK(!strchr(line.buf, '\n'), "newline in the verdict line");
	}
	/* A later ESCALATED line wins. */
	memcpy(copy + size, "\nESCALATED: later\n", 18);
	strbuf_reset(&line);
	FUZZ_CHECK(agent_verdict_parse(copy, size + 18, &line) ==
			   AGENT_VERDICT_ESCALATED,
		   "last verdict line ignored");
	strbuf_release(&line);
	free(copy);
	return 0;
}
