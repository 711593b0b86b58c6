/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_HOOKSTUBS_H
#define AG_FLEET_HOOKSTUBS_H

/**
 * The session's hook stubs: tiny sh scripts in <home>/hooks that exec
 * `<agentic-git> hook <name> "$@"` (PRODUCT.md §2: all logic is in C).
 * Writes prepare-commit-msg and reference-transaction atomically with mode
 * 0755, replacing older copies. Returns 0, or -1 with errno set.
 *
 * NEEDSWORK: the snapshots/hooks branch provides hooks_install() with the
 * same contract; this file goes away when it is merged.
 */
int hookstubs_install(const char *hooks_dir, const char *self_exe);

#endif
