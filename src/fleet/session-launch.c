/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Launching and supervising the agent (session.h invariant 5).
 *
 * The agent gets its own process group so that one signal reaches it and
 * everything it started. When we own the terminal, the agent's group is
 * made the foreground group so interactive agents keep reading the
 * keyboard (and Ctrl-C reaches them directly); when the agent stops
 * (Ctrl-Z) we take the terminal back, stop ourselves, and hand it back on
 * SIGCONT, as a shell does. Signals are taken synchronously with
 * sigwaitinfo() while blocked, so there is no async handler at all.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "fleet/session.h"
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
				   const char *stdin_path, const sigset_t *old)
{
	int e;

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

/* Waits for the agent, forwarding signals. Returns its wait status. */
static int supervise(pid_t pid, bool tty, const sigset_t *set)
{
	for (;;) {
		siginfo_t si;
		int st;
		pid_t w;

		if (sigwaitinfo(set, &si) < 0)
			continue;
		if (si.si_signo == SIGTTOU)
			continue;
		if (si.si_signo != SIGCHLD) {
			kill(-pid, si.si_signo);
			continue;
		}
		while ((w = waitpid(pid, &st, WNOHANG | WUNTRACED)) < 0 &&
		       errno == EINTR)
			;
		if (w != pid)
			continue;
		if (WIFSTOPPED(st)) {
			if (tty)
				tcsetpgrp(STDIN_FILENO, getpgrp());
			kill(getpid(), SIGSTOP);
			if (tty)
				tcsetpgrp(STDIN_FILENO, pid);
			kill(-pid, SIGCONT);
			continue;
		}
		return st;
	}
}

int session_launch(const struct session *s, const char *const *argv,
		   const char *const *envp, struct strbuf *err)
{
	return session_launch_io(s, argv, envp, NULL, err);
}

int session_launch_io(const struct session *s, const char *const *argv,
		      const char *const *envp, const char *stdin_path,
		      struct strbuf *err)
{
	sighandler_t old_act[ARRAY_SIZE(forwarded)];
	sigset_t set, old;
	int report[2], e = 0, st;
	char *exe = session_resolve_cmd(argv[0], envp);
	bool tty = !stdin_path && isatty(STDIN_FILENO) &&
		   tcgetpgrp(STDIN_FILENO) == getpgrp();
	struct timespec zero = { 0, 0 };
	pid_t pid;
	ssize_t n;

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
	if (pipe2(report, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot start '%s': %s", argv[0], strerror(errno));
		free(exe);
		return 127;
	}
	/*
	 * While blocked, the forwarded signals must not be ignored (a
	 * non-interactive shell starts background jobs with SIGINT ignored),
	 * or they would be discarded instead of queued for sigwaitinfo().
	 */
	sigprocmask(SIG_BLOCK, &set, &old);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		old_act[i] = signal(forwarded[i], SIG_DFL);
	pid = fork();
	if (!pid)
		child_exec(report[1], tty, exe, argv, envp, s->worktree,
			   stdin_path, &old);
	close(report[1]);
	if (pid > 0) {
		setpgid(pid, pid); /* also done by the child: no race either way */
		/*
		 * Best effort: without the record `sessions` still shows the
		 * session running (that is the lock), only `end --force`
		 * cannot name the agent and refuses.
		 */
		if (s->lock)
			(void)session_lock_record(s->lock, pid);
		if (tty)
			tcsetpgrp(STDIN_FILENO, pid);
		while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
			;
		if (n != (ssize_t)sizeof(e))
			e = 0;
	} else {
		e = errno;
	}
	close(report[0]);
	st = pid > 0 ? supervise(pid, tty, &set) : 0;
	if (tty)
		tcsetpgrp(STDIN_FILENO, getpgrp());
	/* Drop signals that arrived after the agent ended, then unblock. */
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		signal(forwarded[i], old_act[i]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0 || e) {
		strbuf_addf(err, "failed to spawn agent command '%s': %s", exe,
			    strerror(e));
		free(exe);
		return 127;
	}
	free(exe);
	return wait_status_to_code(st);
}
