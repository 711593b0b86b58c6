/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git events: read (and follow) $AGENTIC_GIT_HOME/fleet_events.jsonl.
 * Lines are bounded (EVENTS_LINE_MAX); a malformed or oversized line is
 * reported once on stderr and skipped, never fatal.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/eventlog.h"
#include "base/eventlog-rotate.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "fleet/audit.h"

#define EVENTS_LINE_MAX (1u << 20)
#define FOLLOW_POLL_NS 200000000L

static const char usage_text[] =
	"usage: agentic-git events [--agent A] [--event E[,E…]] [--disposition D[,D…]]\n"
	"                          [--since T] [--until T] [--follow] [--json]\n\n"
	"Show the audit log, <home>/fleet_events.jsonl (<home>: $AGENTIC_GIT_HOME,\n"
	"else ~/.agentic-git) and its rotated files, oldest first: a table, or\n"
	"the matching JSON lines with --json. T is RFC 3339 (2026-11-29T21:07:02Z)\n"
	"or an age: 30s, 10m, 2h, 3d, 1w. --follow keeps printing new events.\n";

struct events_cli {
	struct audit_filter f;
	const char *since, *until;
	bool follow, json;
	const char *home;
	const char *file; /* the name read, for messages */
	/* reader state */
	struct strbuf line;
	bool overlong;
	unsigned long lineno, matched;
	bool warned;
};

#define ARGT_STRUCT struct events_cli
#define EV_FILTER(name, field) \
	ARGSPEC_AT(name, 0, ARG_VALUE, ARGT_STRUCT, field, 0, ARGF_NONEMPTY)
static const struct argspec events_specs[] = {
	EV_FILTER("agent", f.agent),
	EV_FILTER("event", f.event),
	EV_FILTER("disposition", f.disposition),
	EV_FILTER("since", since),
	EV_FILTER("until", until),
	OPT_FLAG(follow),
	OPT_FLAG(json),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

const struct cmd_optset events_optsets[] = { { NULL, events_specs, 0 },
					     { NULL, NULL, 0 } };

static int parse_args(struct events_cli *e, int argc, const char **argv)
{
	const struct argtable t = { .cmd = "events",
				    .specs = events_specs,
				    .flags = ARGT_NO_REST };
	struct argres r;

	return argtable_parse_table(&t, argc, argv, e, &r);
}

/* --event names only what agentic-git writes: a typo is not "no events". */
static int check_events(const struct events_cli *e)
{
	const char *p = e->f.event;

	while (p && *p) {
		size_t n = strcspn(p, ",");
		char *name = xstrndup(p, n);
		bool ok = event_name_known(name);

		if (!ok) {
			struct strbuf all = STRBUF_INIT;
			event_names_list(&all, ", ");
			error("events: unknown event '%s' (known: %s)", name,
			      all.buf);
			strbuf_release(&all);
		}
		free(name);
		if (!ok)
			return -1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* One disposition's names, wrapped under "  <disp>: ". */
static void names_of(struct strbuf *out, const char *disp, const char *all)
{
	size_t col = 0;

	strbuf_addf(out, "  %s:", disp);
	col = strlen(disp) + 3;
	for (const char *p = all; *p;) {
		size_t n = strcspn(p, ",");
		char *name = xstrndup(p, n);

		if (!strcmp(event_disposition(name), disp)) {
			if (col + n + 1 > 76) {
				strbuf_addstr(out, "\n       ");
				col = 7;
			}
			strbuf_addf(out, " %s", name);
			col += n + 1;
		}
		free(name);
		p += n + (p[n] == ',');
	}
	strbuf_addch(out, '\n');
}

/* --help: the usage, then every event name --event takes (eventlog.c's
 * table, the one check_events() reads), by disposition. */
static bool wants_help(int argc, const char **argv)
{
	struct strbuf help = STRBUF_INIT, all = STRBUF_INIT;
	bool yes;

	strbuf_addstr(&help, usage_text);
	strbuf_addstr(&help, "\nEvents (--event takes these names; "
			     "--disposition deny, warn or info):\n");
	event_names_list(&all, ",");
	names_of(&help, "deny", all.buf);
	names_of(&help, "warn", all.buf);
	names_of(&help, "info", all.buf);
	yes = cmd_wants_help(argc, argv, help.buf);
	strbuf_release(&help);
	strbuf_release(&all);
	return yes;
}

static int parse_times(struct events_cli *e)
{
	time_t now = time(NULL);

	if (e->since) {
		if (audit_parse_time(e->since, now, &e->f.since) < 0)
			return error("events: --since '%s' is neither RFC 3339 nor an age like 10m, 2h, 3d",
				     e->since);
		e->f.has_since = true;
	}
	if (e->until) {
		if (audit_parse_time(e->until, now, &e->f.until) < 0)
			return error("events: --until '%s' is neither RFC 3339 nor an age like 10m, 2h, 3d",
				     e->until);
		e->f.has_until = true;
	}
	return 0;
}

static void print_record(struct events_cli *e, const struct audit_record *r)
{
	struct strbuf detail = STRBUF_INIT;

	if (e->json) {
		fwrite(e->line.buf, 1, e->line.len, stdout);
		fputc('\n', stdout);
		return;
	}
	if (!e->matched)
		printf("%-20s %-24s %-5s %-14s %-12s %s\n", "TIME", "EVENT",
		       "DISP", "AGENT", "SUBCOMMAND", "DETAIL");
	audit_detail(r, &detail);
	printf("%-20.19s %-24s %-5s %-14s %-12s %s\n", r->timestamp, r->event,
	       r->disposition, *r->agent ? r->agent : "-",
	       *r->subcommand ? r->subcommand : "-", detail.buf);
	strbuf_release(&detail);
}

static void handle_line(struct events_cli *e)
{
	struct audit_record r;

	e->lineno++;
	if (e->overlong || audit_record_parse(e->line.buf, e->line.len, &r)) {
		if (!e->warned && (e->overlong || e->line.len))
			warning("events: skipping malformed line %lu of %s (further bad lines are skipped silently)",
				e->lineno, e->file);
		e->warned = e->warned || e->overlong || e->line.len;
	} else {
		if (audit_match(&e->f, &r)) {
			print_record(e, &r);
			e->matched++;
		}
		audit_record_release(&r);
	}
	strbuf_reset(&e->line);
	e->overlong = false;
}

/* Feeds bytes into the line splitter. */
static void feed(struct events_cli *e, const char *buf, size_t n)
{
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t take = nl ? (size_t)(nl - buf) : n;

		if (!e->overlong && e->line.len + take <= EVENTS_LINE_MAX)
			strbuf_add(&e->line, buf, take);
		else {
			e->overlong = true;
			strbuf_reset(&e->line);
		}
		if (!nl)
			return;
		handle_line(e);
		buf = nl + 1;
		n -= take + 1;
	}
}

static int open_log(const char *path, int *fd)
{
	struct stat st;

	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (*fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Waits for more; rewinds when the file was truncated. False: stop. */
static bool follow_wait(struct events_cli *e, int fd, off_t *off)
{
	struct timespec ts = { 0, FOLLOW_POLL_NS };
	struct stat st;

	fflush(stdout);
	if (ferror(stdout))
		return false;
	nanosleep(&ts, NULL);
	if (fd >= 0 && !fstat(fd, &st) && st.st_size < *off) {
		lseek(fd, 0, SEEK_SET);
		*off = 0;
		strbuf_reset(&e->line);
	}
	return true;
}

/* One file of the log from `start`; with `follow`, the live log, kept
 * open across its rotations. */
static int read_log(struct events_cli *e, const char *path, off_t start,
		    bool follow)
{
	char buf[65536];
	int fd = -1;
	off_t off = start;
	ssize_t n;

	for (;;) {
		if (fd < 0) {
			if (open_log(path, &fd) < 0)
				return error_errno("events: cannot read '%s'", path);
			if (fd >= 0 && off && lseek(fd, off, SEEK_SET) < 0)
				off = 0;
			if (fd < 0) {
				if (!follow || !follow_wait(e, -1, &off))
					break;
				continue;
			}
		}
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			feed(e, buf, (size_t)n);
			off += n;
		} else if (n < 0 && errno != EINTR) {
			close(fd);
			return error_errno("events: cannot read '%s'", path);
		} else if (!n && follow && journal_rotated_away(e->home, fd)) {
			/* read to its end: on to the new log */
			close(fd);
			fd = -1;
			off = 0;
		} else if (!n && (!follow || !follow_wait(e, fd, &off))) {
			break;
		}
	}
	if (e->line.len || e->overlong)
		handle_line(e); /* a last line without its newline */
	if (fd >= 0)
		close(fd);
	return 0;
}

/* The rotated logs, oldest first, then the live one; with --since, the
 * rotated logs entirely older are not opened and each file starts at its
 * last mark before the bound (base/eventlog-rotate.h). */
static int read_files(struct events_cli *e)
{
	struct journal_files files = JOURNAL_FILES_INIT;
	time_t since = 0;
	int ret = 0;

	if (e->f.has_since)
		since = e->f.since.tv_sec > 0 ? e->f.since.tv_sec : 0;
	journal_files_list(e->home, since, &files);
	for (size_t i = 0; i < files.nr && !ret; i++) {
		bool live = i + 1 == files.nr;
		const char *slash = strrchr(files.v[i].path, '/');

		e->file = slash ? slash + 1 : files.v[i].path;
		/* counted from where the reading starts */
		e->lineno = 0;

		ret = read_log(e, files.v[i].path, files.v[i].start,
			       live && e->follow);
	}
	journal_files_release(&files);
	return ret;
}

int cmd_events(int argc, const char **argv)
{
	struct events_cli e = { .line = STRBUF_INIT };
	char *home = NULL;
	int ret;

	if (wants_help(argc, argv))
		return 0;
	if (parse_args(&e, argc, argv) < 0 || check_events(&e) < 0 ||
	    parse_times(&e) < 0) {
		fputs(usage_text, stderr);
		return AG_EXIT_USAGE;
	}
	home = ag_home_dir();
	if (!home) {
		error("events: cannot find the home: set AGENTIC_GIT_HOME or HOME (the audit log is <home>/fleet_events.jsonl)");
		return 1;
	}
	e.home = home;
	ret = read_files(&e) < 0 ? 1 : 0;
	free(home);
	if (!ret && !e.matched && !e.json)
		printf("(no events)\n");
	strbuf_release(&e.line);
	return ret;
}
