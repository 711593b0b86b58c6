/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_COMPLETION_INT_H
#define AG_CMD_COMPLETION_INT_H

/**
 * The three completion scripts, generated from ag_commands and
 * ag_cmd_options (cmd/optsets.h) into `out`. Pure: the caller prints.
 * What each completes: the command names (with their summaries where
 * the shell shows them), a command's verbs, the options of the command
 * or of the verb typed (short forms too, --help always), and files after
 * an option that takes a value and elsewhere.
 */
#include "base/strbuf.h"

void completion_bash(struct strbuf *out);
void completion_zsh(struct strbuf *out);
void completion_fish(struct strbuf *out);

#endif
