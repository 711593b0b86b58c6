/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_DENYMSG_H
#define AG_DENYMSG_H

/**
 * The deny messages of reference §4, written for an LLM to act on: what was
 * denied, why, the way out, and the audited bypass options. Used by the shim
 * (stderr) and by `agentic-git check` (stdout).
 */
#include "base/common.h"
#include <stdio.h>
#include "git/facts.h"
#include "git/policy.h"

void deny_print(FILE *out, const struct verdict *v, const struct shim_facts *f);
/* Appends the matching fleet event (none for the canonical style). */
void deny_record(const struct verdict *v, const struct shim_facts *f);

#endif
