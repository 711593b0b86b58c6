/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The supervisor loop. See pool.h for the invariants; the numbers in the
 * comments below refer to them.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/proctree.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "fleet/pool.h"

#define POOL_JOB_VAR "AGENTIC_GIT_POOL_JOB"
#define SWEEP_ROUNDS_MAX 50
#define SWEEP_POLL_MS 20 /* how often a sweep checks that all are gone */

enum phase {
	PH_RUN,	  /* leader running */
	PH_TERM,  /* leader got SIGTERM, waiting for the grace to end */
	PH_KILL,  /* leader got SIGKILL, waiting to reap it */
	PH_SWEEP, /* leader gone, stragglers got SIGTERM */
	PH_SWEEP_KILL,
};

struct job {
	size_t idx;
	pid_t pid;
	enum phase phase;
	struct timespec deadline; /* CLOCK_MONOTONIC; tv_sec 0 = none */
	struct timespec grace_end; /* PH_SWEEP: when SIGKILL follows */
	bool timed_out, killed;
	int exit_code;
	unsigned sweep_rounds;
	struct pool_result res;
	char token[64];
};

struct pool {
	const struct pool_ops *ops;
	struct job *jobs; /* running, ops->concurrency slots */
	size_t nrun, next;
	bool drain, stop;
	int sfd;
};

const char *pool_status_str(enum pool_status s)
{
	static const char *const names[] = { "exited", "timed-out", "killed",
					     "launch-failed", "interrupted",
					     "skipped" };
	return (size_t)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

static void launch_release(struct pool_launch *l)
{
	strvec_clear(&l->argv);
	strvec_clear(&l->env);
	free(l->dir);
	l->dir = NULL;
	strbuf_release(&l->stdin_data);
	if (l->out_fd >= 0)
		close(l->out_fd);
	if (l->err_fd >= 0)
		close(l->err_fd);
	if (l->fd3 >= 0)
		close(l->fd3);
	l->out_fd = l->err_fd = l->fd3 = -1;
}

/* Invariant 2: stdin is a sealed copy of the data, never our own stdin. */
static int stdin_fd(const struct strbuf *data)
{
	int fd;

	if (!data->len)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	fd = memfd_create("agentic-git-stdin", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write_all(fd, data->buf, data->len) < 0 ||
	    lseek(fd, 0, SEEK_SET) < 0) {
		int errsv = errno;
		close(fd);
		errno = errsv;
		return -1;
	}
	return fd;
}

static AG_NORETURN void child_exec(const struct pool_launch *l, int in,
				   int report, pid_t parent,
				   const sigset_t *mask)
{
	int err;

	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (setsid() < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		goto fail;
	if (getppid() != parent) /* we died before PDEATHSIG was armed */
		_exit(127);
	if (dup2(in, 0) < 0 || dup2(l->out_fd, 1) < 0 || dup2(l->err_fd, 2) < 0)
		goto fail;
	/* the proxy's secrets: the one descriptor above 2 that passes (the
	 * report pipe moved out of its way first) */
	if (l->fd3 >= 0 && report == 3 &&
	    (report = fcntl(3, F_DUPFD_CLOEXEC, 4)) < 0)
		_exit(127);
	if (l->fd3 >= 0 && dup2(l->fd3, 3) < 0)
		goto fail;
	if (l->dir && chdir(l->dir) < 0)
		goto fail;
	execve(l->argv.v[0], (char *const *)l->argv.v,
	       (char *const *)l->env.v);
fail:
	err = errno;
	if (write(report, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* Starts the child; returns its pid or -1 with errno set. */
static pid_t spawn(struct pool_launch *l, const sigset_t *orig_mask)
{
	int report[2], in, err = 0;
	pid_t parent = getpid(), pid;
	ssize_t n;

	if (!l->argv.nr || l->argv.v[0][0] != '/') {
		errno = EINVAL;
		return -1;
	}
	if ((in = stdin_fd(&l->stdin_data)) < 0)
		return -1;
	if (pipe2(report, O_CLOEXEC) < 0) {
		close(in);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		child_exec(l, in, report[1], parent, orig_mask);
	err = errno;
	close(report[1]);
	close(in);
	if (pid < 0) {
		close(report[0]);
		errno = err;
		return -1;
	}
	do
		n = read(report[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n == (ssize_t)sizeof(err)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		errno = err;
		return -1;
	}
	return pid;
}

/* Invariant 4: the job token names a job in an orphan's environment. */
static bool orphan_belongs(pid_t pid, const char *token)
{
	struct strbuf path = STRBUF_INIT, env = STRBUF_INIT;
	bool mine = true;

	strbuf_addf(&path, "/proc/%d/environ", (int)pid);
	if (read_file_bounded(path.buf, 1 << 20, 0, &env) == 0) {
		const char *p = env.buf, *end = env.buf + env.len;
		size_t vl = strlen(POOL_JOB_VAR);
		for (; p < end; p += strlen(p) + 1) {
			if (!strncmp(p, POOL_JOB_VAR, vl) && p[vl] == '=') {
				mine = !strcmp(p + vl + 1, token);
				break;
			}
		}
	}
	strbuf_release(&path);
	strbuf_release(&env);
	return mine;
}

static bool is_leader(const struct pool *p, pid_t pid)
{
	for (size_t i = 0; i < p->nrun; i++)
		if (p->jobs[i].pid == pid)
			return true;
	return false;
}

/*
 * Sends `sig` to every child of ours that is not a running leader and
 * belongs to `token` (all of them when token is NULL). Returns how many.
 */
static unsigned signal_orphans(const struct pool *p, const char *token, int sig)
{
	struct proc_stat *all;
	size_t nr = proc_list(&all);
	pid_t self = getpid();
	unsigned n = 0;

	for (size_t i = 0; i < nr; i++) {
		pid_t pid = all[i].pid;

		if (all[i].ppid != self || is_leader(p, pid) ||
		    (token && !orphan_belongs(pid, token)))
			continue;
		kill(pid, sig);
		n++;
	}
	free(all);
	return n;
}

/* Signals the job's process group (pgid = leader pid; invariant 3). */
static bool signal_group(const struct job *j, int sig)
{
	return kill(-j->pid, sig) == 0;
}

static void finish_job(struct pool *p, size_t slot)
{
	struct job j = p->jobs[slot];

	clock_gettime(CLOCK_REALTIME, &j.res.finished);
	j.res.duration = (double)(j.res.finished.tv_sec - j.res.started.tv_sec) +
			 (double)(j.res.finished.tv_nsec - j.res.started.tv_nsec) / 1e9;
	j.res.exit_code = j.exit_code;
	j.res.status = j.killed ? POOL_KILLED :
		       j.timed_out ? POOL_TIMED_OUT : POOL_EXITED;
	p->jobs[slot] = p->jobs[--p->nrun];
	p->ops->finished(p->ops->data, j.idx, &j.res);
}

/* The leader is gone: sweep its group and orphans, or finish (inv. 4). */
static void leader_gone(struct pool *p, size_t slot, int wstatus)
{
	struct job *j = &p->jobs[slot];
	unsigned n;

	j->exit_code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) :
		       WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 1;
	j->pid = -j->pid; /* keep the pgid, mark the leader reaped */
	n = (kill(j->pid, SIGTERM) == 0) + signal_orphans(p, j->token, SIGTERM);
	if (!n) {
		finish_job(p, slot);
		return;
	}
	j->res.orphans_killed += n;
	j->phase = PH_SWEEP;
	j->grace_end = mono_after_ms(p->ops->grace_ms);
	j->deadline = mono_after_ms(SWEEP_POLL_MS);
}

static void reap(struct pool *p)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (size_t i = 0; i < p->nrun; i++) {
			if (p->jobs[i].pid == pid) {
				leader_gone(p, i, st);
				break;
			}
		}
	}
}

static void stop_job(struct pool *p, struct job *j, bool timeout)
{
	if (j->phase != PH_RUN)
		return;
	if (timeout)
		j->timed_out = true;
	else
		j->killed = true;
	signal_group(j, SIGTERM);
	j->phase = PH_TERM;
	j->deadline = mono_after_ms(p->ops->grace_ms);
}

/* Deadlines: timeout -> TERM -> KILL; sweep -> SWEEP_KILL -> done. */
static void on_deadline(struct pool *p, size_t slot)
{
	struct job *j = &p->jobs[slot];
	pid_t pg = j->pid < 0 ? -j->pid : j->pid;

	switch (j->phase) {
	case PH_RUN:
		stop_job(p, j, true);
		return;
	case PH_TERM:
	case PH_KILL:
		kill(-pg, SIGKILL);
		j->phase = PH_KILL;
		j->deadline = mono_after_ms(100);
		return;
	case PH_SWEEP:
		/*
		 * Done as soon as the group and the orphans are gone: a leader's
		 * helpers often exit on their own just after it (bwrap's PID 1
		 * outlives the outer bwrap by a moment); only stragglers wait
		 * for the grace and SIGKILL.
		 */
		if (kill(-pg, 0) < 0 && !signal_orphans(p, j->token, 0)) {
			finish_job(p, slot);
			return;
		}
		if (mono_ms_until(&j->grace_end) > 0) {
			j->deadline = mono_after_ms(SWEEP_POLL_MS);
			return;
		}
		/* fall through */
	case PH_SWEEP_KILL:
		if (kill(-pg, SIGKILL) == 0 ||
		    signal_orphans(p, j->token, SIGKILL)) {
			/* Killed orphans reparent their own children to us. */
			j->phase = PH_SWEEP_KILL;
			j->deadline = mono_after_ms(50);
			if (++j->sweep_rounds < SWEEP_ROUNDS_MAX)
				return;
			warning("target %zu: processes survive SIGKILL; giving up on them",
				j->idx);
		}
		finish_job(p, slot);
		return;
	}
}

static void start_one(struct pool *p, const sigset_t *orig_mask)
{
	struct pool_launch l = { STRVEC_INIT, STRVEC_INIT, NULL, STRBUF_INIT,
				 -1,	      -1,	   0,	 -1 };
	size_t idx = p->next++;
	struct job *j = &p->jobs[p->nrun];
	pid_t pid;

	memset(j, 0, sizeof(*j));
	j->idx = idx;
	j->exit_code = -1;
	if (p->ops->prepare(p->ops->data, idx, &l) < 0) {
		launch_release(&l);
		j->res.status = POOL_SKIPPED;
		j->res.exit_code = -1;
		p->ops->finished(p->ops->data, idx, &j->res);
		return;
	}
	snprintf(j->token, sizeof(j->token), "%d.%zu", (int)getpid(), idx);
	strvec_pushf(&l.env, "%s=%s", POOL_JOB_VAR, j->token);
	clock_gettime(CLOCK_REALTIME, &j->res.started);
	pid = spawn(&l, orig_mask);
	launch_release(&l);
	if (pid < 0) {
		j->res.status = POOL_LAUNCH_FAILED;
		j->res.launch_errno = errno;
		j->res.exit_code = -1;
		j->res.finished = j->res.started;
		p->ops->finished(p->ops->data, idx, &j->res);
		return;
	}
	j->pid = pid;
	j->phase = PH_RUN;
	if (l.timeout)
		j->deadline = mono_after_ms(l.timeout * 1000UL);
	p->nrun++;
	if (p->ops->started)
		p->ops->started(p->ops->data, idx);
}

static void on_signal(struct pool *p, int sig)
{
	if (sig == SIGCHLD) {
		reap(p);
		return;
	}
	if (sig == SIGINT && !p->drain) {
		p->drain = true; /* invariant 5: the first Ctrl-C drains */
		return;
	}
	p->drain = p->stop = true;
	for (size_t i = 0; i < p->nrun; i++)
		stop_job(p, &p->jobs[i], false);
}

static void read_signals(struct pool *p)
{
	struct signalfd_siginfo si;

	while (read(p->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		on_signal(p, (int)si.ssi_signo);
	reap(p); /* SIGCHLDs coalesce: always reap */
}

static int next_timeout(const struct pool *p)
{
	long best = -1;

	for (size_t i = 0; i < p->nrun; i++) {
		long ms;
		if (!p->jobs[i].deadline.tv_sec)
			continue;
		ms = mono_ms_until(&p->jobs[i].deadline);
		if (best < 0 || ms < best)
			best = ms;
	}
	return best > 60000 ? 60000 : (int)best;
}

static void check_deadlines(struct pool *p)
{
	for (size_t i = 0; i < p->nrun;) {
		struct job *j = &p->jobs[i];
		size_t before = p->nrun;

		if (j->deadline.tv_sec && !mono_ms_until(&j->deadline))
			on_deadline(p, i);
		if (p->nrun == before)
			i++;
	}
}

static void drain_queue(struct pool *p)
{
	while (p->next < p->ops->nr) {
		struct pool_result r = { .status = POOL_INTERRUPTED,
					 .exit_code = -1 };
		clock_gettime(CLOCK_REALTIME, &r.started);
		r.finished = r.started;
		p->ops->finished(p->ops->data, p->next++, &r);
	}
}

static void loop(struct pool *p, const sigset_t *orig_mask)
{
	for (;;) {
		struct pollfd pfd = { p->sfd, POLLIN, 0 };

		while (!p->drain && p->nrun < p->ops->concurrency &&
		       p->next < p->ops->nr) {
			start_one(p, orig_mask);
			read_signals(p);
		}
		if (p->drain)
			drain_queue(p);
		if (!p->nrun && p->next >= p->ops->nr)
			break;
		if (poll(&pfd, 1, next_timeout(p)) > 0)
			read_signals(p);
		check_deadlines(p);
	}
}

int pool_run(const struct pool_ops *ops, bool *interrupted)
{
	struct pool p = { ops, NULL, 0, 0, false, false, -1 };
	sigset_t mask, orig;
	int was_subreaper = 0;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, &orig) < 0)
		return error_errno("cannot block signals");
	p.sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (p.sfd < 0) {
		sigprocmask(SIG_SETMASK, &orig, NULL);
		return error_errno("cannot create a signalfd");
	}
	prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		warning("cannot become a child subreaper (%s): daemonised grandchildren may escape",
			strerror(errno));
	p.jobs = xcalloc(ops->concurrency ? ops->concurrency : 1, sizeof(*p.jobs));
	loop(&p, &orig);
	/* Invariant 4: nothing of ours outlives the pool. */
	for (int round = 0; round < SWEEP_ROUNDS_MAX && signal_orphans(&p, NULL, SIGKILL); round++) {
		usleep(20000);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	prctl(PR_SET_CHILD_SUBREAPER, was_subreaper);
	{
		struct signalfd_siginfo si; /* consume what we blocked */
		while (read(p.sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			if (si.ssi_signo != SIGCHLD)
				p.drain = true;
	}
	close(p.sfd);
	free(p.jobs);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (interrupted)
		*interrupted = p.drain;
	return 0;
}
