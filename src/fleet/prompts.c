/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "fleet/prompts.h"

static const char resolve_conflicts[] =
"You are working unattended on one branch of one repository, inside a\n"
"throwaway workspace prepared for you by agentic-git. Your working directory\n"
"is that workspace. The branch to update is in $AGENTIC_GIT_TARGET_HEAD and is\n"
"checked out; the branch it must sit on top of is in $AGENTIC_GIT_TARGET_BASE,\n"
"and agentic-git has already fetched it as origin/$AGENTIC_GIT_TARGET_BASE.\n"
"\n"
"Goal: rebase the checked-out branch onto origin/$AGENTIC_GIT_TARGET_BASE so\n"
"that it applies cleanly, resolving conflicts only when the resolution is\n"
"mechanical.\n"
"\n"
"Rules you must follow:\n"
"1. Work locally only. Do not run git fetch, git pull, git push, git remote,\n"
"   gh, curl or anything else that talks to a network or a remote. You have\n"
"   no credentials and the workspace has no remote. agentic-git checks your\n"
"   result itself and pushes it only if every check passes.\n"
"2. Touch only the checked-out branch. Do not create, move or delete other\n"
"   branches or tags, do not change git config, and do not edit files named\n"
"   policy.toml, fleet.yaml, .config-integrity-key or *.jsonl.\n"
"3. Run: git rebase origin/$AGENTIC_GIT_TARGET_BASE\n"
"4. If there are conflicts, resolve them only when every one of them is\n"
"   mechanical: both sides' additions kept (changelogs, lists, imports),\n"
"   independent edits to neighbouring lines, whitespace or formatting,\n"
"   regenerated lock files or generated files, a version bump that plainly\n"
"   supersedes the other. Then git add the files and git rebase --continue\n"
"   until the rebase is finished. Never drop one side to make a conflict go\n"
"   away, never comment code out, never weaken or skip tests.\n"
"5. If any conflict needs judgement (both sides change the same logic,\n"
"   a file deleted on one side and edited on the other, renames, binary\n"
"   files, security, credentials, database migrations, CI or deployment\n"
"   configuration, clashing dependency versions, or many files), stop and\n"
"   escalate: run git rebase --abort so the branch is exactly as it was,\n"
"   then write ESCALATION.md at the workspace root with the branch names,\n"
"   the conflicting files, what each side intended, and what a human should\n"
"   decide first.\n"
"6. If the repository has an obvious fast check (for example make check or\n"
"   npm test) you may run it after the rebase; if it fails because of your\n"
"   resolution, escalate as in rule 5. Do not invent commands.\n"
"7. Do not rewrite history beyond this one rebase: no amend, no squash, no\n"
"   reordering.\n"
"\n"
"Finish your output with exactly one last line, either\n"
"  RESOLVED: <one line saying what you did>\n"
"or\n"
"  ESCALATED: <one line saying why a human is needed>\n";

static const struct builtin_task tasks[] = {
	{ "resolve-conflicts", resolve_conflicts, true },
};

const struct builtin_task *builtin_task_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tasks); i++)
		if (!strcmp(tasks[i].name, name))
			return &tasks[i];
	return NULL;
}

const char *builtin_task_names(void)
{
	return "resolve-conflicts";
}
