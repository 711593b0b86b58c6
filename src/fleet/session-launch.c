/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Launching and supervising the agent (session.h invariants 5, 7, 8).
 *
 * The agent gets its own process group so that one signal reaches it and
 * everything it started; what leaves the group (setsid) is still below
 * us, its subreaper, and is found by its parent links. When we own the terminal, the agent's group is
 * made the foreground group so interactive agents keep reading the
 * keyboard (and Ctrl-C reaches them directly); when the agent stops
 * (Ctrl-Z) we take the terminal back, stop ourselves, and hand it back on
 * SIGCONT, as a shell does. Signals are taken synchronously with
 * sigwaitinfo() (sigtimedwait() when a deadline is set) while blocked, so
 * there is no async handler at all, and the timeout lives in that same
 * wait.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "base/die.h"
#include "base/path.h"
#include "base/proctree.h"
#include "base/spawn.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "fleet/session.h"
#include "fleet/pool.h" /* POOL_DEFAULT_GRACE_S */
#include "fleet/session-lock.h"

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

char *session_resolve_cmd(const char *cmd, const char *const *envp)
{
	const char *path = "/usr/bin:/bin";
	char cwd[4096];

	if (strchr(cmd, '/')) {
		if (cmd[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			return xstrdup(cmd);
		return path_join(cwd, cmd); /* relative to where run started */
	}
	for (const char *const *e = envp; *e; e++)
		if (starts_with(*e, "PATH="))
			path = *e + 5;
	while (*path) {
		const char *colon = strchrnul(path, ':');
		char *dir = xstrndup(path, (size_t)(colon - path));
		char *cand = dir[0] == '/' ? path_join(dir, cmd) : NULL;
		struct stat st;

		free(dir);
		if (cand && !stat(cand, &st) && S_ISREG(st.st_mode) &&
		    !access(cand, X_OK))
			return cand;
		free(cand);
		path = *colon ? colon + 1 : colon;
	}
	return NULL;
}

static AG_NORETURN void child_exec(int report, bool tty, const char *exe,
				   const char *const *argv,
				   const char *const *envp, const char *dir,
				   const char *stdin_path, int fd3,
				   const sigset_t *old)
{
	int e;

	/* the report pipe out of the way of descriptor 3 first */
	if (fd3 >= 0 && report == 3 &&
	    (report = fcntl(3, F_DUPFD_CLOEXEC, 4)) < 0)
		_exit(127);
	if (fd3 >= 0 && dup2(fd3, 3) < 0) {
		e = errno;
		if (write(report, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(0, 0);
	if (stdin_path) {
		int fd = open(stdin_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0) {
			e = errno;
			if (write(report, &e, sizeof(e)) < 0)
				_exit(127);
			_exit(127);
		}
		tty = false;
	}
	if (tty)
		tcsetpgrp(STDIN_FILENO, getpid()); /* SIGTTOU is blocked */
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	if (chdir(dir) < 0) {
		e = errno;
	} else {
		execve(exe, (char *const *)argv, (char *const *)envp);
		e = errno;
	}
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

#define SWEEP_POLL_MS 20	/* how often a stopping tree is looked at */
#define KILL_ROUNDS_MAX 250	/* 5 s of SIGKILL rounds, then give up */

/* One agent under supervision (invariants 5, 7 and 8). */
struct watch {
	pid_t pid; /* leader and process group */
	bool tty, reaped;
	int status; /* the leader's wait status, once reaped */
	struct session_limits *lim; /* NULL: no time limit */
	unsigned long grace_ms;
	struct timespec deadline;   /* next wake-up; tv_sec 0: none */
	bool stopping;		    /* the tree was told to stop */
	struct timespec kill_at;    /* end of the grace */
	unsigned kill_rounds;
};

/* Whether anything of the agent is left but zombies: its group, or a
 * process below us that left the group (we are its subreaper). */
static bool tree_live(const struct watch *w)
{
	return session_group_live(w->pid) || proctree_signal(getpid(), 0);
}

/* `sig` to the agent's group and to every process below us. */
static void tree_signal(const struct watch *w, int sig)
{
	kill(-w->pid, sig);
	proctree_signal(getpid(), sig);
}

/*
 * Invariant 8: the agent is told to stop (a signal we received, its
 * deadline, or its leader ended and left processes behind): `sig` to the
 * whole tree, SIGCONT so a stopped one sees it, and SIGKILL after the
 * grace.
 */
static void begin_stop(struct watch *w, int sig)
{
	tree_signal(w, sig);
	tree_signal(w, SIGCONT);
	w->stopping = true;
	w->kill_at = mono_after_ms(w->grace_ms);
	w->deadline = w->reaped ? mono_after_ms(SWEEP_POLL_MS) : w->kill_at;
}

/*
 * The deadline passed: the time limit, the grace, or a sweep round.
 * Returns true once nothing of the tree is left but zombies.
 */
static bool on_deadline(struct watch *w)
{
	struct session_limits *lim = w->lim;

	if (!w->stopping) { /* invariant 7: the time limit */
		lim->ended_by = SIGTERM;
		begin_stop(w, SIGTERM);
		return false;
	}
	if (w->reaped && !tree_live(w))
		return true;
	if (!mono_ms_until(&w->kill_at)) {
		if (lim && lim->ended_by)
			lim->ended_by = SIGKILL;
		tree_signal(w, SIGKILL);
		if (w->reaped && ++w->kill_rounds >= KILL_ROUNDS_MAX) {
			warning("run: processes of the agent survive SIGKILL; giving up on them");
			return true;
		}
	}
	w->deadline = mono_after_ms(SWEEP_POLL_MS);
	return false;
}

/* Waits for the next signal or the deadline; 0 on the deadline. */
static int next_signal(const struct watch *w, const sigset_t *set)
{
	struct timespec left;
	siginfo_t si;
	long ms;

	if (!w->deadline.tv_sec)
		return sigwaitinfo(set, &si) < 0 ? -1 : si.si_signo;
	ms = mono_ms_until(&w->deadline);
	left.tv_sec = ms / 1000;
	left.tv_nsec = (ms % 1000) * 1000000L;
	if (sigtimedwait(set, &si, &left) >= 0)
		return si.si_signo;
	return errno == EAGAIN ? 0 : -1;
}

/* The agent stopped (Ctrl-Z): stop with it, as a shell does. */
static void follow_stop(const struct watch *w)
{
	if (w->tty)
		tcsetpgrp(STDIN_FILENO, getpgrp());
	kill(getpid(), SIGSTOP);
	if (w->tty)
		tcsetpgrp(STDIN_FILENO, w->pid);
	kill(-w->pid, SIGCONT);
}

/*
 * Reaps what ended: the leader (its status kept; a stop followed), and
 * the orphans reparented to us (we are their subreaper; nothing else of
 * ours runs while we supervise). True when the leader was reaped now.
 */
static bool reap(struct watch *w)
{
	bool leader = false;
	pid_t got;
	int st;

	while ((got = waitpid(-1, &st, WNOHANG | WUNTRACED)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (got != w->pid || w->reaped)
			continue;
		if (WIFSTOPPED(st)) {
			follow_stop(w);
			continue;
		}
		w->status = st;
		w->reaped = leader = true;
	}
	return leader;
}

/* Invariant 8: a stop signal we received starts the stop of the tree;
 * another one is passed on. */
static void on_stop_signal(struct watch *w, int sig)
{
	if (!w->stopping)
		begin_stop(w, sig);
	else
		tree_signal(w, sig);
}

/*
 * Waits for the agent, forwarding signals; at its deadline, on a stop
 * signal, and when its leader ends, stops its whole tree. Returns the
 * leader's wait status once nothing of the tree is left, zombies reaped.
 */
static int supervise(struct watch *w, const sigset_t *set)
{
	w->grace_ms = w->lim ? w->lim->grace_ms : POOL_DEFAULT_GRACE_S * 1000UL;
	if (w->lim && w->lim->timeout_ms)
		w->deadline = mono_after_ms(w->lim->timeout_ms);
	for (;;) {
		int sig = next_signal(w, set);

		if (!sig) {
			if (on_deadline(w))
				break;
			continue;
		}
		if (sig < 0 || sig == SIGTTOU)
			continue;
		if (sig != SIGCHLD) {
			on_stop_signal(w, sig);
			continue;
		}
		if (!reap(w))
			continue;
		if (!tree_live(w))
			break;
		/* the leader left processes behind: they go with it, told
		 * with SIGTERM whatever stopped the leader (what ignores
		 * SIGINT or SIGHUP gets SIGKILL only after the grace) */
		if (!w->stopping) {
			begin_stop(w, SIGTERM);
		} else {
			tree_signal(w, SIGTERM);
			tree_signal(w, SIGCONT);
			w->deadline = mono_after_ms(SWEEP_POLL_MS);
		}
	}
	/* the stopped ones we are the parent of: no zombie is left to an
	 * init that may never reap it */
	reap(w);
	return w->status;
}

int session_launch(const struct session *s, const char *const *argv,
		   const char *const *envp, struct session_limits *lim,
		   struct strbuf *err)
{
	return session_launch_io(s, argv, envp, NULL, lim, err);
}

/*
 * Forks the agent into its own group (recorded in the run lock, given the
 * terminal); returns its pid, or -1 with errno: the fork, or the exec
 * the child reported, failed.
 */
static pid_t start_agent(const struct session *s, const char *exe,
			 const char *const *argv, const char *const *envp,
			 const char *stdin_path, int fd3, bool tty,
			 const sigset_t *old)
{
	int report[2], e = 0;
	pid_t pid;
	ssize_t n;

	if (pipe2(report, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (!pid)
		child_exec(report[1], tty, exe, argv, envp, s->worktree,
			   stdin_path, fd3, old);
	e = errno;
	close(report[1]);
	if (pid > 0) {
		/* also done by the child: no race either way */
		setpgid(pid, pid);
		/*
		 * Best effort: without the record `sessions` still shows the
		 * session running (that is the lock), only `end --force`
		 * cannot name the agent and refuses.
		 */
		if (s->lock)
			(void)session_lock_record(s->lock, pid);
		if (tty)
			tcsetpgrp(STDIN_FILENO, pid);
		do
			n = read(report[0], &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		e = n == (ssize_t)sizeof(e) ? e : 0;
	}
	close(report[0]);
	errno = e;
	return pid;
}

int session_launch_io(const struct session *s, const char *const *argv,
		      const char *const *envp, const struct session_io *io,
		      struct session_limits *lim, struct strbuf *err)
{
	const char *stdin_path = io ? io->stdin_path : NULL;
	struct watch w = { .lim = lim };
	sighandler_t old_act[ARRAY_SIZE(forwarded)];
	sigset_t set, old;
	int e = 0, st = 0, was_subreaper = 0;
	char *exe = session_resolve_cmd(argv[0], envp);
	bool tty = !stdin_path && isatty(STDIN_FILENO) &&
		   tcgetpgrp(STDIN_FILENO) == getpgrp();
	struct timespec zero = { 0, 0 };

	if (!exe) {
		strbuf_addf(err, "'%s': command not found in the session's PATH", argv[0]);
		return 127;
	}
	signal(SIGCHLD, SIG_DFL); /* an inherited SIG_IGN would auto-reap */
	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&set, forwarded[i]);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTTOU);
	/*
	 * While blocked, the forwarded signals must not be ignored (a
	 * non-interactive shell starts background jobs with SIGINT ignored),
	 * or they would be discarded instead of queued for sigwaitinfo().
	 */
	sigprocmask(SIG_BLOCK, &set, &old);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		old_act[i] = signal(forwarded[i], SIG_DFL);
	/* invariant 8: what the agent detaches stays ours to stop */
	prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		warning("run: cannot become a child subreaper (%s): processes the agent detaches may outlive it",
			strerror(errno));
	w.pid = start_agent(s, exe, argv, envp, stdin_path, io ? io->fd3 : -1,
			    tty, &old);
	e = errno;
	w.tty = tty;
	if (lim)
		lim->ended_by = 0;
	if (w.pid > 0)
		st = supervise(&w, &set);
	prctl(PR_SET_CHILD_SUBREAPER, was_subreaper);
	if (tty)
		tcsetpgrp(STDIN_FILENO, getpgrp());
	/* Drop signals that arrived after the agent ended, then unblock. */
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		signal(forwarded[i], old_act[i]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (w.pid < 0 || e) {
		strbuf_addf(err, "failed to spawn agent command '%s': %s", exe,
			    strerror(e));
		free(exe);
		return 127;
	}
	free(exe);
	return lim && lim->ended_by ? SESSION_EXIT_TIMEOUT
				    : wait_status_to_code(st);
}
