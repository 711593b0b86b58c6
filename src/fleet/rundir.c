/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/inert.h"
#include "base/path.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "fleet/rundir.h"
#include "git/quarantine.h" /* remove_tree */

const char *run_status_str(enum run_status s)
{
	static const char *const names[RS__COUNT] = {
		"pushed", "no-change", "escalated", "blocked", "no-verdict",
		"failed", "timed-out", "interrupted", "lease-refused",
		"push-failed", "error", "sandbox-refused", "planned",
	};
	return (size_t)s < RS__COUNT ? names[s] : "unknown";
}

int run_status_severity(enum run_status s)
{
	switch (s) {
	case RS_PUSHED:
	case RS_NO_CHANGE:
	case RS_PLANNED:
		return 0;
	case RS_ESCALATED:
		return 3;
	default:
		return 2;
	}
}

void run_record_init(struct run_record *r)
{
	memset(r, 0, sizeof(*r));
	r->exit_code = -1;
	strbuf_init(&r->verdict_line, 0);
	strbuf_init(&r->push_detail, 0);
	strbuf_init(&r->note, 0);
	strbuf_init(&r->warning, 0);
	strvec_init(&r->agent_argv);
	strvec_init(&r->agent_env_keys);
	strvec_init(&r->net_denied_hosts);
	verify_report_init(&r->verify);
	r->sandbox = "none";
	r->status = RS_PLANNED;
}

void run_record_release(struct run_record *r)
{
	strbuf_release(&r->verdict_line);
	strbuf_release(&r->push_detail);
	strbuf_release(&r->note);
	strbuf_release(&r->warning);
	strvec_clear(&r->agent_argv);
	strvec_clear(&r->agent_env_keys);
	strvec_clear(&r->net_denied_hosts);
	verify_report_release(&r->verify);
	free(r->workspace);
	free(r->escalation);
}

void argv_elide(struct strvec *argv, const char *prompt)
{
	size_t pl = prompt ? strlen(prompt) : 0;

	if (!pl)
		return;
	for (size_t i = 0; i < argv->nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *p = argv->v[i], *hit;

		if (!strstr(p, prompt))
			continue;
		while ((hit = strstr(p, prompt))) {
			strbuf_add(&sb, p, (size_t)(hit - p));
			strbuf_addf(&sb, "<prompt:%zu chars>", pl);
			p = hit + pl;
		}
		strbuf_addstr(&sb, p);
		free((char *)argv->v[i]);
		argv->v[i] = strbuf_detach(&sb, NULL);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void env_key_names(const struct strvec *env, struct strvec *names)
{
	size_t start = names->nr;

	for (size_t i = 0; i < env->nr; i++) {
		const char *eq = strchr(env->v[i], '=');
		char *k = xstrndup(env->v[i], eq ? (size_t)(eq - env->v[i]) : strlen(env->v[i]));
		strvec_push(names, k);
		free(k);
	}
	qsort(names->v + start, names->nr - start, sizeof(*names->v), cmp_str);
	for (size_t i = start + 1; i < names->nr;) {
		if (!strcmp(names->v[i], names->v[i - 1]))
			strvec_remove(names, i);
		else
			i++;
	}
}

static void y_str(struct strbuf *o, const char *k, const char *v, int ind)
{
	strbuf_addf(o, "%*s%s: ", ind, "", k);
	if (v)
		strbuf_add_json_str(o, v); /* a JSON string is a YAML scalar */
	else
		strbuf_addstr(o, "null");
	strbuf_addch(o, '\n');
}

static void y_time(struct strbuf *o, const char *k, const struct timespec *ts)
{
	struct strbuf t = STRBUF_INIT;

	if (ts->tv_sec)
		time_rfc3339_nanos(ts, &t);
	y_str(o, k, ts->tv_sec ? t.buf : NULL, 0);
	strbuf_release(&t);
}

static void y_list(struct strbuf *o, const char *k, const struct strvec *v,
		   bool null_when_empty)
{
	if (!v->nr && null_when_empty) {
		strbuf_addf(o, "%s: null\n", k);
		return;
	}
	strbuf_addf(o, "%s:%s\n", k, v->nr ? "" : " []");
	for (size_t i = 0; i < v->nr; i++) {
		strbuf_addstr(o, "  - ");
		strbuf_add_json_str(o, v->v[i]);
		strbuf_addch(o, '\n');
	}
}

void run_record_meta_yaml(const struct run_record *r, struct strbuf *o)
{
	y_str(o, "key", r->key, 0);
	y_str(o, "repo", r->repo, 0);
	y_str(o, "head", r->head, 0);
	y_str(o, "base", r->base, 0);
	y_str(o, "status", run_status_str(r->status), 0);
	if (r->exit_code >= 0)
		strbuf_addf(o, "exit_code: %d\n", r->exit_code);
	else
		strbuf_addstr(o, "exit_code: null\n");
	y_time(o, "started_at", &r->started);
	y_time(o, "finished_at", &r->finished);
	strbuf_addf(o, "duration_seconds: %.6f\n", r->duration);
	strbuf_addf(o, "timed_out: %s\n", r->timed_out ? "true" : "false");
	y_str(o, "verdict", r->verdict ? agent_verdict_str(r->verdict) : NULL,
	      0);
	y_str(o, "verdict_line", r->verdict_line.len ? r->verdict_line.buf : NULL, 0);
	if (!r->verified) {
		strbuf_addstr(o, "verification: null\n");
	} else {
		strbuf_addf(o, "verification:\n  passed: %s\n  checks:\n",
			    r->verify.ok ? "true" : "false");
		for (int i = 0; i < VC__COUNT; i++) {
			static const char *const st[] = { "pass", "fail", "skip" };
			strbuf_addf(o, "    - name: %s\n      result: %s\n",
				    verify_check_name(i), st[r->verify.state[i]]);
			y_str(o, "detail", r->verify.detail[i].buf, 6);
		}
	}
	strbuf_addf(o, "push:\n  status: %s\n", push_status_str(r->push));
	y_str(o, "sha", *r->pushed_sha ? r->pushed_sha : NULL, 2);
	y_str(o, "detail", r->push_detail.len ? r->push_detail.buf : NULL, 2);
	y_list(o, "agent_argv", &r->agent_argv, !r->ran);
	y_list(o, "agent_env_keys", &r->agent_env_keys, !r->ran);
	y_str(o, "profile", r->profile, 0);
	y_str(o, "sandbox", r->sandbox, 0);
	if (r->net) {
		strbuf_addf(o, "net_allow: %lu\nnet_deny: %lu\n", r->net_allow,
			    r->net_deny);
		y_list(o, "net_denied_hosts", &r->net_denied_hosts, false);
	}
	y_str(o, "warning", r->warning.len ? r->warning.buf : NULL, 0);
	y_str(o, "workspace", r->workspace, 0);
	strbuf_addf(o, "workspace_kept: %s\n", r->kept ? "true" : "false");
	y_str(o, "note", r->note.len ? r->note.buf : NULL, 0);
	y_str(o, "escalation_file", r->escalation, 0);
	strbuf_addf(o, "orphans_killed: %u\n", r->orphans_killed);
}

static void j_kv(struct strbuf *o, const char *k, const char *v, bool comma)
{
	strbuf_add_json_str(o, k);
	strbuf_addch(o, ':');
	if (v)
		strbuf_add_json_str(o, v);
	else
		strbuf_addstr(o, "null");
	if (comma)
		strbuf_addch(o, ',');
}

void run_record_json(const struct run_record *r, struct strbuf *o)
{
	strbuf_addch(o, '{');
	j_kv(o, "key", r->key, true);
	j_kv(o, "repo", r->repo, true);
	j_kv(o, "head", r->head, true);
	j_kv(o, "base", r->base, true);
	j_kv(o, "status", run_status_str(r->status), true);
	if (r->exit_code >= 0)
		strbuf_addf(o, "\"exit_code\":%d,", r->exit_code);
	else
		strbuf_addstr(o, "\"exit_code\":null,");
	strbuf_addf(o, "\"duration_seconds\":%.6f,\"timed_out\":%s,", r->duration,
		    r->timed_out ? "true" : "false");
	j_kv(o, "verdict", r->verdict ? agent_verdict_str(r->verdict) : NULL,
	     true);
	j_kv(o, "verdict_line", r->verdict_line.len ? r->verdict_line.buf : NULL, true);
	strbuf_addstr(o, "\"verification\":");
	if (!r->verified) {
		strbuf_addstr(o, "null,");
	} else {
		strbuf_addf(o, "{\"passed\":%s,\"failed\":[", r->verify.ok ? "true" : "false");
		for (int i = 0, n = 0; i < VC__COUNT; i++) {
			if (r->verify.state[i] != VS_FAIL)
				continue;
			strbuf_addstr(o, n++ ? ",{" : "{");
			j_kv(o, "check", verify_check_name(i), true);
			j_kv(o, "detail", r->verify.detail[i].buf, false);
			strbuf_addch(o, '}');
		}
		strbuf_addstr(o, "]},");
	}
	j_kv(o, "push", push_status_str(r->push), true);
	j_kv(o, "push_detail", r->push_detail.len ? r->push_detail.buf : NULL, true);
	j_kv(o, "workspace", r->workspace, true);
	strbuf_addf(o, "\"workspace_kept\":%s,", r->kept ? "true" : "false");
	j_kv(o, "note", r->note.len ? r->note.buf : NULL, true);
	j_kv(o, "warning", r->warning.len ? r->warning.buf : NULL, true);
	if (r->net) {
		strbuf_addf(
			o,
			"\"net_allow\":%lu,\"net_deny\":%lu,\"net_denied_hosts\":[",
			r->net_allow, r->net_deny);
		for (size_t i = 0; i < r->net_denied_hosts.nr; i++) {
			if (i)
				strbuf_addch(o, ',');
			strbuf_add_json_str(o, r->net_denied_hosts.v[i]);
		}
		strbuf_addstr(o, "],");
	}
	j_kv(o, "escalation_file", r->escalation, false);
	strbuf_addch(o, '}');
}

/* Every failed check's detail, else the push detail or the note. */
static void reason(const struct run_record *r, struct strbuf *out)
{
	if (r->verified && !r->verify.ok) {
		for (int i = 0; i < VC__COUNT; i++)
			if (r->verify.state[i] == VS_FAIL)
				strbuf_addf(out, "%s%s", out->len ? "; " : "",
					    r->verify.detail[i].buf);
		return;
	}
	if (r->push_detail.len)
		strbuf_addbuf(out, &r->push_detail);
	else if (r->note.len)
		strbuf_addbuf(out, &r->note);
}

/* True when an earlier record than v[i] carries the same warning. */
static bool warned_before(const struct run_record *const *v, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(v[j]->warning.buf, v[i]->warning.buf))
			return true;
	return false;
}

/* Each distinct warning once per run, however many targets share it. */
static void summary_warnings(const struct run_record *const *v, size_t nr,
			     struct strbuf *o)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++) {
		if (!v[i]->warning.len || warned_before(v, i))
			continue;
		if (!any)
			strbuf_addstr(o, "\n## Warnings\n\n");
		any = true;
		strbuf_addf_inert(o, "- %s\n", v[i]->warning.buf);
	}
}

/* fs+api: the proxy's counts, and the hosts it refused by name. */
static void summary_net(const struct run_record *r, struct strbuf *o)
{
	strbuf_addf_inert(o, " - network: %lu allowed, %lu refused",
			  r->net_allow, r->net_deny);
	for (size_t i = 0; i < r->net_denied_hosts.nr; i++)
		strbuf_addf_inert(o, "%s`%s`", i ? ", " : " (",
				  r->net_denied_hosts.v[i]);
	if (r->net_denied_hosts.nr)
		strbuf_addch(o, ')');
}

/*
 * summary.md is read by a person (a terminal's cat, a viewer): every
 * string in it that an agent could have chosen (its verdict line, the
 * names of refs it made in a check's detail, a workspace path, a host it
 * asked for) is inert, so strbuf_addf_inert() throughout (cmd/output.h).
 */
void run_summary_md(const char *id, const struct run_record *const *v, size_t nr,
		    int exit_code, struct strbuf *o)
{
	size_t count[RS__COUNT] = { 0 };

	for (size_t i = 0; i < nr; i++)
		count[v[i]->status]++;
	strbuf_addf_inert(
		o,
		"# agentic-git dispatch %s\n\nTargets: %zu. Exit code: %d.\n\n",
		id, nr, exit_code);
	for (int s = 0; s < RS__COUNT; s++)
		if (count[s])
			strbuf_addf_inert(o, "- %s: %zu\n", run_status_str(s),
					  count[s]);
	summary_warnings(v, nr, o);
	strbuf_addstr(o, "\n## Targets\n\n");
	for (size_t i = 0; i < nr; i++) {
		const struct run_record *r = v[i];
		struct strbuf why = STRBUF_INIT;

		reason(r, &why);
		strbuf_addf_inert(o, "- `%s` (%s, %s <- %s): **%s**", r->key,
				  r->repo, r->head, r->base,
				  run_status_str(r->status));
		if (r->verdict_line.len)
			strbuf_addf_inert(o, " - %s", r->verdict_line.buf);
		if (why.len && r->status != RS_PUSHED)
			strbuf_addf_inert(o, " - %s", why.buf);
		strbuf_release(&why);
		if (r->escalation)
			strbuf_addf_inert(
				o, " - escalation note: escalations/%s.md",
				r->key);
		if (r->kept)
			strbuf_addf_inert(o, " - workspace kept: %s",
					  r->workspace);
		if (r->net)
			summary_net(r, o);
		strbuf_addch(o, '\n');
	}
}

static bool id_valid(const char *id)
{
	size_t n = strlen(id);

	if (!n || n > 64 || id[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-", id[i]))
			return false;
	return true;
}

static int update_latest(const char *runs, const char *id)
{
	struct strbuf tmp = STRBUF_INIT, dst = STRBUF_INIT;
	int rc;

	strbuf_addf(&tmp, "%s/.latest.%d", runs, (int)getpid());
	strbuf_addf(&dst, "%s/latest", runs);
	unlink(tmp.buf);
	rc = symlink(id, tmp.buf) < 0 || rename(tmp.buf, dst.buf) < 0 ? -1 : 0;
	if (rc)
		error_errno("cannot update '%s'", dst.buf);
	strbuf_release(&tmp);
	strbuf_release(&dst);
	return rc;
}

int rundir_create(const char *home, struct rundir *rd)
{
	struct strbuf id = STRBUF_INIT, runs = STRBUF_INIT, p = STRBUF_INIT;
	uint8_t rnd[3];

	strbuf_addf(&runs, "%s/runs", home);
	if (mkdir_p(runs.buf, 0700) < 0) {
		error_errno("cannot create '%s'", runs.buf);
		goto fail;
	}
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		error_errno("cannot read random bytes");
		goto fail;
	}
	time_compact_utc(time(NULL), &id);
	strbuf_addf(&id, "-%02x%02x%02x", rnd[0], rnd[1], rnd[2]);
	strbuf_addf(&p, "%s/%s", runs.buf, id.buf);
	if (mkdir(p.buf, 0700) < 0) {
		error_errno("cannot create the run directory '%s'", p.buf);
		goto fail;
	}
	strbuf_addstr(&p, "/escalations");
	if (mkdir(p.buf, 0700) < 0) {
		error_errno("cannot create '%s'", p.buf);
		goto fail;
	}
	strbuf_setlen(&p, p.len - strlen("/escalations"));
	if (update_latest(runs.buf, id.buf) < 0)
		goto fail;
	rd->id = strbuf_detach(&id, NULL);
	rd->path = strbuf_detach(&p, NULL);
	strbuf_release(&runs);
	return 0;
fail:
	strbuf_release(&id);
	strbuf_release(&runs);
	strbuf_release(&p);
	return -1;
}

int rundir_open(const struct rundir *rd, const char *name)
{
	char *p = path_join(rd->path, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		error_errno("cannot create '%s'", p);
	free(p);
	return fd;
}

int rundir_write(const struct rundir *rd, const char *name,
		 const struct strbuf *data)
{
	char *p = path_join(rd->path, name);
	int rc = write_file_atomic(p, data->buf, data->len, 0600);

	if (rc < 0)
		error_errno("cannot write '%s'", p);
	free(p);
	return rc;
}

int rundir_resolve(const char *home, const char *id, struct strbuf *path)
{
	struct strbuf link = STRBUF_INIT;
	char buf[128];
	ssize_t n;

	if (!strcmp(id, "latest")) {
		strbuf_addf(&link, "%s/runs/latest", home);
		n = readlink(link.buf, buf, sizeof(buf) - 1);
		strbuf_release(&link);
		if (n <= 0)
			return error("no dispatch run found under '%s/runs' (run 'agentic-git dispatch' first, or pass --run ID)", home);
		buf[n] = '\0';
		id = buf;
	}
	if (!id_valid(id))
		return error("'%s' is not a run id (expected YYYYMMDDTHHMMSSZ-xxxxxx or 'latest')", id);
	strbuf_addf(path, "%s/runs/%s", home, id);
	if (!is_dir(path->buf))
		return error("no run '%s' under '%s/runs'", id, home);
	return 0;
}

void rundir_release(struct rundir *rd)
{
	free(rd->id);
	free(rd->path);
	rd->id = rd->path = NULL;
}

/* Reads exactly n bytes at off (bounded by the caller). 0 or -1. */
static int read_at(int fd, off_t off, size_t n, struct strbuf *out)
{
	strbuf_grow(out, n);
	while (n) {
		ssize_t r = pread(fd, out->buf + out->len, n, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		strbuf_setlen(out, out->len + (size_t)r);
		off += r;
		n -= (size_t)r;
	}
	return 0;
}

int rundir_cap_log(const struct rundir *rd, const char *name,
		   unsigned long long cap, unsigned long long *cut)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	size_t head, tail;
	struct stat st;
	int fd, rc = -1;

	if (!cap)
		cap = RUNDIR_LOG_CAP;
	head = (size_t)(cap / 8);
	tail = (size_t)cap - head;
	*cut = 0;
	strbuf_addf(&path, "%s/%s", rd->path, name);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	rc = 0;
	if ((unsigned long long)st.st_size <= cap)
		goto out;
	*cut = (unsigned long long)st.st_size - cap;
	rc = read_at(fd, 0, head, &data);
	if (!rc) {
		strbuf_addf(
			&data,
			"\n[agentic-git: log cut at byte %zu: %llu bytes removed here; a log keeps its first %zu bytes and its last %zu (dispatch.log_cap_mib)]\n",
			head, *cut, head, tail);
		rc = read_at(fd, st.st_size - (off_t)tail, tail, &data);
	}
	if (!rc)
		rc = write_file_atomic(path.buf, data.buf, data.len, 0600);
	if (rc)
		error_errno("cannot cap the log '%s'", path.buf);
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	strbuf_release(&data);
	return rc;
}

/* A run id as rundir_create() makes them: YYYYMMDDTHHMMSSZ-xxxxxx. */
static bool is_run_id(const char *s)
{
	static const char shape[] = "ddddddddTddddddZ-hhhhhh";

	for (size_t i = 0; i < sizeof(shape) - 1; i++) {
		char c = s[i];
		bool ok = shape[i] == 'd'   ? c >= '0' && c <= '9'
			  : shape[i] == 'h' ? (c >= '0' && c <= '9') ||
						      (c >= 'a' && c <= 'f')
					    : c == shape[i];
		if (!ok)
			return false;
	}
	return !s[sizeof(shape) - 1];
}

static bool holds_kept_workspace(const char *run)
{
	char *work = xstrfmt("%s/work", run);
	DIR *d = opendir(work);
	struct dirent *de;
	bool kept = false;

	while (d && !kept && (de = readdir(d)))
		kept = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	free(work);
	return kept;
}

/* The start time in a run id (YYYYMMDDTHHMMSSZ-…), or -1. */
static time_t run_id_time(const char *id)
{
	struct tm tm = { 0 };

	if (sscanf(id, "%4d%2d%2dT%2d%2d%2d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

int rundir_prune(const char *home, size_t keep, long max_age, time_t now,
		 const char *except)
{
	char *runs = xstrfmt("%s/runs", home);
	DIR *d = opendir(runs);
	struct strvec ids = STRVEC_INIT;
	struct dirent *de;
	int removed = 0;

	if (!d) {
		free(runs);
		return errno == ENOENT ? 0 : -1;
	}
	while ((de = readdir(d)))
		if (is_run_id(de->d_name))
			strvec_push(&ids, de->d_name);
	closedir(d);
	/* ids sort as their UTC start times: the oldest first */
	qsort(ids.v, ids.nr, sizeof(*ids.v), cmp_str);
	if (!keep)
		keep = RUNDIR_KEEP;
	if (max_age <= 0)
		max_age = RUNDIR_KEEP_DAYS * 24L * 3600;
	for (size_t i = 0; i < ids.nr; i++) {
		char *run;
		struct stat st;
		time_t t = run_id_time(ids.v[i]);

		if (i + keep >= ids.nr && !(t >= 0 && now - t > max_age))
			continue;
		run = xstrfmt("%s/%s", runs, ids.v[i]);
		if ((!except || strcmp(ids.v[i], except)) && !lstat(run, &st) &&
		    S_ISDIR(st.st_mode) && !holds_kept_workspace(run) &&
		    remove_tree(run) == 0)
			removed++;
		free(run);
	}
	strvec_clear(&ids);
	free(runs);
	return removed;
}
