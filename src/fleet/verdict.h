/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_VERDICT_H
#define AG_FLEET_VERDICT_H

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

enum verdict {
	VERDICT_NONE = 0,
	VERDICT_RESOLVED,
	VERDICT_ESCALATED,
};

const char *verdict_str(enum verdict v); /* "none", "RESOLVED", "ESCALATED" */

/*
 * Scans `buf` from the end. On a match, appends the normalised line
 * ("RESOLVED: detail", or just "RESOLVED" when the detail is empty) to
 * `line` (may be NULL) and returns the verdict; otherwise VERDICT_NONE.
 */
enum verdict verdict_parse(const char *buf, size_t len, struct strbuf *line);

#endif
