/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git completion bash|zsh|fish: a completion script generated from
 * the commands' own option tables (cmd/optsets.h), so it cannot drift from
 * what the commands accept. The build installs the three (meson.build).
 */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include "base/die.h"
#include "base/strbuf.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/completion-int.h"
#include "cmd/optsets.h"

static const char usage_text[] =
	"usage: agentic-git completion bash|zsh|fish\n"
	"       agentic-git completion --list\n"
	"\n"
	"Print a completion script for the shell, generated from every command's\n"
	"own option table: commands, their verbs and their options. `make\n"
	"install` installs all three; by hand, for example:\n"
	"\n"
	"  agentic-git completion bash >~/.local/share/bash-completion/completions/agentic-git\n"
	"  agentic-git completion zsh >\"${fpath[1]}/_agentic-git\"\n"
	"  agentic-git completion fish >~/.config/fish/completions/agentic-git.fish\n"
	"\n"
	"  --list   one line per command (and verb): `<command> [<verb>]: <options>`,\n"
	"           a value-taking option followed by '='\n";

/* The options `agentic-git completion` itself takes. */
struct completion_cli {
	bool list;
};
static const struct argspec completion_specs[] = {
	ARGSPEC_AT("list", 0, ARG_FLAG, struct completion_cli, list, 0, 0),
	ARGSPEC_END,
};

const struct cmd_optset completion_optsets[] = {
	{ "bash", argtable_no_options, 0 },
	{ "zsh", argtable_no_options, 0 },
	{ "fish", argtable_no_options, 0 },
	{ NULL, completion_specs, 0 },
	{ NULL, NULL, 0 },
};

/* Every command of ag_commands has its option sets (optsets.c). */
static void check_registered(void)
{
	for (const struct cmd *c = ag_commands; c->name; c++)
		if (!cmd_optsets_of(c->name))
			die("completion: command '%s' has no option table in src/cmd/optsets.c",
			    c->name);
}

static void list(void)
{
	for (const struct cmd *c = ag_commands; c->name; c++) {
		const struct cmd_optset *sets = cmd_optsets_of(c->name);

		for (; sets->specs; sets++) {
			struct strbuf o = STRBUF_INIT;

			for (const struct argspec *s = sets->specs; s->name;
			     s++)
				if (cmd_optset_has(sets, s))
					strbuf_addf(&o, " --%s%s", s->name,
						    s->kind == ARG_FLAG ? ""
									: "=");
			printf("%s%s%s:%s\n", c->name, sets->verb ? " " : "",
			       sets->verb ? sets->verb : "", o.buf);
			strbuf_release(&o);
		}
	}
}

int cmd_completion(int argc, const char **argv)
{
	struct completion_cli o = { false };
	const struct argtable t = { .cmd = "completion",
				    .hint = "one of bash, zsh, fish",
				    .specs = completion_specs,
				    .flags = ARGT_NO_REST,
				    .max_pos = 1 };
	struct argres r;
	struct strbuf out = STRBUF_INIT;

	if (cmd_wants_help(argc, argv, usage_text))
		return 0;
	if (argtable_parse_table(&t, argc, argv, &o, &r) < 0)
		return AG_EXIT_USAGE;
	check_registered();
	if (o.list && !r.pos_nr) {
		list();
		return 0;
	}
	if (r.pos_nr != 1 || o.list) {
		error("completion: which shell? bash, zsh or fish (see agentic-git completion --help)");
		return AG_EXIT_USAGE;
	}
	if (!strcmp(r.pos[0], "bash"))
		completion_bash(&out);
	else if (!strcmp(r.pos[0], "zsh"))
		completion_zsh(&out);
	else if (!strcmp(r.pos[0], "fish"))
		completion_fish(&out);
	else {
		error("completion: unknown shell '%s' (bash, zsh or fish)",
		      r.pos[0]);
		return AG_EXIT_USAGE;
	}
	fputs(out.buf, stdout);
	strbuf_release(&out);
	return 0;
}
