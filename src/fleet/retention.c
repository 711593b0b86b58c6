/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bounded state, applied after a session (fleet/retention.h).
 */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include <time.h>
#include "agents/config.h"
#include "base/die.h"
#include "base/eventlog-rotate.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "fleet/retention.h"
#include "git/snapshot-retain.h"

void retention_sync_journal(const char *home, const struct agent_config *cfg)
{
	if (home && *home &&
	    journal_limits_write(home, cfg->journal.max_mib,
				 cfg->journal.keep) < 0)
		warning("cannot write %s/" JOURNAL_LIMITS_FILE
			" (the journal's limits): %s",
			home, strerror(errno));
}

void retention_after_session(const char *home, const char *git,
			     const char *repo, const char *cmd)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf path = STRBUF_INIT, errs = STRBUF_INIT, err = STRBUF_INIT;
	struct snapshot_retention r;

	agent_config_default_path(&path);
	if (agent_config_load(path.buf, false, &cfg, &errs) < 0) {
		const char *nl = strchrnul(errs.buf, '\n');

		warning("%s: retention not applied: %.*s", cmd,
			(int)(nl - errs.buf), errs.buf);
		goto out;
	}
	retention_sync_journal(home, &cfg);
	if (!repo || cfg.snapshots.auto_off)
		goto out;
	snapshot_retention_init(&r, cfg.snapshots.max_age_days,
				cfg.snapshots.keep_per_worktree,
				cfg.snapshots.keep_per_repository);
	if (snapshot_retain_apply(git, repo, home, &r, time(NULL), NULL, &err) <
	    0)
		warning("%s: snapshot retention not applied in %s: %s", cmd,
			repo, err.buf);
out:
	agent_config_release(&cfg);
	strbuf_release(&path);
	strbuf_release(&errs);
	strbuf_release(&err);
}
