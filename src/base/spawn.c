/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/spawn.h"
#include "base/xalloc.h"

extern char **environ;

void strvec_pushl(struct strvec *sv, ...)
{
	va_list ap;
	const char *s;
	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

int wait_status_to_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

static bool name_matches(const char *entry, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(entry, name, n) && entry[n] == '=';
}

void child_build_env(const struct child *c, struct strvec *out)
{
	if (c->env.nr) {
		strvec_pushv(out, c->env.v);
		return;
	}
	for (char **e = environ; e && *e; e++) {
		bool drop = false;
		for (size_t i = 0; i < c->env_unset.nr && !drop; i++)
			drop = name_matches(*e, c->env_unset.v[i]);
		for (size_t i = 0; i < c->env_set.nr && !drop; i++) {
			const char *eq = strchr(c->env_set.v[i], '=');
			size_t n = eq ? (size_t)(eq - c->env_set.v[i]) : 0;
			drop = n && !strncmp(*e, c->env_set.v[i], n) &&
			       (*e)[n] == '=';
		}
		if (!drop)
			strvec_push(out, *e);
	}
	strvec_pushv(out, c->env_set.v);
}

struct child_err {
	int stage; /* 0 chdir, 1 exec, 2 dup */
	int err;
};

static AG_NORETURN void child_fail(int fd, int stage)
{
	struct child_err ce = { stage, errno };
	ssize_t AG_UNUSED n = write(fd, &ce, sizeof(ce));
	_exit(127);
}

int child_start(struct child *c)
{
	int in_pipe[2] = { -1, -1 }, out_pipe[2] = { -1, -1 },
	    err_pipe[2] = { -1, -1 }, report[2] = { -1, -1 };
	struct strvec envp = STRVEC_INIT;
	int null_fd = -1;
	struct child_err ce;
	ssize_t n;
	sigset_t all, old;

	if (!c->args.nr || c->args.v[0][0] != '/') {
		errno = EINVAL;
		return -1;
	}
	child_build_env(c, &envp);
	if (pipe2(report, O_CLOEXEC) < 0)
		goto fail;
	if (c->in && pipe2(in_pipe, O_CLOEXEC) < 0)
		goto fail;
	if (c->capture_out && pipe2(out_pipe, O_CLOEXEC) < 0)
		goto fail;
	if (c->capture_err && !c->stderr_to_stdout &&
	    pipe2(err_pipe, O_CLOEXEC) < 0)
		goto fail;
	if (!c->in && !c->inherit_stdin &&
	    (null_fd = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		goto fail;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	c->pid = fork();
	if (c->pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		goto fail;
	}
	if (!c->pid) {
		/* child: async-signal-safe calls only */
		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (c->new_pgroup)
			setpgid(0, 0);
		if (c->in && dup2(in_pipe[0], 0) < 0)
			child_fail(report[1], 2);
		if (null_fd >= 0 && dup2(null_fd, 0) < 0)
			child_fail(report[1], 2);
		if (c->capture_out && dup2(out_pipe[1], 1) < 0)
			child_fail(report[1], 2);
		if (!c->capture_out && c->out_fd >= 0 && dup2(c->out_fd, 1) < 0)
			child_fail(report[1], 2);
		if (c->stderr_to_stdout) {
			if (dup2(1, 2) < 0)
				child_fail(report[1], 2);
		} else if (c->capture_err) {
			if (dup2(err_pipe[1], 2) < 0)
				child_fail(report[1], 2);
		} else if (c->err_fd >= 0 && dup2(c->err_fd, 2) < 0) {
			child_fail(report[1], 2);
		}
		if (c->dir && chdir(c->dir) < 0)
			child_fail(report[1], 0);
		execve(c->args.v[0], (char *const *)c->args.v,
		       (char *const *)envp.v);
		child_fail(report[1], 1);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(report[1]);
	report[1] = -1;
	if (null_fd >= 0)
		close(null_fd);
	do
		n = read(report[0], &ce, sizeof(ce));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	strvec_clear(&envp);
	if (in_pipe[0] >= 0)
		close(in_pipe[0]);
	if (out_pipe[1] >= 0)
		close(out_pipe[1]);
	if (err_pipe[1] >= 0)
		close(err_pipe[1]);
	c->out_fd_r = out_pipe[0];
	c->err_fd_r = err_pipe[0];
	c->in_fd_w = in_pipe[1];
	if (n == (ssize_t)sizeof(ce)) {
		int st;
		if (c->in_fd_w >= 0)
			close(c->in_fd_w);
		if (c->out_fd_r >= 0)
			close(c->out_fd_r);
		if (c->err_fd_r >= 0)
			close(c->err_fd_r);
		c->in_fd_w = c->out_fd_r = c->err_fd_r = -1;
		while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
			;
		c->pid = -1;
		errno = ce.err;
		return -1;
	}
	return 0;
fail: {
	int errsv = errno;
	int fds[] = { in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1],
		      err_pipe[0], err_pipe[1], report[0], report[1], null_fd };
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	strvec_clear(&envp);
	errno = errsv;
	return -1;
}
}

int child_finish(struct child *c)
{
	struct pollfd pfd[3];
	size_t in_off = 0;
	int st;

	if (c->pid < 0)
		return -1;
	if (c->in_fd_w >= 0)
		fcntl(c->in_fd_w, F_SETFL, O_NONBLOCK);
	for (;;) {
		nfds_t nfd = 0;
		int idx_in = -1, idx_out = -1, idx_err = -1;

		if (c->in_fd_w >= 0) {
			idx_in = (int)nfd;
			pfd[nfd++] = (struct pollfd){ c->in_fd_w, POLLOUT, 0 };
		}
		if (c->out_fd_r >= 0) {
			idx_out = (int)nfd;
			pfd[nfd++] = (struct pollfd){ c->out_fd_r, POLLIN, 0 };
		}
		if (c->err_fd_r >= 0) {
			idx_err = (int)nfd;
			pfd[nfd++] = (struct pollfd){ c->err_fd_r, POLLIN, 0 };
		}
		if (!nfd)
			break;
		if (poll(pfd, nfd, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (idx_in >= 0 && pfd[idx_in].revents) {
			ssize_t n = 0;
			if (in_off < c->in_len)
				n = write(c->in_fd_w, c->in + in_off,
					  c->in_len - in_off);
			if (n > 0)
				in_off += (size_t)n;
			if (in_off >= c->in_len || (n < 0 && errno != EAGAIN &&
						    errno != EINTR)) {
				close(c->in_fd_w);
				c->in_fd_w = -1;
			}
		}
		if (idx_out >= 0 && pfd[idx_out].revents) {
			char buf[8192];
			ssize_t n = read(c->out_fd_r, buf, sizeof(buf));
			if (n > 0) {
				strbuf_add(&c->out, buf, (size_t)n);
			} else if (n == 0 || errno != EINTR) {
				close(c->out_fd_r);
				c->out_fd_r = -1;
			}
		}
		if (idx_err >= 0 && pfd[idx_err].revents) {
			char buf[8192];
			ssize_t n = read(c->err_fd_r, buf, sizeof(buf));
			if (n > 0) {
				strbuf_add(&c->err, buf, (size_t)n);
			} else if (n == 0 || errno != EINTR) {
				close(c->err_fd_r);
				c->err_fd_r = -1;
			}
		}
	}
	while (waitpid(c->pid, &st, 0) < 0) {
		if (errno != EINTR) {
			c->pid = -1;
			return -1;
		}
	}
	c->pid = -1;
	c->status = wait_status_to_code(st);
	return 0;
}

int child_run(struct child *c)
{
	if (child_start(c) < 0)
		return -1;
	return child_finish(c);
}

void child_release(struct child *c)
{
	strvec_clear(&c->args);
	strvec_clear(&c->env);
	strvec_clear(&c->env_set);
	strvec_clear(&c->env_unset);
	strbuf_release(&c->out);
	strbuf_release(&c->err);
}
