/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One reading, by construction (issue 36; PRODUCT.md §4 "Spellings"): for
 * every option of every command the policy reads (git's own option table,
 * src/git/optable-data.c), every spelling git reads alike gets the same
 * verdict from policy_decide(), for a bound agent in its own repository
 * and for an unbound one. The cases are generated from the table, each
 * option in a few situations (values and positionals that name a
 * protected branch, the agent's own, a config key, a fetch refspec):
 *
 *   option with a value   --opt V  ≡ --opt=V ≡ --o V (each unique prefix
 *                         git expands) ≡ --o=V ≡ -s V ≡ -sV ≡ P --opt V
 *                         (after the positionals, where git reads on);
 *                         -f --opt V ≡ -fsV ≡ -fs V (clustered after a
 *                         flag f of the same command)
 *   optional value        --opt=V ≡ --o=V ≡ -sV;  --opt ≡ -s ≡ --o
 *   flag                  --opt ≡ -s ≡ --o ≡ P --opt;  -f -s ≡ -fs
 *   negatable flag        --no-opt ≡ --opt --no-opt ≡ P --no-opt ≡
 *                         --no-o (a unique prefix)
 *
 * The spellings are built here from the table's names, not by the parser
 * under test; unique prefixes are counted over the table as parse-options
 * counts them. A last test plants a reader that judges one word as spelled
 * and sees the generator catch it.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "git/argv.h"
#include "git/classify.h"
#include "git/optable.h"
#include "git/policy.h"

#define MAXW 24
#define WLEN 128

/* A command line under construction: its words, owned. */
struct line {
	const char *w[MAXW];
	char store[MAXW][WLEN];
	size_t n;
};

AG_PRINTF(2, 3)
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;

	assert_true(l->n < MAXW);
	va_start(ap, fmt);
	vsnprintf(l->store[l->n], WLEN, fmt, ap);
	va_end(ap);
	l->w[l->n] = l->store[l->n];
	l->n++;
}

static void add_words(struct line *l, const char *const *words)
{
	for (; words && *words; words++)
		add(l, "%s", *words);
}

/* What a verdict decides, beside the words it runs. */
struct outcome {
	enum verdict_kind kind;
	char event[32];
	char slug[32];
	bool quarantine, conflict_wrap, push_guards;
};

static bool same(const struct outcome *a, const struct outcome *b)
{
	return a->kind == b->kind && !strcmp(a->event, b->event) &&
	       !strcmp(a->slug, b->slug) && a->quarantine == b->quarantine &&
	       a->conflict_wrap == b->conflict_wrap &&
	       a->push_guards == b->push_guards;
}

static const char *kind_str(enum verdict_kind k)
{
	return k == V_PASS ? "pass" : k == V_ROUTE ? "route" : "deny";
}

/* What the repository holds for a positional: branches, HEAD, a path. */
static unsigned fact_of(const char *w)
{
	if (!strcmp(w, "main") || !strcmp(w, "master") ||
	    !strcmp(w, "feat/a") || !strcmp(w, "feat/b"))
		return TOK_LOCAL_BRANCH;
	if (!strcmp(w, "HEAD"))
		return TOK_REVLIKE;
	if (!strcmp(w, "README.md"))
		return TOK_PATH;
	return 0;
}

typedef void (*judge_fn)(const struct policy_input *in, struct verdict *v);

static judge_fn judge = policy_decide;
static struct ag_protected prot;

static void decide(const struct line *l, bool bound, struct outcome *o)
{
	struct git_argv ga;
	unsigned facts[MAXW] = { 0 };
	struct policy_env env = { .agent = "ag1",
				  .agent_valid = true,
				  .home = "/h",
				  .snapshots = -1 };
	struct policy_binding bind = { .state = BS_BOUND,
				       .task_id = "t1",
				       .branch = "feat/a",
				       .worktree = "/wt" };
	struct policy_repo repo = { .target = TGT_SAME,
				    .target_rel = "",
				    .wt_branch = "feat/a",
				    .tok_facts = facts,
				    .outs_judged = true };
	struct policy_input in = { &ga, &env, &bind, &repo, &prot, false };
	struct verdict v;

	if (!bound) {
		bind.state = BS_UNBOUND;
		bind.why_unbound = "no binding";
	}
	git_argv_parse(&ga, l->w, l->n);
	for (size_t i = 0; i < ga.npos && i < MAXW; i++)
		facts[i] = fact_of(ga.pos[i]);
	verdict_init(&v);
	judge(&in, &v);
	memset(o, 0, sizeof(*o));
	o->kind = v.kind;
	snprintf(o->event, sizeof(o->event), "%s", v.event ? v.event : "");
	snprintf(o->slug, sizeof(o->slug), "%s",
		 v.snapshot_slug ? v.snapshot_slug : "");
	o->quarantine = v.quarantine;
	o->conflict_wrap = v.conflict_wrap;
	o->push_guards = v.push_guards;
	verdict_release(&v);
	git_argv_release(&ga);
}

struct tally {
	size_t cases, disagree;
	char first[8][1024];
};

static void show(const struct line *l, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "",
				       l->w[i]);
}

/* One spelling against its reference, in both situations. */
static void compare(struct tally *t, const struct line *ref,
		    const struct line *alt)
{
	for (int bound = 0; bound < 2; bound++) {
		struct outcome a, b;
		char sa[200], sb[200];

		decide(ref, bound, &a);
		decide(alt, bound, &b);
		t->cases++;
		if (same(&a, &b))
			continue;
		if (t->disagree < ARRAY_SIZE(t->first)) {
			show(ref, sa, sizeof(sa));
			show(alt, sb, sizeof(sb));
			snprintf(t->first[t->disagree], sizeof(t->first[0]),
				 "%s: '%s' → %s %s %s, but '%s' → %s %s %s",
				 bound ? "bound" : "unbound", sa,
				 kind_str(a.kind), a.event, a.slug, sb,
				 kind_str(b.kind), b.event, b.slug);
		}
		t->disagree++;
	}
}

/* The situations each option is tried in: its value, the positionals. */
static const char *const values[] = { "main", "feat/a", "bool" };
static const char *const *const positionals[] = {
	(const char *const[]){ NULL },
	(const char *const[]){ "main", NULL },
	(const char *const[]){ "feat/b", "main", NULL },
	(const char *const[]){ "core.filemode", "false", NULL },
	(const char *const[]){ ".", "feat/a:heads/master", NULL },
};

/* The command's own words: "stash push" is two. */
static size_t cmd_words(const char *cmd, char words[2][64])
{
	const char *sp = strchr(cmd, ' ');

	if (!sp) {
		snprintf(words[0], 64, "%s", cmd);
		return 1;
	}
	snprintf(words[0], 64, "%.*s", (int)(sp - cmd), cmd);
	snprintf(words[1], 64, "%s", sp + 1);
	return 2;
}

/* Whether `p` (len bytes) is a prefix of exactly one long option of the
 * table: one git expands (counted here, not by the parser). */
static bool unique_prefix(const struct git_optable *t, const char *p,
			  size_t len)
{
	size_t hits = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (t->opts[i].lng && !strncmp(t->opts[i].lng, p, len))
			hits++;
	return hits == 1;
}

/* The unique prefixes git expands to `lng` (none where the table keeps
 * what it does not know for a later parser), shortest first, at most
 * three, never the name itself, never a bare "no"-prefix */
static size_t abbrevs(const struct git_optable *t, const char *lng,
		      size_t out[3])
{
	size_t n = 0, len = strlen(lng);

	if (git_optable_partial(t))
		return 0;
	for (size_t k = starts_with(lng, "no-") ? 4 : 1; k < len && n < 3;
	     k++) {
		if (!starts_with(lng, "no-") &&
		    !strncmp(lng, "no-", k < 3 ? k : 3))
			continue;
		if (unique_prefix(t, lng, k))
			out[n++] = k;
	}
	return n;
}

/* A flag of the table with a short letter, other than `self`, to
 * cluster with: one that changes nothing git is asked, if it has one. */
static const struct git_opt *cluster_flag(const struct git_optable *t,
					  const struct git_opt *self)
{
	static const char pref[] = "qv";
	const struct git_opt *any = NULL;

	for (size_t i = 0; i < t->nr; i++) {
		const struct git_opt *o = &t->opts[i];
		if (o == self || !o->shrt || o->shrt == '#' || o->shrt == 'h' ||
		    o->arg != OPT_NOARG)
			continue;
		if (strchr(pref, o->shrt))
			return o;
		if (!any)
			any = o;
	}
	return any;
}

enum where { BEFORE, AFTER };

/* <cmd> [pre…] <opt…> <pos…>, or <cmd> [pre…] <pos…> <opt…> */
static void build(struct line *l, char cw[2][64], size_t ncw,
		  const char *const *pre, const char *const *opt,
		  const char *const *pos, enum where where)
{
	l->n = 0;
	for (size_t i = 0; i < ncw; i++)
		add(l, "%s", cw[i]);
	add_words(l, pre);
	if (where == AFTER)
		add_words(l, pos);
	add_words(l, opt);
	if (where == BEFORE)
		add_words(l, pos);
}

/* Every spelling of `o` (with value `val`) in one situation. */
static void spell_valued(struct tally *t, const struct git_optable *t_,
			 const struct git_opt *o, const char *val,
			 const char *const *pos)
{
	char cw[2][64], a[WLEN], b[WLEN];
	size_t ncw = cmd_words(t_->cmd, cw), ab[3], nab;
	struct line ref, alt;
	const char *lng = o->lng;
	const struct git_opt *f = cluster_flag(t_, o);
	bool after = pos[0] && !git_optable_stops_at_positional(t_->cmd);

	/* the reference: the long option and its value as two words, or
	 * the short one where there is no long name */
	if (lng) {
		snprintf(a, sizeof(a), "--%s", lng);
	} else {
		snprintf(a, sizeof(a), "-%c", o->shrt);
	}
	build(&ref, cw, ncw, NULL, (const char *const[]){ a, val, NULL }, pos,
	      BEFORE);
	if (lng) {
		snprintf(b, sizeof(b), "--%s=%s", lng, val);
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, BEFORE);
		compare(t, &ref, &alt);
		nab = abbrevs(t_, lng, ab);
		for (size_t i = 0; i < nab; i++) {
			snprintf(b, sizeof(b), "--%.*s", (int)ab[i], lng);
			build(&alt, cw, ncw, NULL,
			      (const char *const[]){ b, val, NULL }, pos,
			      BEFORE);
			compare(t, &ref, &alt);
			snprintf(b, sizeof(b), "--%.*s=%s", (int)ab[i], lng,
				 val);
			build(&alt, cw, ncw, NULL,
			      (const char *const[]){ b, NULL }, pos, BEFORE);
			compare(t, &ref, &alt);
		}
	}
	if (o->shrt && lng) {
		snprintf(b, sizeof(b), "-%c", o->shrt);
		build(&alt, cw, ncw, NULL,
		      (const char *const[]){ b, val, NULL }, pos, BEFORE);
		compare(t, &ref, &alt);
	}
	if (o->shrt) {
		snprintf(b, sizeof(b), "-%c%s", o->shrt, val);
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, BEFORE);
		compare(t, &ref, &alt);
	}
	if (after) {
		build(&alt, cw, ncw, NULL,
		      (const char *const[]){ a, val, NULL }, pos, AFTER);
		compare(t, &ref, &alt);
	}
	if (o->shrt && f) {
		char fw[4] = { '-', f->shrt, '\0' };
		struct line ref2;

		build(&ref2, cw, ncw, (const char *const[]){ fw, NULL },
		      (const char *const[]){ a, val, NULL }, pos, BEFORE);
		snprintf(b, sizeof(b), "-%c%c%s", f->shrt, o->shrt, val);
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, BEFORE);
		compare(t, &ref2, &alt);
		snprintf(b, sizeof(b), "-%c%c", f->shrt, o->shrt);
		build(&alt, cw, ncw, NULL,
		      (const char *const[]){ b, val, NULL }, pos, BEFORE);
		compare(t, &ref2, &alt);
	}
}

/* An optional value: stuck only. */
static void spell_optarg(struct tally *t, const struct git_optable *t_,
			 const struct git_opt *o, const char *val,
			 const char *const *pos)
{
	char cw[2][64], a[WLEN], b[WLEN];
	size_t ncw = cmd_words(t_->cmd, cw), ab[3], nab;
	struct line ref, alt;

	if (!o->lng)
		return;
	nab = abbrevs(t_, o->lng, ab);
	/* with a value, then without */
	for (int with = 1; with >= 0; with--) {
		snprintf(a, sizeof(a), with ? "--%s=%s" : "--%s", o->lng, val);
		build(&ref, cw, ncw, NULL, (const char *const[]){ a, NULL },
		      pos, BEFORE);
		if (o->shrt) {
			snprintf(b, sizeof(b), "-%c%s", o->shrt,
				 with ? val : "");
			build(&alt, cw, ncw, NULL,
			      (const char *const[]){ b, NULL }, pos, BEFORE);
			compare(t, &ref, &alt);
		}
		for (size_t i = 0; i < nab; i++) {
			snprintf(b, sizeof(b), with ? "--%.*s=%s" : "--%.*s",
				 (int)ab[i], o->lng, val);
			build(&alt, cw, ncw, NULL,
			      (const char *const[]){ b, NULL }, pos, BEFORE);
			compare(t, &ref, &alt);
		}
	}
}

/* Whether the table holds `no-<lng>`: git's negation of the flag. */
static bool negatable(const struct git_optable *t, const char *lng)
{
	char neg[WLEN];

	snprintf(neg, sizeof(neg), "no-%s", lng);
	for (size_t i = 0; i < t->nr; i++)
		if (t->opts[i].lng && !strcmp(t->opts[i].lng, neg))
			return true;
	return false;
}

static void spell_flag(struct tally *t, const struct git_optable *t_,
		       const struct git_opt *o, const char *const *pos)
{
	char cw[2][64], a[WLEN], b[WLEN];
	size_t ncw = cmd_words(t_->cmd, cw), ab[3], nab;
	struct line ref, alt;
	const struct git_opt *f = cluster_flag(t_, o);
	bool after = pos[0] && !git_optable_stops_at_positional(t_->cmd);

	if (o->lng)
		snprintf(a, sizeof(a), "--%s", o->lng);
	else
		snprintf(a, sizeof(a), "-%c", o->shrt);
	build(&ref, cw, ncw, NULL, (const char *const[]){ a, NULL }, pos,
	      BEFORE);
	if (o->lng && o->shrt) {
		snprintf(b, sizeof(b), "-%c", o->shrt);
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, BEFORE);
		compare(t, &ref, &alt);
	}
	nab = o->lng ? abbrevs(t_, o->lng, ab) : 0;
	for (size_t i = 0; i < nab; i++) {
		snprintf(b, sizeof(b), "--%.*s", (int)ab[i], o->lng);
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, BEFORE);
		compare(t, &ref, &alt);
	}
	if (after) {
		build(&alt, cw, ncw, NULL, (const char *const[]){ a, NULL },
		      pos, AFTER);
		compare(t, &ref, &alt);
	}
	if (o->shrt && f) {
		char fw[4] = { '-', f->shrt, '\0' },
		     sw[4] = { '-', o->shrt, '\0' };

		build(&ref, cw, ncw, (const char *const[]){ fw, NULL },
		      (const char *const[]){ sw, NULL }, pos, BEFORE);
		snprintf(b, sizeof(b), "-%c%c", f->shrt, o->shrt);
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, BEFORE);
		compare(t, &ref, &alt);
	}
	if (!o->lng || starts_with(o->lng, "no-") || !negatable(t_, o->lng))
		return;
	/* --no-<flag>: last one wins; after the positionals; abbreviated */
	snprintf(b, sizeof(b), "--no-%s", o->lng);
	build(&ref, cw, ncw, NULL, (const char *const[]){ b, NULL }, pos,
	      BEFORE);
	build(&alt, cw, ncw, NULL, (const char *const[]){ a, b, NULL }, pos,
	      BEFORE);
	compare(t, &ref, &alt);
	if (after) {
		build(&alt, cw, ncw, NULL, (const char *const[]){ b, NULL },
		      pos, AFTER);
		compare(t, &ref, &alt);
	}
	nab = abbrevs(t_, b + 2, ab);
	for (size_t i = 0; i < nab; i++) {
		snprintf(a, sizeof(a), "--%.*s", (int)ab[i], b + 2);
		build(&alt, cw, ncw, NULL, (const char *const[]){ a, NULL },
		      pos, BEFORE);
		compare(t, &ref, &alt);
	}
}

static bool skipped(const struct git_opt *o)
{
	/* git's own usage; -NUM is a number, not a spelling */
	return (o->lng && !strcmp(o->lng, "help")) || o->shrt == 'h' ||
	       o->shrt == '#';
}

static void run_all(struct tally *t)
{
	for (size_t ti = 0; ti < git_optables_nr; ti++) {
		const struct git_optable *tb = &git_optables[ti];

		for (size_t oi = 0; oi < tb->nr; oi++) {
			const struct git_opt *o = &tb->opts[oi];

			if (skipped(o))
				continue;
			for (size_t p = 0; p < ARRAY_SIZE(positionals); p++) {
				if (o->arg == OPT_NOARG) {
					spell_flag(t, tb, o, positionals[p]);
					continue;
				}
				for (size_t v = 0; v < ARRAY_SIZE(values); v++)
					if (o->arg == OPT_ARG)
						spell_valued(t, tb, o,
							     values[v],
							     positionals[p]);
					else
						spell_optarg(t, tb, o,
							     values[v],
							     positionals[p]);
			}
		}
	}
}

static void test_every_spelling_one_verdict(void **state)
{
	struct tally t = { 0 };

	(void)state;
	judge = policy_decide;
	run_all(&t);
	print_message(
		"# %zu spellings judged against their reference, over %zu option tables: %zu disagree\n",
		t.cases, git_optables_nr, t.disagree);
	for (size_t i = 0; i < t.disagree && i < ARRAY_SIZE(t.first); i++)
		print_message("# %s\n", t.first[i]);
	assert_true(t.cases > 10000);
	assert_int_equal(t.disagree, 0);
}

/*
 * The generator can fail: a planted second reader that judges a word as
 * it is spelled (the kind of reader issue 36 removed: `-u x main` denied,
 * `--set-upstream-to x main` not) makes spellings disagree.
 */
static void planted_reader(const struct policy_input *in, struct verdict *v)
{
	const struct git_argv *ga = in->ga;

	policy_decide(in, v);
	for (size_t i = 0;
	     ga->sub && !strcmp(ga->sub, "branch") && i < ga->nopts; i++) {
		char sp[WLEN];
		if (!strcmp(git_optuse_spelling(&ga->opts[i], sp, sizeof(sp)),
			    "-u"))
			verdict_deny(v, "deny", DS_BLOCK, "planted: -u");
	}
}

static void test_planted_disagreement_is_caught(void **state)
{
	struct tally t = { 0 };

	(void)state;
	judge = planted_reader;
	run_all(&t);
	judge = policy_decide;
	print_message("# planted reader: %zu of %zu spellings disagree\n",
		      t.disagree, t.cases);
	assert_true(t.disagree > 0);
	assert_non_null(strstr(t.first[0], "branch"));
}

static int setup(void **state)
{
	(void)state;
	ag_protected_init(&prot);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ag_protected_release(&prot);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_spelling_one_verdict),
		cmocka_unit_test(test_planted_disagreement_is_caught),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
