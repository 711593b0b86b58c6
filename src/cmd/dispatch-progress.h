/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_DISPATCH_PROGRESS_H
#define AG_CMD_DISPATCH_PROGRESS_H

/**
 * What dispatch says while it runs, through the run's on_start/on_finish
 * hooks (fleet/dispatch.h):
 *
 *  - on a terminal, without --json or --json-lines: a line per target
 *    start and end on stdout, the status in colour unless NO_COLOR;
 *  - stdout not a terminal: one line per state change on stderr, the run's
 *    start, each target's start and end, the run's end
 *    (`agentic-git: dispatch: <key>: <status> (3 of 10 done)`), so a run
 *    piped to a file is not silent until it ends;
 *  - --json-lines: one JSON object per line on stdout, "record" one of
 *    run_start, target_start, target_end (with the target's record as
 *    `dispatch --json` prints it) and run_end (run_id, run_dir,
 *    exit_code), each written when it happens.
 *
 * The struct is the caller's and must outlive the run (run->data).
 */
#include "base/common.h"
#include "fleet/dispatch.h"

struct dispatch_progress {
	bool tty;   /* lines on stdout (a terminal) */
	bool lines; /* lines on stderr (stdout is not a terminal) */
	bool json_lines;
	size_t done;
};

/* Chooses the forms for this run and sets run->on_start/on_finish. */
void dispatch_progress_setup(struct dispatch_run *run,
			     struct dispatch_progress *p, bool json,
			     bool json_lines);
/* The run_start record/line (after the run directory exists). */
void dispatch_progress_begin(struct dispatch_run *run);
/* The run_end record/line. */
void dispatch_progress_end(struct dispatch_run *run, int exit_code);

#endif
