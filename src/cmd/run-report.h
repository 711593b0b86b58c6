/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_RUN_REPORT_H
#define AG_CMD_RUN_REPORT_H

/**
 * What `run` tells while and after it runs (PRODUCT.md §13, "scriptable
 * and visible"):
 *
 *  - run_progress(): one line on stderr per state change of the session
 *    (ready, agent started, agent ended), `agentic-git: run: <agent>:
 *    <what>`, only when stdout is not a terminal: a run piped to a file
 *    or started by a script says what it is waiting on, while on a
 *    terminal the agent's own output is the progress;
 *  - run_end_json(): with --json, the end record, one JSON object on one
 *    line, the last line of stdout (the agent's own stdout comes before).
 *
 * Strings in the record are the session's (struct session) and are not
 * copied; nothing is owned.
 */
#include "base/common.h"
#include <time.h>
#include "fleet/session.h"

struct run_outcome {
	const struct session *s;
	const char *command; /* argv[0] or the profile's name */
	bool profile;	     /* command names a profile */
	int exit_code;
	bool timed_out;
	bool snapshots; /* the safety net was on */
	struct timespec started, ended;
};

/* True when progress lines are due (stdout is not a terminal). */
bool run_progress_on(void);
AG_PRINTF(2, 3)
void run_progress(const struct session *s, const char *fmt, ...);
void run_end_json(const struct run_outcome *o);

#endif
