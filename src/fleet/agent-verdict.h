/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_AGENT_VERDICT_H
#define AG_FLEET_AGENT_VERDICT_H

/**
 * The agent's verdict: the last line of its stdout that reads
 * `RESOLVED: <detail>` or `ESCALATED: <detail>` once surrounding whitespace
 * and backticks are stripped. Pure: no I/O.
 *
 * The verdict is advisory. A RESOLVED verdict only makes a target a push
 * candidate; verification (fleet/verify.h) decides.
 */
#include "base/common.h"
#include "base/strbuf.h"

enum agent_verdict {
	AGENT_VERDICT_NONE = 0,
	AGENT_VERDICT_RESOLVED,
	AGENT_VERDICT_ESCALATED,
};

const char *
agent_verdict_str(enum agent_verdict v); /* "none", "RESOLVED", "ESCALATED" */

/*
 * Scans `buf` from the end. On a match, appends the normalised line
 * ("RESOLVED: detail", or just "RESOLVED" when the detail is empty) to
 * `line` (may be NULL) and returns the verdict; otherwise AGENT_VERDICT_NONE.
 */
enum agent_verdict agent_verdict_parse(const char *buf, size_t len,
				       struct strbuf *line);

#endif
