/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_RETENTION_H
#define AG_FLEET_RETENTION_H

/**
 * Bounded state, applied without a command of its own (issue 37 point 3;
 * docs/snapshots.md "Retention for the fleet", docs/audit.md "Rotation").
 *
 * The operator's config.yaml is read here, by the operator's commands
 * only: an agent's shim never reads it (it reads no YAML), so no agent
 * chooses the policy that prunes another's snapshots.
 *
 * retention_sync_journal() writes the `journal:` limits where the log's
 * writers read them (base/eventlog-rotate.h).
 *
 * retention_after_session() does that too, then, unless `snapshots.auto`
 * is false, applies the fleet policy (git/snapshot-retain.h) to the
 * repository at `repo`: every agent's snapshots, finished sessions
 * included, and the quarantine, never the newest snapshot of a live
 * session. `end` calls it once the session is gone, `run` when its
 * session's agent has exited. Best effort: a config that does not parse
 * or a prune that fails is one warning on stderr, and the command's own
 * result stands. `repo` may be NULL (the journal only).
 */
#include "base/common.h"

struct agent_config;

void retention_sync_journal(const char *home, const struct agent_config *cfg);

void retention_after_session(const char *home, const char *git,
			     const char *repo, const char *cmd);

#endif
