// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoints the running kernel and its loaded modules have, named as
 * perf and bpftrace name them (subsystem:name), and the globs that pick
 * among them.
 *
 * tracefs has a directory per event under events/SUBSYSTEM/, but not every
 * event is a tracepoint: ftrace's own, the syscalls' (made from the
 * raw_syscalls tracepoints), kprobes' and the like are not, and a probe
 * cannot attach to them. /proc/kallsyms has a __tracepoint_NAME symbol per
 * tracepoint, the kernel's and its modules', without its subsystem: an
 * event is kept if kallsyms names it (when kallsyms names none, only
 * those of subsystems known not to be tracepoints are left out). A
 * tracepoint that has no event (DECLARE_TRACE(), as sched's pelt_cfs_tp)
 * is in kallsyms alone, and kept without a subsystem. Without tracefs,
 * kallsyms alone gives the names, whose subsystems are unknown.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tpstat.h"

#define TP_SYMBOL	"__tracepoint_"
/* A tracepoint's pointer, on architectures without relative relocations. */
#define TP_PTR_SYMBOL	"__tracepoint_ptr_"

/* Subsystems of tracefs whose events are not tracepoints. */
static const char *const not_tracepoints[] = {
	"ftrace", "syscalls", "kprobes", "uprobes", "synthetic", "eprobes",
	"user_events",
};

const char *tpstat_tracefs_events(void)
{
	static char path[4096];
	const char *dir = getenv("TPSTAT_TRACEFS");
	struct stat st;

	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/events", dir);
		return path;
	}
	if (!stat("/sys/kernel/tracing/events", &st))
		return "/sys/kernel/tracing/events";
	snprintf(path, sizeof(path), "%s/tracing/events", tpstat_debugfs());
	return path;
}

static const char *tpstat_kallsyms(void)
{
	const char *file = getenv("TPSTAT_KALLSYMS");

	return file && *file ? file : "/proc/kallsyms";
}

/* By subsystem, those without one last; then by name. */
static int tp_cmp(const void *a, const void *b)
{
	const struct tpstat_tracepoint *x = a, *y = b;
	int c;

	if (!x->subsys != !y->subsys)
		return x->subsys ? -1 : 1;
	c = x->subsys ? strcmp(x->subsys, y->subsys) : 0;
	return c ? c : strcmp(x->name, y->name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void tp_add(struct tpstat_tracepoints *t, const char *subsys,
		   const char *name)
{
	t->tp = tpstat_realloc(t->tp, (t->nr + 1) * sizeof(*t->tp));
	t->tp[t->nr].subsys = subsys ? tpstat_strdup(subsys) : NULL;
	t->tp[t->nr++].name = tpstat_strdup(name);
}

/* The names of kallsyms' __tracepoint_ symbols, sorted, each once. */
static size_t kallsyms_names(char ***names)
{
	char line[512], sym[256];
	size_t nr = 0, i, kept = 0;
	FILE *f;

	*names = NULL;
	f = fopen(tpstat_kallsyms(), "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %255s", sym) != 1 ||
		    strncmp(sym, TP_SYMBOL, strlen(TP_SYMBOL)) ||
		    !strncmp(sym, TP_PTR_SYMBOL, strlen(TP_PTR_SYMBOL)) ||
		    !sym[strlen(TP_SYMBOL)])
			continue;
		*names = tpstat_realloc(*names, (nr + 1) * sizeof(**names));
		(*names)[nr++] = tpstat_strdup(sym + strlen(TP_SYMBOL));
	}
	fclose(f);
	qsort(*names, nr, sizeof(**names), name_cmp);
	for (i = 0; i < nr; i++) {
		if (kept && !strcmp((*names)[kept - 1], (*names)[i]))
			free((*names)[i]);
		else
			(*names)[kept++] = (*names)[i];
	}
	return kept;
}

static bool is_dir(int dirfd, const struct dirent *d)
{
	struct stat st;

	if (d->d_name[0] == '.')
		return false;
	if (d->d_type != DT_UNKNOWN)
		return d->d_type == DT_DIR;
	return !fstatat(dirfd, d->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

/* An event is a tracepoint: kallsyms' name for it marked in @seen. */
static bool is_tracepoint(const char *subsys, const char *name,
			  char **names, size_t nr_names, bool *seen)
{
	char **found;
	size_t i;

	if (nr_names) {
		found = bsearch(&name, names, nr_names, sizeof(*names), name_cmp);
		if (found)
			seen[found - names] = true;
		return found;
	}
	for (i = 0; i < ARRAY_SIZE(not_tracepoints); i++)
		if (!strcmp(subsys, not_tracepoints[i]))
			return false;
	return true;
}

/* tracefs' events: 0, or a negative errno if its directory cannot be read. */
static int tracefs_read(struct tpstat_tracepoints *t, char **names, size_t nr_names,
			bool *seen)
{
	DIR *top, *sub;
	struct dirent *s, *e;
	int fd;

	top = opendir(tpstat_tracefs_events());
	if (!top)
		return -errno;
	while ((s = readdir(top))) {
		if (!is_dir(dirfd(top), s))
			continue;
		fd = openat(dirfd(top), s->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		sub = fd < 0 ? NULL : fdopendir(fd);
		if (!sub) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		while ((e = readdir(sub)))
			if (is_dir(dirfd(sub), e) &&
			    is_tracepoint(s->d_name, e->d_name, names, nr_names, seen))
				tp_add(t, s->d_name, e->d_name);
		closedir(sub);
	}
	closedir(top);
	return 0;
}

int tpstat_read_tracepoints(struct tpstat_tracepoints *t)
{
	size_t nr_names, i;
	char **names;
	bool *seen;
	int err;

	memset(t, 0, sizeof(*t));
	nr_names = kallsyms_names(&names);
	seen = tpstat_alloc(nr_names * sizeof(*seen));
	err = tracefs_read(t, names, nr_names, seen);
	for (i = 0; i < nr_names; i++)
		if (!seen[i])
			tp_add(t, NULL, names[i]);
	free(seen);
	if (!err) {
		t->has_subsys = true;
	} else if (nr_names) {
		tpstat_err("%s: %s: tracepoints from %s, whose subsystems it does not know",
			   tpstat_tracefs_events(), strerror(-err), tpstat_kallsyms());
	} else {
		tpstat_err("%s: %s, and %s names no tracepoint: mount -t tracefs nodev /sys/kernel/tracing",
			   tpstat_tracefs_events(), strerror(-err), tpstat_kallsyms());
	}
	for (i = 0; i < nr_names; i++)
		free(names[i]);
	free(names);
	if (err && !nr_names)
		return -1;
	qsort(t->tp, t->nr, sizeof(*t->tp), tp_cmp);
	return 0;
}

void tpstat_free_tracepoints(struct tpstat_tracepoints *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->tp[i].subsys);
		free(t->tp[i].name);
	}
	free(t->tp);
	memset(t, 0, sizeof(*t));
}

/* A part of an event's name: a C identifier, or a glob of one. */
static bool event_part_valid(const char *s, size_t n)
{
	size_t i;

	if (!n || n > TPSTAT_EVENT_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && (!s[i] || !strchr("_*?[]!-", s[i])))
			return false;
	return true;
}

bool tpstat_event_is_glob(const char *s, size_t n)
{
	return memchr(s, '*', n) || memchr(s, '?', n) || memchr(s, '[', n);
}

bool tpstat_event_valid(const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	const char *name = colon ? colon + 1 : s;
	size_t len = s + n - name;
	size_t i;

	if (colon && !event_part_valid(s, colon - s))
		return false;
	if (!event_part_valid(name, len))
		return false;
	if (tpstat_event_is_glob(s, n))
		return true;
	/* A plain name is a C identifier, as the count set's control file takes. */
	if (name[0] >= '0' && name[0] <= '9')
		return false;
	for (i = 0; i < len; i++)
		if (strchr("*?[]!-", name[i]))
			return false;
	return true;
}

bool tpstat_event_match(const struct tpstat_tracepoint *tp, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char sub[TPSTAT_EVENT_MAX + 1];

	if (!colon)
		return !fnmatch(spec, tp->name, 0);
	snprintf(sub, sizeof(sub), "%.*s", (int)(colon - spec), spec);
	/* Without tracefs a subsystem is unknown: only "*" matches it. */
	if (!tp->subsys)
		return !strcmp(sub, "*") && !fnmatch(colon + 1, tp->name, 0);
	return !fnmatch(sub, tp->subsys, 0) && !fnmatch(colon + 1, tp->name, 0);
}

const char *tpstat_event_hint(const struct tpstat_tracepoints *t, const char *spec)
{
	const char *colon = strchr(spec, ':');

	if (t->has_subsys || !colon || (colon == spec + 1 && *spec == '*'))
		return "";
	return " (without tracefs no subsystem is known: only *:NAME has one)";
}
