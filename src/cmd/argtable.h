/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CMD_ARGTABLE_H
#define AG_CMD_ARGTABLE_H

/**
 * Table-driven option parsing for subcommands (STYLE.md: options from a
 * table, not a strcmp chain). Accepts `--long VALUE`, `--long=VALUE`,
 * `-s VALUE`, `-sVALUE`, flags, and `--` (the end of the options).
 * Long names match exactly: no prefixes, no bundled short flags.
 *
 * Two ways to receive the options:
 *
 *  - a callback: `cb` gets each option's id and value (NULL for flags)
 *    and returns 0 or -1 (it printed the error);
 *  - no callback (cb NULL): each option is stored at its `off` in `data`,
 *    a `bool` for ARG_FLAG, a `const char *` for ARG_VALUE (the last one
 *    given wins) and a `struct strvec` for ARG_LIST (every one, in order).
 *
 *   static const struct argspec specs[] = {
 *           ARGSPEC_AT("repo", 0, ARG_VALUE, struct o, repo, 0, 0),
 *           ..., ARGSPEC_END };
 *   const struct argtable t = { "snapshots list", .specs = specs };
 *   struct argres r;
 *   if (argtable_parse_table(&t, argc, argv, &o, &r) < 0)
 *           return AG_EXIT_USAGE;
 *
 * Pointers stay owned by argv (a list's strvec owns its copies). Every
 * error is one line: `<cmd>: unknown option '--x' (see agentic-git <cmd>
 * --help)`, `<cmd>: needs a value: '--x'`, `<cmd>: takes no value:
 * '--x=v'`, `<cmd>: needs a non-empty value: '--x='`, `<cmd>: unexpected
 * argument 'w' (<hint>)`, `<cmd>: missing option '--x' (…)`.
 */
#include "base/common.h"
#include <stddef.h>

enum arg_kind { ARG_FLAG, ARG_VALUE, ARG_LIST };

/* argspec.flags */
enum argspec_flags {
	ARGF_REQUIRED = 1 << 0, /* must be given at least once */
	ARGF_NONEMPTY = 1 << 1, /* an empty value is refused */
};

struct argspec {
	const char *name; /* long name without "--" */
	char short_name;  /* 0 when none */
	enum arg_kind kind;
	int id;		/* passed to the callback */
	size_t off;	/* without a callback: where in data it goes */
	unsigned subs;	/* 0: every sub-command; else the argtable.sub bits */
	unsigned flags; /* enum argspec_flags */
};

/* A spec stored at `field` of `type` (no callback), and the table's end. */
#define ARGSPEC_AT(name, sh, kind, type, field, subs, flags)            \
	{                                                               \
		(name), (sh), (kind), 0, offsetof(type, field), (subs), \
			(flags)                                         \
	}
#define ARGSPEC_END                           \
	{                                     \
		NULL, 0, ARG_FLAG, 0, 0, 0, 0 \
	}

/*
 * Short forms of ARGSPEC_AT for a table of ARGT_STRUCT (define it to the
 * options' type before the table): the option is named after the field,
 * or `name` with OPT_AS.
 */
#define OPT_FLAG(field) OPT_AS(#field, ARG_FLAG, field)
#define OPT_VALUE(field) OPT_AS(#field, ARG_VALUE, field)
#define OPT_LIST(field) OPT_AS(#field, ARG_LIST, field)
#define OPT_REQUIRED(name, field) \
	ARGSPEC_AT(name, 0, ARG_VALUE, ARGT_STRUCT, field, 0, ARGF_REQUIRED)
#define OPT_AS(name, kind, field) \
	ARGSPEC_AT(name, 0, kind, ARGT_STRUCT, field, 0, 0)

/* Tables for commands without options, and with only a --json flag (a
 * bool, the whole of `data`). */
extern const struct argspec argtable_no_options[];
extern const struct argspec argtable_json_only[];

typedef int (*arg_cb)(void *data, int id, const char *value);

/* argtable.flags */
enum argtable_flags {
	/*
	 * Words after `--` are positionals like those before it (counted
	 * against max_pos), not a command: argres.rest is argc.
	 */
	ARGT_NO_REST = 1 << 0,
};

/* The hint of a command that runs a command (run, sandbox run, …). */
#define ARGT_HINT_COMMAND "the command goes after '--'"

/* The most positionals a table may take among its options. */
#define ARGT_POS_MAX 4

struct argtable {
	const char *cmd;  /* "snapshots list"; NULL: the bare `(see --help)` */
	const char *hint; /* why a positional is refused, or NULL */
	const char *help; /* replaces "see agentic-git <cmd> --help", or NULL */
	const struct argspec *specs; /* terminated by a NULL name */
	unsigned flags;		     /* enum argtable_flags */
	unsigned sub;		     /* selects the specs whose subs has it */
	size_t max_pos;		     /* positionals allowed among the options */
	arg_cb cb;		     /* or NULL: store at each off */
};

struct argres {
	int rest;      /* index of the first word after `--`, else argc */
	bool dashdash; /* a `--` ended the options */
	size_t pos_nr; /* positionals taken (at most max_pos) */
	const char *pos[ARGT_POS_MAX];
};

/*
 * Parses argv[1..]. Returns 0, or -1 with the one-line error printed
 * (the caller exits with AG_EXIT_USAGE). Without a callback, the lists in
 * data must be initialised; they are filled even on error.
 */
int argtable_parse_table(const struct argtable *t, int argc, const char **argv,
			 void *data, struct argres *res);

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
