// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-write SEED ROUNDS DATA_FILE... -- TARGET_FILE...
 *
 * Throws bad input at writable files: random bytes, empty writes, 1 MiB,
 * huge and negative numbers, embedded NULs, then one byte per write. Every
 * write must be answered with an error or accepted. The DATA_FILEs (stats,
 * and the probes file, of which only the set, tracepoint and state columns
 * count: every set's enable shows there, and every name in control) hold
 * the state no write may move unless it was accepted and meant to;
 * "since_reset_ns" lines aside. The target's own set's data is compared
 * after every write, its lines of the probes file (slow to read on a debug
 * kernel) after each accepted one; every other set's data, before and
 * after all the target's writes: reading it all after each write made the
 * debug kernel's run grow with the square of the sets.
 *
 * A write that was refused must leave the data as it was. One that was
 * accepted must be a line its file takes (TARGET's name says which: enable,
 * reset, control or filter) and do what it says, which is checked and
 * undone: enable reads back the digit written, then the old state is
 * written back; control lists a name added, which is then removed again,
 * or stops listing a name removed, which is then added again (the stack
 * set's control takes "NAME by KEYS" and is undone by "!NAME"; the count
 * set's instances, a name, undone the same way); a filter
 * reads back the expression written, blanks around it aside ("none" for
 * an empty line or "0"), then the old one is written back. Then the data must be
 * as before, but for what cannot be undone: a reset, or a probe removed
 * and added again, whose counts start over. Each accepted write prints
 * "# accepted TARGET 'LINE'", and each set whose data it legitimately
 * changed "# reset SET_DIR", for the caller to check.
 *
 * Prints one TAP line per target and exits non-zero on the first breach.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (1024 * 1024)
#define NAME_MAX_LEN 127

static char **data;
static int nd;

/*
 * What a snapshot keeps: the data of the target's set alone, which its
 * writes may move, after each write; of every other set, before and after
 * all of them; or all of it.
 */
enum scope { SCOPE_ALL, SCOPE_TARGET, SCOPE_OTHERS };

/* The target's set: its directory, and its name in the probes file. */
static char target_dir[4096];
static const char *target_set;

static int is_probes(const char *path)
{
	return !strcmp(strrchr(path, '/') ?: path, "/probes");
}

static int in_scope(int in_target, enum scope scope)
{
	return scope == SCOPE_ALL || in_target == (scope == SCOPE_TARGET);
}

/* Appends what @path holds to @buf, as snapshot() keeps it. */
static size_t snapshot_file(char *buf, size_t len, size_t size, const char *path,
			    enum scope scope)
{
	int probes = is_probes(path);
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		return len;
	while (fgets(line, sizeof(line), f)) {
		char set[128], tp[160], state[32];
		size_t n;

		if (!strncmp(line, "since_reset_ns ", 15))
			continue;
		/* Hits and dropped of live sets move by themselves. */
		if (probes && sscanf(line, "%127s %159s %31s", set, tp, state) == 3) {
			if (!in_scope(!strcmp(set, target_set), scope))
				continue;
			snprintf(line, sizeof(line), "%s %s %s\n", set, tp, state);
		}
		n = strlen(line);
		if (len + n < size - 1) {
			memcpy(buf + len, line, n);
			len += n;
		}
	}
	fclose(f);
	return len;
}

/* The data files in @scope, and with @all the probes file too. */
static char *snapshot(int all, enum scope scope)
{
	static char buf[BIG];
	size_t len = 0, dir = strlen(target_dir);
	int i;

	for (i = 0; i < nd; i++) {
		int mine = !strncmp(data[i], target_dir, dir) && data[i][dir] == '/';

		if (is_probes(data[i]) ? all : in_scope(mine, scope))
			len = snapshot_file(buf, len, sizeof(buf), data[i], scope);
	}
	buf[len] = '\0';
	return strdup(buf);
}

/* Fills @buf with one kind of bad input; returns its length. */
static size_t make_input(char *buf, int kind)
{
	static const char *const words[] = {
		"18446744073709551616", "-1", "-9223372036854775808",
		"99999999999999999999999", "0x1", "1e3", " 1", "1 ", "+1",
		"\n", "\n\n", "1\n1", "!", "!!", "a b", "\t", "\x7f", "\xff",
		/* Filters, good and bad: the others refuse them all. */
		"cpu == 0", " comm == sh* || !(cpu > 1) ", "len >", "dev == \"lo",
		"((((((((((((((((((cpu==1))))))))))))))))))", "0", "cpu<1||",
	};
	size_t len, i;

	switch (kind) {
	case 0:	/* random bytes, short */
		len = rand() % 16;
		break;
	case 1:	/* random bytes, around the write limit */
		len = 240 + rand() % 40;
		break;
	case 2:	/* a word that looks almost right */
		i = rand() % (sizeof(words) / sizeof(*words));
		len = strlen(words[i]);
		memcpy(buf, words[i], len);
		return len;
	case 3:	/* a digit, a NUL, more */
		buf[0] = '0' + rand() % 2;
		buf[1] = '\0';
		buf[2] = '0' + rand() % 10;
		return 3;
	default: /* 1 MiB */
		memset(buf, '1', BIG);
		return BIG;
	}
	for (i = 0; i < len; i++)
		buf[i] = rand();
	return len;
}

/* One write() on a fresh open: 0 or -errno. */
static int write_once(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int write_str(const char *path, const char *s)
{
	return write_once(path, s, strlen(s));
}

/* What @path holds, whole. */
static char *read_file(const char *path)
{
	static char buf[BIG];
	int fd = open(path, O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return strdup("");
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return strdup(buf);
}

/* Whether @list, a file's lines, has @name as one of them. */
static int lists(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static int is_name(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		      (i && c >= '0' && c <= '9')))
			return 0;
	}
	return i && i <= NAME_MAX_LEN;
}

/* The target's directory, the set it belongs to. */
static const char *set_of(const char *target)
{
	static char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", target);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

/* @buf escaped for one line of output: printable ASCII, else \ooo. */
static const char *escaped(const char *buf, size_t len)
{
	static char out[4 * 300 + 1];
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < sizeof(out); i++) {
		unsigned char c = buf[i];

		if (c >= ' ' && c < 127 && c != '\\' && c != '\'')
			out[o++] = c;
		else
			o += sprintf(out + o, "\\%03o", c);
	}
	out[o] = '\0';
	return out;
}

/* The stack set's control, whose lines are "NAME by KEY[,KEY...]". */
static int is_stack_control(const char *target)
{
	const char *set = set_of(target), *slash = strrchr(set, '/');

	return !strcmp(slash ? slash + 1 : set, "stack");
}

/*
 * An entry added to the stack set's control: "NAME by KEYS" with NAME a
 * name, read back as a line beginning "NAME by ", then removed.
 */
static int stack_entry_taken(const char *target, const char *line)
{
	char name[NAME_MAX_LEN + 2], want[NAME_MAX_LEN + 8], *after;
	int ok;

	ok = sscanf(line, " %128s by ", name) == 1 && is_name(name) &&
	     strstr(line, " by ");
	after = read_file(target);
	snprintf(want, sizeof(want), "%s by ", name);
	ok = ok && !strncmp(after, want, strlen(want));
	free(after);
	snprintf(want, sizeof(want), "!%s", name);
	ok = ok && !write_str(target, want);
	after = read_file(target);
	ok = ok && !*after;
	free(after);
	if (!ok)
		printf("not ok - fuzz %s: '%s' accepted, but not an entry added and removed\n",
		       target, escaped(line, strlen(line)));
	return ok ? 0 : -1;
}

/*
 * A filter taken: it reads back as @line without the blanks around it, or
 * "none" if that leaves nothing or "0"; then @was goes back in force.
 */
static int filter_taken(const char *target, const char *was, const char *line)
{
	size_t len = strlen(line);
	char want[300], *after, *old;
	int ok;

	while (isspace((unsigned char)*line)) {
		line++;
		len--;
	}
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (!len || (len == 1 && line[0] == '0'))
		snprintf(want, sizeof(want), "none\n");
	else
		snprintf(want, sizeof(want), "%.*s\n", (int)len, line);
	after = read_file(target);
	ok = !strcmp(after, want);
	free(after);
	old = strdup(was);
	old[strcspn(old, "\n")] = '\0';
	ok = ok && !write_str(target, strcmp(old, "none") ? old : "0");
	free(old);
	after = read_file(target);
	ok = ok && !strcmp(after, was);
	free(after);
	if (!ok)
		printf("not ok - fuzz %s: '%s' accepted, but not done and undone\n",
		       target, escaped(line, strlen(line)));
	return ok ? 0 : -1;
}

/*
 * An accepted write of @buf to @target, which read @was before: checks
 * that it is a line the file takes and did what it says, and undoes it.
 * Returns 1 if the data may have changed for good (a reset), 0 if it must
 * be as before, -1 on a breach, printed.
 */
static int check_taken(const char *target, const char *was, const char *buf,
		       size_t len)
{
	const char *file = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char line[300], path[4200], *before, *after;
	int moved = 0, ok = 1;

	printf("# accepted %s '%s'\n", target, escaped(buf, len));
	/* One line: no NUL, at most one newline, at its end; a filter's may be empty. */
	if (len && buf[len - 1] == '\n')
		len--;
	if ((!len && strcmp(file, "filter")) || len >= sizeof(line) ||
	    memchr(buf, '\0', len) || memchr(buf, '\n', len)) {
		printf("not ok - fuzz %s: accepted what is not one line\n", target);
		return -1;
	}
	memcpy(line, buf, len);
	line[len] = '\0';

	if (!strcmp(file, "filter"))
		return filter_taken(target, was, line);
	if (!strcmp(file, "control") && is_stack_control(target))
		return stack_entry_taken(target, line);

	if (!strcmp(file, "enable")) {
		if (strcmp(line, "0") && strcmp(line, "1")) {
			printf("not ok - fuzz %s: accepted '%s', not 0 or 1\n", target,
			       escaped(line, len));
			return -1;
		}
		after = read_file(target);
		ok = after[0] == line[0] && !strcmp(after + 1, "\n");
		free(after);
		/* The old state back, as a one-line write. */
		snprintf(path, sizeof(path), "%c", was[0]);
		ok = ok && !write_str(target, path);
		after = read_file(target);
		ok = ok && !strcmp(after, was);
		free(after);
		if (!ok) {
			printf("not ok - fuzz %s: '%s' accepted, but not done and undone\n",
			       target, line);
			return -1;
		}
		return 0;
	}
	if (!strcmp(file, "reset")) {
		if (strcmp(line, "1")) {
			printf("not ok - fuzz %s: accepted '%s', not 1\n", target,
			       escaped(line, len));
			return -1;
		}
		printf("# reset %s\n", set_of(target));
		return 1;
	}
	if (strcmp(file, "control") && strcmp(file, "instances")) {
		printf("not ok - fuzz %s: accepted a write, and no such file should\n",
		       target);
		return -1;
	}
	if (!is_name(line[0] == '!' ? line + 1 : line)) {
		printf("not ok - fuzz %s: accepted '%s', not a name or !name\n",
		       target, escaped(line, len));
		return -1;
	}
	after = read_file(target);
	if (line[0] == '!') {
		/* A name counted, removed: its counts start over when added back. */
		ok = !lists(after, line + 1) && !write_str(target, line + 1);
		moved = 1;
		printf("# reset %s\n", set_of(target));
	} else {
		snprintf(path, sizeof(path), "!%s", line);
		ok = lists(after, line) && !write_str(target, path);
	}
	free(after);
	before = read_file(target);
	if (!ok || lists(before, line[0] == '!' ? line + 1 : line) != (line[0] == '!')) {
		printf("not ok - fuzz %s: '%s' accepted, but not done and undone\n",
		       target, line);
		moved = -1;
	}
	free(before);
	return moved;
}

/*
 * One byte per write(), as a slow writer sends a line, on one open file:
 * each byte is a line of its own. Writes @s so, and checks what each write
 * got against @want ("0" refused, "1" accepted, per byte).
 */
static int bytewise(const char *target, const char *s, const char *want)
{
	int fd = open(target, O_WRONLY);
	size_t i;
	int ok = fd >= 0;

	for (i = 0; ok && s[i]; i++)
		ok = (write(fd, s + i, 1) == 1) == (want[i] == '1');
	if (fd >= 0)
		close(fd);
	if (!ok)
		printf("not ok - fuzz %s: '%s' one byte per write: byte %zu answered wrong\n",
		       target, escaped(s, strlen(s)), i);
	return ok;
}

/*
 * The one-byte writes of each kind of file, leaving it as it was: enable
 * flipped and back (the digit taken, the newline after it refused), a
 * name added to control and removed, a filter lifted by "0" and by the
 * empty line after it and put back, nothing a reset takes.
 */
static int bytewise_all(const char *target)
{
	const char *file = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char *was, *now;
	int ok = 1;

	if (!strcmp(file, "enable")) {
		was = read_file(target);
		ok = bytewise(target, was[0] == '1' ? "0\n" : "1\n", "10");
		now = read_file(target);
		ok = ok && now[0] != was[0];
		free(now);
		ok = ok && bytewise(target, was[0] == '1' ? "1\n" : "0\n", "10");
		now = read_file(target);
		ok = ok && !strcmp(now, was);
		free(now);
		free(was);
	} else if (!strcmp(file, "control") && is_stack_control(target)) {
		ok = bytewise(target, "z\n", "00");
	} else if (!strcmp(file, "control") || !strcmp(file, "instances")) {
		ok = bytewise(target, "z\n", "10");
		now = read_file(target);
		ok = ok && lists(now, "z") && !write_str(target, "!z");
		free(now);
	} else if (!strcmp(file, "filter")) {
		was = read_file(target);
		ok = bytewise(target, "0\n", "11");
		now = read_file(target);
		ok = ok && !strcmp(now, "none\n");
		free(now);
		ok = ok && !filter_taken(target, was, "0");
		free(was);
	} else {
		ok = bytewise(target, "0\n", "00");
	}
	if (!ok)
		printf("not ok - fuzz %s: one byte per write did not do and undo what it said\n",
		       target);
	return ok;
}

int main(int argc, char **argv)
{
	char **targets, *buf = malloc(BIG + 1);
	int rounds, nt = 0, i, t;

	if (argc < 5 || !buf) {
		fprintf(stderr, "usage: fuzz-write SEED ROUNDS DATA... -- TARGET...\n");
		return 2;
	}
	srand(atoi(argv[1]));
	rounds = atoi(argv[2]);
	data = argv + 3;
	while (3 + nd < argc && strcmp(data[nd], "--"))
		nd++;
	targets = data + nd + 1;
	nt = argc - 4 - nd;

	for (t = 0; t < nt; t++) {
		/* What an enable taken is undone to: each is, so it holds. */
		char *was = read_file(targets[t]);
		char *state, *before, *after, *others;
		int taken = 0, rejected = 0;

		/* The set as the probes file names it: its path under tpstat/. */
		snprintf(target_dir, sizeof(target_dir), "%s", set_of(targets[t]));
		target_set = strstr(target_dir, "/tpstat/");
		target_set = target_set ? target_set + 8 : target_dir;
		state = snapshot(1, SCOPE_TARGET);
		before = snapshot(0, SCOPE_TARGET);
		others = snapshot(1, SCOPE_OTHERS);
		for (i = 0; i < rounds; i++) {
			size_t len = make_input(buf, i % 8 == 7 ? 4 : i % 4);
			int err = write_once(targets[t], buf, len), moved = 0;

			if (!err)
				moved = check_taken(targets[t], was, buf, len);
			if (moved < 0)
				return 1;
			after = snapshot(!err, SCOPE_TARGET);
			if (!moved && strcmp(err ? before : state, after)) {
				printf("not ok - fuzz %s: a %s write moved the data (%d bytes)\n",
				       targets[t], err ? "refused" : "taken and undone",
				       (int)len);
				return 1;
			}
			if (err) {
				rejected++;
			} else {
				taken++;
				free(state);
				state = after;
				after = snapshot(0, SCOPE_TARGET);
			}
			free(before);
			before = after;
		}
		if (!bytewise_all(targets[t]))
			return 1;
		after = snapshot(1, SCOPE_TARGET);
		if (strcmp(state, after)) {
			printf("not ok - fuzz %s: its writes, one byte ones too, moved the data\n",
			       targets[t]);
			return 1;
		}
		free(after);
		after = snapshot(1, SCOPE_OTHERS);
		if (strcmp(others, after)) {
			printf("not ok - fuzz %s: its writes moved another set's data\n",
			       targets[t]);
			return 1;
		}
		free(others);
		printf("ok - fuzz %s: %d writes (%d taken, each checked, %d refused)%s\n",
		       targets[t], rounds, taken, rejected,
		       ", then one byte per write, data kept");
		free(was);
		free(state);
		free(before);
		free(after);
	}
	return 0;
}
