/* SPDX-License-Identifier: Apache-2.0 */
/* Each command's option sets, by name (cmd/optsets.h). */
#include "base/common.h"
#include <string.h>
#include "cmd/optsets.h"

/* clang-format off */
const struct cmd_options ag_cmd_options[] = {
	{ "run", run_optsets },
	{ "sessions", sessions_optsets },
	{ "end", end_optsets },
	{ "review", review_optsets },
	{ "merge", merge_optsets },
	{ "snapshots", snapshots_optsets },
	{ "events", events_optsets },
	{ "agents", agents_optsets },
	{ "sandbox", sandbox_optsets },
	{ "dispatch", dispatch_optsets },
	{ "summarize", summarize_optsets },
	{ "report", report_optsets },
	{ "check", check_optsets },
	{ "hook", hook_optsets },
	{ "version", version_optsets },
	{ "help", help_optsets },
	{ "completion", completion_optsets },
	{ NULL, NULL },
};
/* clang-format on */

const struct cmd_optset *cmd_optsets_of(const char *cmd)
{
	for (const struct cmd_options *o = ag_cmd_options; o->cmd; o++)
		if (!strcmp(o->cmd, cmd))
			return o->sets;
	return NULL;
}

bool cmd_optset_has(const struct cmd_optset *set, const struct argspec *s)
{
	return !s->subs || (s->subs & set->sub);
}
