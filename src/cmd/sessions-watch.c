/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git sessions --watch: the fleet on a terminal, redrawn every
 * second (PRODUCT.md §13): running or idle, commits ahead, diffstat, last
 * deny, last event; `q` quits.
 *
 *  1. Off a terminal (stdout or stdin not a tty) it refuses, changing
 *     nothing: a redrawing screen in a file or a pipe is noise, and
 *     without a terminal on stdin `q` could not quit.
 *  2. The terminal is given back as it was, whatever ends the view: `q`,
 *     end of input, SIGINT, SIGTERM, SIGHUP (the alternate screen is left,
 *     the cursor shown, the line discipline restored).
 *  3. Every string from a session or the journal is printed inert
 *     (base/inert.h) and cut to the terminal's width, so nothing an agent
 *     wrote can move the cursor or spill over the frame.
 *  4. It only reads (fleet/report.h: sessions, their branches in the
 *     operator's repository, the journal's tail).
 */
#include "base/common.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/inert.h"
#include "base/strbuf.h"
#include "base/timefmt.h"
#include "cmd/sessions-int.h"
#include "fleet/report.h"

#define WATCH_TAIL (4u << 20) /* journal bytes read for the last denies */
#define WATCH_PERIOD_MS 1000

/* Appends `s` inert, cut or padded to exactly `w` characters. */
static void cell(struct strbuf *sb, const char *s, size_t w)
{
	struct strbuf t = STRBUF_INIT;
	size_t n = 0, i = 0;

	strbuf_add_inert(&t, s ? s : "-", 0);
	for (; i < t.len; i++) {
		if (((unsigned char)t.buf[i] & 0xc0) == 0x80)
			continue;
		if (n == w)
			break;
		n++;
	}
	strbuf_add(sb, t.buf, i);
	for (; n < w; n++)
		strbuf_addch(sb, ' ');
	strbuf_release(&t);
}

/* Ends the line, cut to `cols` characters (the text is ours or inert). */
static void end_line(struct strbuf *sb, size_t start, size_t cols)
{
	size_t n = 0, i = start;

	for (; i < sb->len; i++) {
		if (((unsigned char)sb->buf[i] & 0xc0) == 0x80)
			continue;
		if (n == cols)
			break;
		n++;
	}
	strbuf_setlen(sb, i);
	strbuf_rtrim(sb);
	strbuf_addstr(sb, "\r\n");
}

static void state(const struct session_info *si, struct strbuf *out)
{
	if (si->running && si->pid)
		strbuf_addf(out, "running (pid %ld)", si->pid);
	else if (si->running)
		strbuf_addstr(out, "running");
	else if (si->state == SESSION_CLEAN)
		strbuf_addstr(out, "idle");
	else if (si->state == SESSION_DIRTY)
		strbuf_addstr(out, "idle, dirty");
	else
		strbuf_addstr(out, session_state_str(si->state));
}

static void row(struct strbuf *sb, const struct report_agent *ag, size_t cols)
{
	const struct session_info *si = &ag->si;
	struct strbuf t = STRBUF_INIT;
	size_t start = sb->len;

	cell(sb, si->agent, 16);
	strbuf_addch(sb, ' ');
	state(si, &t);
	cell(sb, t.buf, 19);
	strbuf_addch(sb, ' ');
	cell(sb, si->branch, 24);
	strbuf_reset(&t);
	strbuf_addf(&t, " %5zu%s ", ag->commits_nr,
		    ag->commits_more ? "+" : " ");
	strbuf_addbuf(sb, &t);
	strbuf_reset(&t);
	strbuf_addf(&t, "%zu file%s +%ld -%ld", ag->files_total,
		    ag->files_total == 1 ? "" : "s", ag->added, ag->deleted);
	cell(sb, t.buf, 20);
	strbuf_addch(sb, ' ');
	strbuf_reset(&t);
	if (si->last_event && si->last_time && strlen(si->last_time) >= 19)
		strbuf_addf(&t, "%.8s %s", si->last_time + 11, si->last_event);
	else if (si->last_event)
		strbuf_addstr(&t, si->last_event);
	strbuf_add_inert(sb, si->last_event ? t.buf : "-", 0);
	end_line(sb, start, cols);
	if (ag->last_deny) {
		start = sb->len;
		strbuf_addstr(sb, "                 last deny: ");
		strbuf_add_inert(sb, ag->last_deny, 0);
		end_line(sb, start, cols);
	}
	strbuf_release(&t);
}

static size_t term_cols(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

static void draw(const char *home, const char *git)
{
	struct report r = REPORT_INIT;
	struct strbuf sb = STRBUF_INIT, now = STRBUF_INIT;
	size_t cols = term_cols(), start;

	strbuf_addstr(&sb, "\033[H\033[2J");
	time_now_rfc3339(&now);
	start = sb.len;
	strbuf_addf(&sb, "agentic-git sessions --watch   %.8sZ   ",
		    now.buf + 11);
	strbuf_add_inert(&sb, home, 0);
	strbuf_addstr(&sb, "   (q quits)");
	end_line(&sb, start, cols);
	strbuf_addstr(&sb, "\r\n");
	if (report_read_sessions(home, git, &r) < 0) {
		start = sb.len;
		strbuf_addf(&sb, "cannot read '%s/runtime': %s", home,
			    strerror(errno));
		end_line(&sb, start, cols);
	} else if (!r.agents_nr) {
		strbuf_addstr(&sb, "(no sessions)\r\n");
	} else {
		report_last_denies(&r, WATCH_TAIL);
		start = sb.len;
		strbuf_addf(&sb, "%-16s %-19s %-24s %6s  %-20s %s", "AGENT",
			    "STATE", "BRANCH", "AHEAD", "DIFFSTAT",
			    "LAST EVENT");
		end_line(&sb, start, cols);
		for (size_t i = 0; i < r.agents_nr; i++)
			row(&sb, &r.agents[i], cols);
	}
	write_all(STDOUT_FILENO, sb.buf, sb.len);
	report_release(&r);
	strbuf_release(&sb);
	strbuf_release(&now);
}

struct term {
	struct termios saved;
	sigset_t oldmask;
	int sigfd;
};

/* Invariant 2: raw keys, the alternate screen, the signals as events. */
static int term_enter(struct term *t)
{
	struct termios raw;
	sigset_t mask;

	if (tcgetattr(STDIN_FILENO, &t->saved) < 0)
		return error_errno("sessions: cannot read the terminal's mode");
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGWINCH);
	if (sigprocmask(SIG_BLOCK, &mask, &t->oldmask) < 0)
		return error_errno("sessions: cannot block signals");
	t->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (t->sigfd < 0) {
		sigprocmask(SIG_SETMASK, &t->oldmask, NULL);
		return error_errno("sessions: signalfd");
	}
	raw = t->saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	write_all(STDOUT_FILENO, "\033[?1049h\033[?25l", 14);
	return 0;
}

static void term_leave(struct term *t)
{
	write_all(STDOUT_FILENO, "\033[?25h\033[?1049l", 14);
	tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
	close(t->sigfd);
	sigprocmask(SIG_SETMASK, &t->oldmask, NULL);
}

/* 1: quit; 0: go on. */
static int on_key(void)
{
	char buf[64];
	ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
		return 1; /* the terminal went away */
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == 'q' || buf[i] == 'Q')
			return 1;
	return 0;
}

/* 1: quit (a stop signal); 0: redraw (the window changed). */
static int on_signal(int sigfd)
{
	struct signalfd_siginfo si;
	int quit = 0;

	while (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (si.ssi_signo != SIGWINCH)
			quit = 1;
	return quit;
}

int sessions_watch(const char *home, const char *git)
{
	struct term t;
	struct timespec next;
	int quit = 0;

	if (!isatty(STDOUT_FILENO)) {
		error("sessions: --watch needs a terminal, and stdout is not one (sessions --json is for scripts)");
		return AG_EXIT_USAGE;
	}
	if (!isatty(STDIN_FILENO)) {
		error("sessions: --watch needs a terminal on stdin too, to read 'q'");
		return AG_EXIT_USAGE;
	}
	if (term_enter(&t) < 0)
		return 1;
	draw(home, git);
	next = mono_after_ms(WATCH_PERIOD_MS);
	while (!quit) {
		struct pollfd fds[2] = { { STDIN_FILENO, POLLIN, 0 },
					 { t.sigfd, POLLIN, 0 } };
		long ms = mono_ms_until(&next);
		int n = poll(fds, 2, ms > 0 ? (int)ms : 0);

		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && fds[0].revents)
			quit = on_key();
		if (!quit && n > 0 && fds[1].revents) {
			quit = on_signal(t.sigfd);
			if (!quit)
				draw(home, git);
		}
		if (!quit && mono_ms_until(&next) <= 0) {
			draw(home, git);
			next = mono_after_ms(WATCH_PERIOD_MS);
		}
	}
	term_leave(&t);
	return 0;
}
