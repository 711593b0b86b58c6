/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_SESSIONS_INT_H
#define AG_CMD_SESSIONS_INT_H

/**
 * `sessions --watch` (sessions-watch.c): the live view on a terminal.
 * Redraws every second until `q` (or a signal); refuses off a terminal.
 * Returns the exit code. `home` and `git` are the caller's.
 */
int sessions_watch(const char *home, const char *git);

#endif
