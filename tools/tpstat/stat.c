// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat stat: one command's events, as perf stat counts them, at the cost
 * of tpstat_count's probes. They are counted in a private instance,
 * count/stat_<pid>, scoped to the command's process tree: the command and
 * every task it forks from then on, which the kernel follows from fork to
 * exit. Other tasks' events, tpstat's own among them, are not counted, and
 * no other user's settings reach the instance.
 *
 * The child waits on a pipe, the gate, until the instance is scoped to it
 * and reset, then execs the command. A failed exec comes back through a
 * pipe that a successful one closes (close-on-exec), so that a command that
 * cannot be started is told apart from one that ran and failed.
 *
 * From before the instance is made until it is removed, the signals tpstat
 * waits for are blocked and taken one at a time with sigwaitinfo(): the
 * child's exit, the interval timer's ticks and a request to stop (SIGINT,
 * SIGTERM, SIGHUP), which goes on to the child. No handler runs beside the
 * clean-up, so no signal leaves the instance behind; tpstat then dies of
 * the request, as a shell wants of a command it asked to stop.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tpstat.h"

static const char tpstat_stat_usage[] =
	"usage: tpstat stat [-e EVENT[,...]]... [-i SECONDS | -I MS] [-A]\n"
	"                   [-x SEP | -j] [-o FILE] [-a] [--] CMD [ARG]...\n"
	"       tpstat stat [OPTION]... -p PID[,PID]... | -a [-d SECONDS]\n"
	"\n"
	"Runs CMD and counts the events of its process tree alone (CMD and every\n"
	"task it forks from then on) in a private instance of tpstat_count,\n"
	"count/stat_<pid>; prints, on stderr as perf stat does, each\n"
	"tracepoint's count and its rate per second over CMD's run; removes the\n"
	"instance, and exits with CMD's status (128+N if signal N killed it).\n"
	"CMD not found: 127; found but not run: 126; tpstat's own error: 1;\n"
	"used wrongly (an unknown option, a bad value): 2, before CMD is run;\n"
	"an event the kernel lacks, or a glob it has none of: 1, CMD not run.\n"
	"SIGINT, SIGTERM and SIGHUP go on to CMD: once it has exited the counts\n"
	"are printed, the instance removed, and tpstat dies of the signal.\n"
	"\n"
	"With -p PID instead of CMD, counts a running process (the thread PID\n"
	"names; its other threads are not) and every task it forks from then on,\n"
	"until it has exited, -d's seconds have passed, or SIGINT, SIGTERM or\n"
	"SIGHUP (Ctrl-C) ends the count; then prints the counts and exits 0.\n"
	"With -p PID,PID..., several such processes, their events added up in\n"
	"one instance, until every one has exited. A PID that is no running\n"
	"process: exit 1, nothing counted.\n"
	"With -a, every task's events, in an instance of their own: as long as\n"
	"CMD runs, or without CMD until -d's seconds or a signal, as -p.\n"
	"\n"
	"  -e, --events EVENT,...  the tracepoints to count (default: sched_switch,\n"
	"                          sched_process_fork, sched_process_exec,\n"
	"                          page_fault_user, kmalloc, net_dev_xmit,\n"
	"                          netif_receive_skb, less those this kernel lacks);\n"
	"                          an EVENT is NAME or SUBSYSTEM:NAME, as perf and\n"
	"                          bpftrace name them (sched:sched_switch), or a\n"
	"                          glob of either ('sched:*', 'kmem:k*', 'sched_*'),\n"
	"                          which counts every tracepoint of the running\n"
	"                          kernel it matches (tpstat list --available)\n"
	"  -i, --interval SECONDS  each interval's counts too, as CMD runs\n"
	"  -I, --interval-ms MS    the same in milliseconds, as perf stat's -I\n"
	"  -A, --per-cpu           a column per CPU\n"
	"  -x, --field-separator SEP\n"
	"                          lines of fields for a program, as perf stat -x:\n"
	"                          [TIME SEP] [cpuN SEP] COUNT SEP RATE SEP TRACEPOINT,\n"
	"                          with -A a line per CPU; no title, header or time\n"
	"  -j, --json              a JSON object per line, as perf stat -j: with -i\n"
	"                          \"time\", with -A \"cpu\" (a line per CPU), then\n"
	"                          \"event\", \"count\" and \"rate\" (per second)\n"
	"  -o, --output FILE       the counts into FILE, not stderr\n"
	"  -p, --pid PID[,PID]...  running processes and what they fork, not CMD\n"
	"  -a, --all-cpus          every task's events, system-wide, as perf stat -a\n"
	"  -d, --duration SECONDS  with -p or -a and no CMD: stop after SECONDS\n";

/* Counted without -e; those this kernel lacks are left out. */
static const char *const stat_defaults[] = {
	"sched_switch", "sched_process_fork", "sched_process_exec",
	"page_fault_user", "kmalloc", "net_dev_xmit", "netif_receive_skb",
};

/* Requests to stop, which stop CMD first. */
static const int stat_stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* -e may come this many times; each takes a list. */
#define STAT_LISTS_MAX	32
/* Names tried for the instance: stat_<pid>, then stat_<pid>_1 ... */
#define STAT_NAMES	16

struct stat_event {
	char *name;
	/* As printed: subsystem:name when it is known, else the name. */
	char *label;
	/* Named by -e: absent from this kernel is an error, not left out. */
	bool asked;
	/* Attached, so counted; an absent default is not. */
	bool counted;
};

struct stat_run {
	/* The instance, and its set's path: count/<name>. */
	char name[64];
	char path[80];
	struct stat_event *events;
	size_t nr_events;
	bool per_cpu;
	double interval;
	/* Where the counts go (stderr, or -o's file), -x's separator, -j. */
	FILE *out;
	const char *sep;
	bool json;
	char **cmd;
	pid_t child;
	/*
	 * -p's processes, counted with what they fork from now on until
	 * every one has exited; -a: every task; -d's seconds (0: until a
	 * request to stop).
	 */
	pid_t *targets;
	size_t nr_targets;
	bool all;
	double duration;
	/* The signals waited for; the mask and SIGCHLD's action before. */
	sigset_t wanted, old_mask;
	struct sigaction old_chld;
	/* From the gate's opening to the child's exit. */
	struct timespec start, end;
	/* The first request to stop, to die of once the instance is gone. */
	int stop;
	/*
	 * For -i: the last sample, held while ticking (until a reading
	 * fails), and the CPUs of the last header.
	 */
	struct tpstat_sample last;
	bool ticking;
	int *header_cpus;
	size_t header_nr;
	bool headed;
	unsigned int warned;
};

static bool stat_has_event(const struct stat_run *r, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < r->nr_events; i++)
		if (strlen(r->events[i].name) == n && !strncmp(r->events[i].name, name, n))
			return true;
	return false;
}

static void stat_add_event(struct stat_run *r, const char *subsys,
			   const char *name, size_t n, bool asked)
{
	struct tpstat_buf label = { 0 };
	struct stat_event *e;

	r->events = tpstat_realloc(r->events, (r->nr_events + 1) * sizeof(*r->events));
	e = &r->events[r->nr_events++];
	e->name = tpstat_strndup(name, n);
	tpstat_buf_printf(&label, "%s%s%.*s", subsys ? subsys : "", subsys ? ":" : "",
			  (int)n, name);
	e->label = label.s;
	e->asked = asked;
	e->counted = true;
}

/* The name part of an event, after its subsystem if it has one. */
static const char *stat_event_name(const char *s, size_t *n)
{
	const char *colon = memchr(s, ':', *n);

	if (!colon)
		return s;
	*n -= colon + 1 - s;
	return colon + 1;
}

/*
 * -e's lists as written: events separated by commas, each well-formed, and
 * no tracepoint named twice (a glob may match one named already).
 */
static int stat_check_events(const char *cmd, const char *const *lists, size_t nr)
{
	/* The names so far, each between commas: ",sched_switch,kmalloc,". */
	struct tpstat_buf seen = { 0 }, key = { 0 };
	const char *p, *comma, *name;
	int ret = 0;
	size_t i, n;

	tpstat_buf_add(&seen, ",", 1);
	for (i = 0; !ret && i < nr; i++) {
		for (p = lists[i]; !ret; p = comma + 1) {
			comma = strchrnul(p, ',');
			n = comma - p;
			if (!tpstat_event_valid(p, n)) {
				ret = tpstat_usage_error(cmd,
							 "-e takes tracepoints as [SUBSYSTEM:]NAME or globs of them, separated by commas, not '%s'",
							 lists[i]);
				break;
			}
			if (!tpstat_event_is_glob(p, n)) {
				name = stat_event_name(p, &n);
				key.len = 0;
				tpstat_buf_printf(&key, ",%.*s,", (int)n, name);
				if (strstr(seen.s, key.s))
					ret = tpstat_usage_error(cmd, "-e names %.*s twice",
								 (int)n, name);
				tpstat_buf_add(&seen, key.s + 1, key.len - 1);
			}
			if (!*comma)
				break;
		}
	}
	tpstat_buf_free(&seen);
	tpstat_buf_free(&key);
	return ret;
}

/*
 * The events of one item of -e's lists: a plain name as it is (the count
 * set says whether the kernel has it); subsystem:name if tracefs has it (or
 * by its name alone when only kallsyms is known); a glob's matches, in the
 * order of the kernel's list. 0, or 1 after saying what the kernel lacks.
 */
static int stat_expand(struct stat_run *r, const char *p, size_t n,
		       struct tpstat_tracepoints *t, bool *read)
{
	char spec[2 * TPSTAT_EVENT_MAX + 2];
	const struct tpstat_tracepoint *tp;
	const char *name;
	size_t i, matched = 0, len = n;

	name = stat_event_name(p, &len);
	if (name == p && !tpstat_event_is_glob(p, n)) {
		stat_add_event(r, NULL, p, n, true);
		return 0;
	}
	if (!*read && tpstat_read_tracepoints(t))
		return 1;
	*read = true;
	snprintf(spec, sizeof(spec), "%.*s", (int)n, p);
	if (!tpstat_event_is_glob(p, n) && !t->has_subsys) {
		stat_add_event(r, NULL, name, len, true);
		return 0;
	}
	for (i = 0; i < t->nr; i++) {
		tp = &t->tp[i];
		if (!tpstat_event_match(tp, spec))
			continue;
		matched++;
		if (!stat_has_event(r, tp->name, strlen(tp->name)))
			stat_add_event(r, tp->subsys, tp->name, strlen(tp->name), true);
	}
	if (matched)
		return 0;
	if (tpstat_event_is_glob(p, n))
		tpstat_err("-e %s: no tracepoint of this kernel or its loaded modules matches it%s (tpstat list --available lists them)",
			   spec, tpstat_event_hint(t, spec));
	else
		tpstat_err("no tracepoint %s in this kernel or its loaded modules (tpstat list --available lists them)",
			   spec);
	return 1;
}

/* -e's lists, checked already, as events: 0, or 1 after saying why not. */
static int stat_parse_events(struct stat_run *r, const char *const *lists, size_t nr)
{
	struct tpstat_tracepoints t;
	const char *p, *comma;
	bool read = false;
	int err = 0;
	size_t i;

	for (i = 0; !err && i < nr; i++) {
		for (p = lists[i]; !err; p = comma + 1) {
			comma = strchrnul(p, ',');
			err = stat_expand(r, p, comma - p, &t, &read);
			if (!*comma)
				break;
		}
	}
	if (read)
		tpstat_free_tracepoints(&t);
	return err;
}

static void stat_free(struct stat_run *r)
{
	size_t i;

	for (i = 0; i < r->nr_events; i++) {
		free(r->events[i].name);
		free(r->events[i].label);
	}
	free(r->events);
	free(r->targets);
	free(r->header_cpus);
	if (r->ticking)
		tpstat_free_sample(&r->last);
}

/*
 * Blocks the signals stat waits for. A request to stop that was ignored
 * on entry stays ignored, as the shell that started tpstat asked (a
 * background job's SIGINT), and so it is for CMD. SIGCHLD ignored would
 * reap the child before tpstat could: CMD gets it back as it was. SIGPIPE
 * is blocked, never waited for: stderr closed (2>&1 | head) must not kill
 * tpstat before the instance is removed.
 */
static void stat_block_signals(struct stat_run *r)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, sa;
	sigset_t blocked;
	size_t i;

	sigemptyset(&r->wanted);
	sigaddset(&r->wanted, SIGCHLD);
	sigaddset(&r->wanted, SIGALRM);
	for (i = 0; i < ARRAY_SIZE(stat_stop_signals); i++)
		if (!sigaction(stat_stop_signals[i], NULL, &sa) &&
		    sa.sa_handler != SIG_IGN)
			sigaddset(&r->wanted, stat_stop_signals[i]);
	sigaction(SIGCHLD, &dfl, &r->old_chld);
	blocked = r->wanted;
	sigaddset(&blocked, SIGPIPE);
	sigprocmask(SIG_BLOCK, &blocked, &r->old_mask);
}

/* Digits at @p, at least one, then @end; NULL if not. */
static const char *stat_number(const char *p, char end)
{
	const char *start = p;

	while (*p >= '0' && *p <= '9')
		p++;
	return p > start && *p == end ? p : NULL;
}

bool tpstat_is_stat_instance(const char *set)
{
	const char *p;

	if (strncmp(set, "count/stat_", 11))
		return false;
	p = stat_number(set + 11, '\0');
	if (!p)
		p = stat_number(set + 11, '_');
	return p && (!*p || stat_number(p + 1, '\0'));
}

static int stat_make_instance(struct stat_run *r)
{
	int i, err = -EEXIST;

	/*
	 * The name may be taken: by a tpstat stat that was killed by SIGKILL,
	 * or that runs in another pid namespace.
	 */
	for (i = 0; err == -EEXIST && i < STAT_NAMES; i++) {
		snprintf(r->name, sizeof(r->name), i ? "stat_%d_%d" : "stat_%d",
			 (int)getpid(), i);
		err = tpstat_write("count/instances", r->name);
	}
	snprintf(r->path, sizeof(r->path), "count/%s", r->name);
	if (err == -ENOSPC || err == -EBUSY)
		tpstat_err("count/instances: tpstat_count has as many instances as its max_instances allows (count/instances lists them): remove one, or load tpstat_count with a larger max_instances=");
	else if (err == -EEXIST)
		tpstat_err("count/instances: %s and the names tried before it are taken",
			   r->name);
	else if (err)
		tpstat_write_error("count/instances", err);
	return err ? -1 : 0;
}

/* Its counts are lost with it: gone already (tpstat_count unloaded) is fine. */
static void stat_remove_instance(const struct stat_run *r)
{
	struct tpstat_buf line = { 0 };
	int err;

	tpstat_buf_printf(&line, "!%s", r->name);
	err = tpstat_write("count/instances", line.s);
	if (err && err != -ENOENT)
		tpstat_write_error("count/instances", err);
	tpstat_buf_free(&line);
}

/*
 * Writes @line to the instance's @file: 0, or a negative errno, said
 * unless it is ESRCH (no such process), for the caller to say.
 */
static int stat_write_pid(const struct stat_run *r, const char *file,
			  const char *line)
{
	struct tpstat_buf rel = { 0 };
	int err;

	tpstat_buf_printf(&rel, "%s/%s", r->path, file);
	err = tpstat_write(rel.s, line);
	if (err && err != -ESRCH)
		tpstat_write_error(rel.s, err);
	tpstat_buf_free(&rel);
	return err;
}

/* Writes @line to the instance's @file: 0, or -1 after saying why. */
static int stat_write(const struct stat_run *r, const char *file,
		      const char *line)
{
	struct tpstat_buf rel = { 0 };
	int err;

	tpstat_buf_printf(&rel, "%s/%s", r->path, file);
	err = tpstat_write(rel.s, line);
	if (err == -ENOSPC && !strcmp(file, "control"))
		tpstat_err("%s: tpstat_count counts as many tracepoints as its max_tracepoints allows, all instances together",
			   rel.s);
	else if (err)
		tpstat_write_error(rel.s, err);
	tpstat_buf_free(&rel);
	return err ? -1 : 0;
}

/* The state of the instance's probe on @tracepoint, as the probes file says. */
static const char *stat_state(const struct stat_run *r,
			      const struct tpstat_probes *probes,
			      const char *tracepoint)
{
	size_t i;

	for (i = 0; i < probes->nr; i++)
		if (!strcmp(probes->p[i].set, r->path) &&
		    !strcmp(probes->p[i].tracepoint, tracepoint))
			return probes->p[i].state;
	return "not listed";
}

/*
 * Why an asked tracepoint is not counted, as a clause: its probe waits for
 * a module that has it, or the kernel refused it.
 */
static void stat_not_counted(struct tpstat_buf *why, const char *state)
{
	if (!strcmp(state, "waiting"))
		tpstat_buf_printf(why, "not in this kernel or its loaded modules");
	else
		tpstat_buf_printf(why, "its probe is %s, not attached%s", state,
				  strcmp(state, "failed") ? "" : ": the kernel log says why");
}

/*
 * The instance's tracepoints. The control file takes any well-formed name
 * and waits for a module to provide it: a probe not attached now is a
 * tracepoint this kernel lacks (or one it refused), left out if it was a
 * default; those asked for are an error, all of them said in one line.
 */
static int stat_count_events(struct stat_run *r)
{
	struct tpstat_buf line = { 0 }, why = { 0 };
	struct tpstat_probes probes;
	const struct stat_event *e, *bad = NULL;
	size_t i, nr_bad = 0;
	const char *state;
	int err = 0;

	for (i = 0; !err && i < r->nr_events; i++)
		err = stat_write(r, "control", r->events[i].name);
	if (err || tpstat_read_probes(&probes))
		return -1;
	for (i = 0; !err && i < r->nr_events; i++) {
		e = &r->events[i];
		state = stat_state(r, &probes, e->name);
		if (!strcmp(state, "attached"))
			continue;
		if (e->asked) {
			bad = e;
			tpstat_buf_printf(&why, "%s%s (", nr_bad++ ? "; " : "", e->label);
			stat_not_counted(&why, state);
			tpstat_buf_add(&why, ")", 1);
			continue;
		}
		tpstat_buf_printf(&line, "!%s", e->name);
		err = stat_write(r, "control", line.s);
		tpstat_buf_free(&line);
		r->events[i].counted = false;
	}
	if (!err && nr_bad == 1) {
		e = bad;
		state = stat_state(r, &probes, e->name);
		if (!strcmp(state, "waiting"))
			tpstat_err("no tracepoint %s in this kernel or its loaded modules",
				   e->label);
		else
			tpstat_err("%s: its probe is %s, not attached%s", e->label, state,
				   strcmp(state, "failed") ? "" : ": the kernel log says why");
	} else if (!err && nr_bad) {
		tpstat_err("%zu of the tracepoints asked for cannot be counted: %s", nr_bad,
			   why.s);
	}
	tpstat_buf_free(&why);
	tpstat_free_probes(&probes);
	return err || nr_bad ? -1 : 0;
}

/* Arms the interval timer, or with 0 disarms it. */
static void stat_arm(double seconds)
{
	struct itimerval it = { 0 };

	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (seconds - (time_t)seconds) * 1e6;
	it.it_interval = it.it_value;
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Waits at the gate, then becomes CMD; says through @report if it cannot.
 * What it has of tpstat's is freed first: nothing is left at its exit.
 */
static void stat_child(struct stat_run *r, int gate, int report)
{
	char byte;
	int err;

	stat_free(r);
	sigaction(SIGCHLD, &r->old_chld, NULL);
	sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
	/* The gate closes unopened if tpstat gives up before CMD starts. */
	if (read(gate, &byte, 1) != 1)
		_exit(127);
	execvp(r->cmd[0], r->cmd);
	err = errno;
	if (write(report, &err, sizeof(err)) != (ssize_t)sizeof(err))
		_exit(126);
	_exit(err == ENOENT ? 127 : 126);
}

/*
 * Whether the child has exited, its status in @status; with @block waits
 * for it. A failed waitpid() (none is expected: SIGCHLD is not ignored)
 * counts as an exit, not to wait for ever.
 */
static bool stat_reap(struct stat_run *r, int *status, bool block)
{
	pid_t pid;

	do
		pid = waitpid(r->child, status, block ? 0 : WNOHANG);
	while (pid < 0 && errno == EINTR);
	if (pid < 0) {
		tpstat_err("waiting for %s: %s", r->cmd[0], strerror(errno));
		*status = 1 << 8;
	}
	return pid != 0;
}

/*
 * Forks the child, scopes the instance to it and resets the instance, then
 * lets it exec CMD. Returns 0 once CMD runs; -1 after saying why tpstat
 * cannot; or, CMD not started, the status a shell would give (127, 126).
 */
static int stat_start(struct stat_run *r)
{
	int gate[2], report[2], err = 0, status;
	char pid[16];
	ssize_t n;

	if (pipe2(gate, O_CLOEXEC)) {
		tpstat_err("pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(report, O_CLOEXEC)) {
		tpstat_err("pipe: %s", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	fflush(NULL);
	r->child = fork();
	if (!r->child) {
		close(gate[1]);
		close(report[0]);
		stat_child(r, gate[0], report[1]);
	}
	close(gate[0]);
	close(report[1]);
	if (r->child < 0) {
		tpstat_err("fork: %s", strerror(errno));
		close(gate[1]);
		close(report[0]);
		return -1;
	}
	snprintf(pid, sizeof(pid), "%d", (int)r->child);
	if ((!r->all && stat_write(r, "scope", pid)) || stat_write(r, "reset", "1") ||
	    (r->interval && tpstat_sample(r->path, &r->last, &r->warned))) {
		close(gate[1]);
		close(report[0]);
		stat_reap(r, &status, true);
		return -1;
	}
	r->ticking = r->interval > 0;
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	if (write(gate[1], "", 1) != 1)
		tpstat_err("opening the gate: %s", strerror(errno));
	close(gate[1]);
	do
		n = read(report[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n != (ssize_t)sizeof(err))
		return 0;
	stat_reap(r, &status, true);
	tpstat_err("%s: %s", r->cmd[0], strerror(err));
	return err == ENOENT ? 127 : 126;
}

/* The CPUs @s has a column for: those of its first counted event. */
static size_t stat_cpus(const struct stat_run *r, const struct tpstat_sample *s,
			int **cpus)
{
	const char *first = NULL, *name;
	size_t i, n = 0, len;
	char *end;
	long cpu;

	*cpus = NULL;
	for (i = 0; !first && i < r->nr_events; i++)
		if (r->events[i].counted)
			first = r->events[i].name;
	if (!first)
		return 0;
	len = strlen(first);
	for (i = 0; i < s->stats.nr; i++) {
		name = s->stats.lines[i].name;
		if (strncmp(name, first, len) || strncmp(name + len, ".cpu", 4))
			continue;
		cpu = strtol(name + len + 4, &end, 10);
		if (end == name + len + 4 || *end)
			continue;
		*cpus = tpstat_realloc(*cpus, (n + 1) * sizeof(**cpus));
		(*cpus)[n++] = cpu;
	}
	return n;
}

/* @event's count in @s (0 without one): its total, or @cpu's if >= 0. */
static unsigned long long stat_value(const struct tpstat_sample *s,
				     const char *event, int cpu)
{
	struct tpstat_buf name = { 0 };
	const struct tpstat_line *l;

	if (!s)
		return 0;
	if (cpu < 0)
		tpstat_buf_printf(&name, "%s.hits", event);
	else
		tpstat_buf_printf(&name, "%s.cpu%d", event, cpu);
	l = tpstat_sample_line(s, name.s);
	tpstat_buf_free(&name);
	return l ? l->value : 0;
}

/*
 * Counts grouped by thousands: a count's column holds 999 trillion, a
 * rate's and a CPU's 999 billion; a wider value pushes the line right but
 * stays apart from its neighbours.
 */
#define STAT_COUNT_WIDTH	19
#define STAT_RATE_WIDTH		15
#define STAT_CPU_WIDTH		15

static void stat_header(const struct stat_run *r, const int *cpus, size_t nr_cpus,
			bool interval)
{
	char title[16];
	size_t c;

	if (r->sep || r->json)
		return;
	if (interval)
		fprintf(r->out, "%10s", "time");
	fprintf(r->out, "%*s %*s", STAT_COUNT_WIDTH, "count", STAT_RATE_WIDTH,
		"per second");
	for (c = 0; c < nr_cpus; c++) {
		snprintf(title, sizeof(title), "cpu%d", cpus[c]);
		fprintf(r->out, " %*s", STAT_CPU_WIDTH, title);
	}
	fprintf(r->out, "  %s\n", "tracepoint");
}

/* A rate: one decimal while it is small, then whole and grouped. */
static void stat_rate(char *buf, size_t size, double rate)
{
	if (rate == 0)
		snprintf(buf, size, "0");
	else if (rate < 99.95)
		snprintf(buf, size, "%.1f", rate);
	else
		tpstat_grouped(buf, size, (unsigned long long)(rate + 0.5));
}

/*
 * -x: an event's count and rate as fields, ungrouped; with -A one line per
 * CPU, as perf stat -A -x prints them.
 */
static void stat_fields(const struct stat_run *r, const struct tpstat_sample *prev,
			const struct tpstat_sample *cur, double dt, const int *cpus,
			size_t nr_cpus, const double *at, const struct stat_event *e)
{
	unsigned long long n;
	size_t c;

	for (c = 0; c < (nr_cpus ? nr_cpus : 1); c++) {
		int cpu = nr_cpus ? cpus[c] : -1;

		n = stat_value(cur, e->name, cpu) - stat_value(prev, e->name, cpu);
		if (at)
			fprintf(r->out, "%.3f%s", *at, r->sep);
		if (nr_cpus)
			fprintf(r->out, "cpu%d%s", cpu, r->sep);
		fprintf(r->out, "%llu%s%.3f%s%s\n", n, r->sep, dt > 0 ? n / dt : 0,
			r->sep, e->label);
	}
}

/*
 * -j: an object per event on a line of its own, as perf stat -j prints:
 * with -i its "time", with -A a line per CPU, its "cpu"; then "event",
 * "count" and "rate" (per second).
 */
static void stat_json(const struct stat_run *r, const struct tpstat_sample *prev,
		      const struct tpstat_sample *cur, double dt, const int *cpus,
		      size_t nr_cpus, const double *at, const struct stat_event *e)
{
	unsigned long long n;
	size_t c;

	for (c = 0; c < (nr_cpus ? nr_cpus : 1); c++) {
		int cpu = nr_cpus ? cpus[c] : -1;

		n = stat_value(cur, e->name, cpu) - stat_value(prev, e->name, cpu);
		fputc('{', r->out);
		if (at)
			fprintf(r->out, "\"time\": %.3f, ", *at);
		if (nr_cpus)
			fprintf(r->out, "\"cpu\": %d, ", cpu);
		fputs("\"event\": ", r->out);
		tpstat_json_string(r->out, e->label);
		fprintf(r->out, ", \"count\": %llu, \"rate\": %.3f}\n", n,
			dt > 0 ? n / dt : 0);
	}
}

/*
 * A line per counted event: its count in @cur, less @prev's for an
 * interval; its rate over @dt seconds; with -A, each CPU's. An interval's
 * lines start with @at, its end in seconds since CMD started.
 */
static void stat_rows(const struct stat_run *r, const struct tpstat_sample *prev,
		      const struct tpstat_sample *cur, double dt, const int *cpus,
		      size_t nr_cpus, const double *at)
{
	char count[32], rate[32], cpu[32];
	unsigned long long n;
	const char *event;
	size_t i, c;

	for (i = 0; i < r->nr_events; i++) {
		if (!r->events[i].counted)
			continue;
		event = r->events[i].name;
		if (r->sep) {
			stat_fields(r, prev, cur, dt, cpus, nr_cpus, at, &r->events[i]);
			continue;
		}
		if (r->json) {
			stat_json(r, prev, cur, dt, cpus, nr_cpus, at, &r->events[i]);
			continue;
		}
		n = stat_value(cur, event, -1) - stat_value(prev, event, -1);
		tpstat_grouped(count, sizeof(count), n);
		stat_rate(rate, sizeof(rate), dt > 0 ? n / dt : 0);
		if (at)
			fprintf(r->out, "%10.3f", *at);
		fprintf(r->out, "%*s %*s", STAT_COUNT_WIDTH, count, STAT_RATE_WIDTH, rate);
		for (c = 0; c < nr_cpus; c++) {
			tpstat_grouped(cpu, sizeof(cpu), stat_value(cur, event, cpus[c]) -
				       stat_value(prev, event, cpus[c]));
			fprintf(r->out, " %*s", STAT_CPU_WIDTH, cpu);
		}
		fprintf(r->out, "  %s\n", r->events[i].label);
	}
}

/* -i: the counts since the last tick; the header again if the CPUs changed. */
static void stat_tick(struct stat_run *r)
{
	struct tpstat_sample cur;
	int *cpus = NULL;
	size_t nr = 0;
	double at;

	if (!r->ticking)
		return;
	if (tpstat_sample(r->path, &cur, &r->warned)) {
		stat_arm(0);
		tpstat_free_sample(&r->last);
		r->ticking = false;
		return;
	}
	if (r->per_cpu)
		nr = stat_cpus(r, &cur, &cpus);
	if (!r->headed || nr != r->header_nr ||
	    (nr && memcmp(cpus, r->header_cpus, nr * sizeof(*cpus)))) {
		stat_header(r, cpus, nr, true);
		r->headed = true;
	}
	at = tpstat_seconds(&r->start, &cur.t);
	stat_rows(r, &r->last, &cur, tpstat_seconds(&r->last.t, &cur.t), cpus, nr,
		  &at);
	free(r->header_cpus);
	r->header_cpus = cpus;
	r->header_nr = nr;
	tpstat_free_sample(&r->last);
	r->last = cur;
}

/* Process @pid has exited (a zombie counts as exited), or is gone. */
static bool stat_pid_gone(pid_t pid)
{
	char path[32], buf[256], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	/* "pid (comm) S ...": the comm may hold anything, ')' too. */
	paren = strrchr(buf, ')');
	return !paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X';
}

/* Every one of -p's processes has exited. */
static bool stat_targets_gone(const struct stat_run *r)
{
	size_t i;

	for (i = 0; i < r->nr_targets; i++)
		if (!stat_pid_gone(r->targets[i]))
			return false;
	return true;
}

/*
 * -p or -a without CMD: scopes the instance to -p's processes, the first
 * written as the scope's pid, each other added to it with "+PID" (-a
 * leaves it every task's), and resets it. 0, or -1 after saying why not.
 */
static int stat_attach(struct stat_run *r)
{
	char pid[16];
	size_t i;
	int err;

	for (i = 0; i < r->nr_targets; i++) {
		snprintf(pid, sizeof(pid), "%s%d", i ? "+" : "", (int)r->targets[i]);
		err = stat_pid_gone(r->targets[i]) ? -ESRCH :
						     stat_write_pid(r, "scope", pid);
		if (err == -ESRCH) {
			tpstat_err("no process %d", (int)r->targets[i]);
			return -1;
		}
		if (err)
			return -1;
	}
	if (stat_write(r, "reset", "1") ||
	    (r->interval && tpstat_sample(r->path, &r->last, &r->warned)))
		return -1;
	r->ticking = r->interval > 0;
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	return 0;
}

/* How often -p looks whether its process has exited. */
#define STAT_TARGET_POLL_NS	100000000L

/*
 * -p or -a without CMD: ticks until a request to stop (which ends the
 * count, and is not died of), -d's seconds, or -p's process's exit.
 */
static void stat_watch(struct stat_run *r)
{
	struct timespec now, wait;
	double left;
	int sig;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = r->duration ? r->duration - tpstat_seconds(&r->start, &now) : 1;
		if (left <= 0 || (r->nr_targets && stat_targets_gone(r)))
			break;
		wait.tv_sec = (time_t)left;
		wait.tv_nsec = (left - (time_t)left) * 1e9;
		if (r->nr_targets && (wait.tv_sec || wait.tv_nsec > STAT_TARGET_POLL_NS)) {
			wait.tv_sec = 0;
			wait.tv_nsec = STAT_TARGET_POLL_NS;
		}
		sig = sigtimedwait(&r->wanted, NULL, &wait);
		if (sig == SIGALRM)
			stat_tick(r);
		else if (sig > 0 && sig != SIGCHLD)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &r->end);
}

/*
 * Until the child exits: ticks, and requests to stop, each passed on to
 * the child unless the kernel sent it (a terminal's ^C), which sends it to
 * the child too, in tpstat's process group.
 */
static void stat_wait(struct stat_run *r, int *status)
{
	siginfo_t info;
	int sig;

	while (!stat_reap(r, status, false)) {
		sig = sigwaitinfo(&r->wanted, &info);
		if (sig == SIGALRM) {
			stat_tick(r);
		} else if (sig > 0 && sig != SIGCHLD) {
			if (!r->stop)
				r->stop = sig;
			if (info.si_code <= 0)
				kill(r->child, sig);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &r->end);
}

/* The table: each event's count and rate over CMD's run. 0, or -1. */
static int stat_report(const struct stat_run *r, int status)
{
	struct tpstat_sample s;
	struct tpstat_buf cmd = { 0 };
	unsigned int warned = r->warned;
	double elapsed = tpstat_seconds(&r->start, &r->end);
	int *cpus = NULL;
	size_t i, nr = 0;

	if (tpstat_sample(r->path, &s, &warned))
		return -1;
	for (i = 0; r->cmd && r->cmd[i]; i++)
		tpstat_buf_printf(&cmd, "%s%s", i ? " " : "", r->cmd[i]);
	if (!r->sep && !r->json && !r->cmd) {
		if (r->nr_targets == 1) {
			fprintf(r->out, "\n tpstat stat of process %d and what it forked:\n\n",
				(int)r->targets[0]);
		} else if (r->nr_targets) {
			fprintf(r->out, "\n tpstat stat of processes");
			for (i = 0; i < r->nr_targets; i++)
				fprintf(r->out, "%s %d", i ? "," : "", (int)r->targets[i]);
			fprintf(r->out, " and what they forked:\n\n");
		} else {
			fprintf(r->out, "\n tpstat stat of every task:\n\n");
		}
	} else if (!r->sep && !r->json) {
		fprintf(r->out, "\n tpstat stat of %s'%s'%s", r->all ? "every task while " : "",
			cmd.s, r->all ? " ran" : "");
		if (WIFSIGNALED(status))
			fprintf(r->out, ", killed by signal %d (%s)", WTERMSIG(status),
				strsignal(WTERMSIG(status)));
		fprintf(r->out, ":\n\n");
	}
	if (r->per_cpu)
		nr = stat_cpus(r, &s, &cpus);
	stat_header(r, cpus, nr, false);
	stat_rows(r, NULL, &s, elapsed, cpus, nr, NULL);
	if (!r->sep && !r->json)
		fprintf(r->out, "\n%14.6f seconds elapsed\n\n", elapsed);
	free(cpus);
	tpstat_buf_free(&cmd);
	tpstat_free_sample(&s);
	return 0;
}

/*
 * -p's value, pids (> 0) separated by commas, into r->targets. 0, or the
 * usage error's status after saying it.
 */
static int stat_parse_pids(const char *cmd, const char *s, struct stat_run *r)
{
	const char *p = s;
	char *end;
	size_t i;
	long v;

	for (;;) {
		errno = 0;
		v = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : 0;
		if (errno || v <= 0 || v > 0x3fffffff || (*end && *end != ','))
			return tpstat_usage_error(cmd,
						  "-p takes process ids separated by commas, not '%s'",
						  s);
		for (i = 0; i < r->nr_targets; i++)
			if (r->targets[i] == v)
				return tpstat_usage_error(cmd, "-p names %ld twice", v);
		r->targets = tpstat_realloc(r->targets,
					    (r->nr_targets + 1) * sizeof(*r->targets));
		r->targets[r->nr_targets++] = v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* Dies of @sig, its default action, as asked; returns if that is not death. */
static void stat_die_of(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	raise(sig);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static int stat_run(struct stat_run *r)
{
	int ret, status = 0;

	stat_block_signals(r);
	if (stat_make_instance(r))
		return 1;
	if (!r->cmd) {
		ret = stat_count_events(r) || stat_attach(r) ? -1 : 0;
		if (!ret) {
			if (r->interval)
				stat_arm(r->interval);
			stat_watch(r);
			stat_arm(0);
			ret = stat_report(r, 0);
		}
		stat_remove_instance(r);
		fflush(r->out);
		return ret < 0 ? 1 : 0;
	}
	ret = stat_count_events(r) ? -1 : stat_start(r);
	if (!ret) {
		if (r->interval)
			stat_arm(r->interval);
		stat_wait(r, &status);
		stat_arm(0);
		if (stat_report(r, status))
			ret = -1;
		else if (WIFSIGNALED(status))
			ret = 128 + WTERMSIG(status);
		else
			ret = WEXITSTATUS(status);
	}
	stat_remove_instance(r);
	/* -o's counts are in the file before a signal ends tpstat. */
	fflush(r->out);
	if (r->stop)
		stat_die_of(r->stop);
	return ret < 0 ? 1 : ret;
}

int tpstat_stat(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "events", required_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, 'i' },
		{ "interval-ms", required_argument, NULL, 'I' },
		{ "per-cpu", no_argument, NULL, 'A' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	/* Not parsed until the options are, which may exit: nothing to free then. */
	const char *lists[STAT_LISTS_MAX], *output = NULL, *pids = NULL;
	struct stat_run r = { .out = stderr };
	size_t i, nr_lists = 0;
	double ms;
	int c, ret;

	/* "+": the options end at CMD, whose own options are its. */
	while ((c = tpstat_getopt(argc, argv, tpstat_stat_usage, "+:hAajd:e:i:I:o:p:x:",
				  longopts)) != -1) {
		switch (c) {
		case 'A':
			r.per_cpu = true;
			break;
		case 'e':
			if (nr_lists == STAT_LISTS_MAX)
				return tpstat_usage_error(argv[0],
							  "-e takes lists of tracepoints, up to %d of them",
							  STAT_LISTS_MAX);
			lists[nr_lists++] = optarg;
			break;
		case 'i':
			if (tpstat_parse_interval(argv[0], optarg, &r.interval))
				return TPSTAT_EXIT_USAGE;
			break;
		case 'I':
			if (!tpstat_parse_number(optarg, &ms) || ms < 10 || ms > 86400000)
				return tpstat_usage_error(argv[0],
							  "-I takes milliseconds from 10 to 86400000, not '%s'",
							  optarg);
			r.interval = ms / 1000;
			break;
		case 'j':
			r.json = true;
			break;
		case 'a':
			r.all = true;
			break;
		case 'd':
			if (!tpstat_parse_number(optarg, &r.duration) || r.duration < 0.01 ||
			    r.duration > 31536000)
				return tpstat_usage_error(argv[0],
							  "-d takes seconds from 0.01 to 31536000, not '%s'",
							  optarg);
			break;
		case 'p':
			pids = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'x':
			if (!*optarg || strchr(optarg, '\n'))
				return tpstat_usage_error(argv[0],
							  "-x takes a separator of one line, not '%s'",
							  optarg);
			r.sep = optarg;
			break;
		}
	}
	if (pids && r.all)
		return tpstat_usage_error(argv[0], "takes one of -p and -a");
	if (pids && optind < argc)
		return tpstat_usage_error(argv[0], "-p counts a running process, not a command");
	if (optind >= argc && !pids && !r.all)
		return tpstat_usage_error(argv[0], "needs a command to run, or -p or -a");
	if (r.duration && optind < argc)
		return tpstat_usage_error(argv[0], "-d ends -p's or -a's count, not a command's");
	if (optind < argc)
		r.cmd = argv + optind;
	if (r.sep && r.json)
		return tpstat_usage_error(argv[0], "takes one of -x and -j");
	ret = pids ? stat_parse_pids(argv[0], pids, &r) : 0;
	if (!ret)
		ret = stat_check_events(argv[0], lists, nr_lists);
	for (i = 0; !nr_lists && i < ARRAY_SIZE(stat_defaults); i++)
		stat_add_event(&r, NULL, stat_defaults[i], strlen(stat_defaults[i]), false);
	if (!ret && tpstat_check_root())
		ret = 1;
	if (!ret && !tpstat_exists("count/instances")) {
		tpstat_err("tpstat_count is not loaded (no %s/tpstat/count/instances): modprobe tpstat_count",
			   tpstat_debugfs());
		ret = 1;
	}
	if (!ret)
		ret = stat_parse_events(&r, lists, nr_lists);
	if (!ret && output) {
		/* Close-on-exec: CMD is not to hold it. */
		r.out = fopen(output, "we");
		if (!r.out) {
			tpstat_err("cannot write %s: %s", output, strerror(errno));
			ret = 1;
		}
	}
	if (!ret)
		ret = stat_run(&r);
	if (r.out && r.out != stderr && fclose(r.out) && !ret) {
		tpstat_err("cannot write %s: %s", output, strerror(errno));
		ret = 1;
	}
	stat_free(&r);
	return ret;
}
