/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_ARGTABLE_H
#define AG_CMD_ARGTABLE_H

/**
 * Table-driven option parsing for subcommands (STYLE.md: options from a
 * table, not a strcmp chain). Accepts `--long VALUE`, `--long=VALUE`,
 * `-s VALUE`, `-sVALUE`, flags, and `--` (the rest is positional).
 *
 *   static const struct argspec specs[] = {
 *           { "targets", 0, ARG_VALUE, OPT_TARGETS }, ..., { NULL } };
 *   argtable_parse(argc, argv, specs, cb, &state, &rest)
 *
 * `cb` gets each option's id and value (NULL for flags) and returns 0 or
 * -1 (it printed the error). Pointers stay owned by argv. Returns 0 or -1
 * (an unknown option or a missing value is reported here).
 */
#include "base/common.h"

enum arg_kind { ARG_FLAG, ARG_VALUE };

struct argspec {
	const char *name; /* long name without "--" */
	char short_name;  /* 0 when none */
	enum arg_kind kind;
	int id;
};

typedef int (*arg_cb)(void *data, int id, const char *value);

/* *rest is the index of the first positional argument (after "--"). */
int argtable_parse(int argc, const char **argv, const struct argspec *specs,
		   arg_cb cb, void *data, int *rest);

/*
 * The same for `agentic-git <cmd>`: errors read `<cmd>: unknown option
 * '--x' (see agentic-git <cmd> --help)`. A positional before `--` is
 * refused with `hint` (e.g. "the command goes after '--'"), or with the
 * help pointer when `hint` is NULL.
 */
int argtable_parse_cmd(const char *cmd, const char *hint, int argc,
		       const char **argv, const struct argspec *specs,
		       arg_cb cb, void *data, int *rest);

#endif
