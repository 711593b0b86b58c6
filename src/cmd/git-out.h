/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_GIT_OUT_H
#define AG_CMD_GIT_OUT_H

/**
 * git's output shown to a person, inert (cmd/output.h).
 *
 * Where a command shows what git prints over an agent's repository
 * (`snapshots show`'s changed names, `snapshots diff`'s patch), that text
 * holds the agent's file names and file contents. git C-quotes a name
 * with a control byte in it, but not a bidi control (core.quotePath=false,
 * or a repository's own config), and never a content line. So git writes
 * into a memory file, and the text goes to stdout with every control made
 * visible; newlines, tabs and backslashes stay as they are, so a patch
 * still reads as one (it no longer applies where a line held a control:
 * the exact patch is `git diff`'s, see docs/snapshots.md).
 */
#include "base/common.h"
#include "base/spawn.h"
#include "base/strbuf.h"

/*
 * Runs the prepared git child `c` (gitcmd_init() and its arguments) and
 * copies its stdout to ours, inert; its stderr into `err` (trimmed).
 * Returns git's exit status, or -1 when it could not be run (errno set).
 */
int git_run_inert(struct child *c, struct strbuf *err);

#endif
