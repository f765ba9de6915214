// SPDX-License-Identifier: GPL-2.0
/*
 * The filter parser and compiler (core/filter_parse.c), built on the host
 * with AddressSanitizer, LeakSanitizer and UBSan, and fuzzed:
 *
 * - expressions with known verdicts and known errors;
 * - random expressions generated from a tree this file keeps, printed with
 *   random spacing, quoting and number bases: each one the parser accepts
 *   is run on random events and must agree with the tree evaluated here,
 *   by code that shares nothing with the compiler; each one it refuses
 *   must break a bound (terms, depth, length);
 * - the same expressions mutated byte by byte, every token inserted at
 *   every position, nesting far past the limit, a 1 MiB line: never a
 *   crash, a leak, a jump backwards or out of the program, or a slot the
 *   set did not declare;
 * - every allocation failing in turn: -ENOMEM, nothing leaked.
 *
 * Prints TAP lines; exits non-zero if any failed.
 *
 *   filter-fuzz [ROUNDS] [SEED]
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <tpstat/filter_prog.h>

#include "rng.h"

long host_allocs_live;
long host_alloc_fail_in;

enum { S_LEN, S_IFINDEX, S_DEV, S_DEV_HI, S_CPU, S_COMM, S_COMM_HI, SLOTS };

static const struct tpstat_field fields[] = {
	TPSTAT_FIELD_NUMBER("len", S_LEN),
	TPSTAT_FIELD_NUMBER("ifindex", S_IFINDEX),
	TPSTAT_FIELD_NAME("dev", S_DEV),
	TPSTAT_FIELD_NUMBER("cpu", S_CPU),
	TPSTAT_FIELD_NAME("comm", S_COMM),
};

#define NR_FIELDS	ARRAY_SIZE(fields)

static int failures;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok - filter-fuzz: ", ok ? "" : "not ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		failures++;
}

static u64 rng_state;

static u64 rnd(void)
{
	return rng_next(&rng_state);
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

/* An event: what the fields hold. */
struct event {
	u64 num[NR_FIELDS];	/* number fields, by field index */
	char name[NR_FIELDS][16];	/* name fields: NUL-terminated */
};

/*
 * The slots a probe would hand the filter. Bytes after a name's NUL hold
 * garbage, as a renamed interface's may: the filter must not look there.
 */
static void event_slots(const struct event *e, u64 *v)
{
	unsigned int i;

	for (i = 0; i < NR_FIELDS; i++) {
		const struct tpstat_field *f = &fields[i];

		if (f->type == TPSTAT_FIELD_NUMBER) {
			v[f->slot] = e->num[i];
		} else {
			unsigned char bytes[16];
			size_t n = strlen(e->name[i]), b;

			for (b = 0; b < 16; b++)
				bytes[b] = rnd();
			memcpy(bytes, e->name[i], n + 1);
			memcpy(&v[f->slot], bytes, 16);
		}
	}
}

/* The expression tree this file generates and evaluates itself. */
enum { T_LEAF, T_AND, T_OR, T_NOT, T_PAREN };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
static const char *const op_text[] = { "==", "!=", "<", "<=", ">", ">=" };

struct tree {
	int kind;
	struct tree *a, *b;
	unsigned int field;
	int op;
	u64 num;
	char name[16];
	int prefix;
};

static const u64 num_pool[] = {
	0, 1, 2, 99, 100, 101, 127, 128, 129, 1500, 4095, 65535,
	UINT64_MAX - 1, UINT64_MAX,
};

static const char *const name_pool[] = {
	"", "lo", "l", "eth", "eth0", "eth01", "veth-a.1", "abcdefg",
	"abcdefgh", "abcdefghi", "abcdefghijklmno", "a b", "x|y", "kworker/0:1",
};

#define POOL(p)	(sizeof(p) / sizeof((p)[0]))

static u64 pool_number(void)
{
	u64 k = num_pool[pick(POOL(num_pool))];

	switch (pick(4)) {
	case 0:
		return k + 1;
	case 1:
		return k - 1;
	case 2:
		return pick(8) ? k : rnd();
	default:
		return k;
	}
}

static void pool_name(char *out)
{
	const char *s = name_pool[pick(POOL(name_pool))];
	size_t n = strlen(s);

	memcpy(out, s, n + 1);
	switch (pick(4)) {
	case 0:
		if (n < 15) {
			out[n] = 'a' + pick(3);
			out[n + 1] = '\0';
		}
		break;
	case 1:
		if (n)
			out[n - 1] = '\0';
		break;
	}
}

static struct tree *tree_new(int kind)
{
	struct tree *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->kind = kind;
	return t;
}

static void tree_free(struct tree *t)
{
	if (!t)
		return;
	tree_free(t->a);
	tree_free(t->b);
	free(t);
}

static struct tree *gen(int budget)
{
	struct tree *t;

	if (budget <= 0 || pick(3) == 0) {
		t = tree_new(T_LEAF);
		t->field = pick(NR_FIELDS);
		if (fields[t->field].type == TPSTAT_FIELD_NUMBER) {
			t->op = pick(6);
			t->num = pool_number();
		} else {
			t->op = pick(2);
			pool_name(t->name);
			t->prefix = !pick(4);
		}
		return t;
	}
	t = tree_new(T_AND + pick(4));
	t->a = gen(budget - 1 - pick(3));
	if (t->kind == T_AND || t->kind == T_OR)
		t->b = gen(budget - 1 - pick(3));
	return t;
}

static int leaf_holds(const struct tree *t, const struct event *e)
{
	if (fields[t->field].type == TPSTAT_FIELD_NAME) {
		const char *have = e->name[t->field];
		int eq = t->prefix ? !strncmp(have, t->name, strlen(t->name)) :
				     !strcmp(have, t->name);

		return t->op == OP_EQ ? eq : !eq;
	}
	switch (t->op) {
	case OP_EQ: return e->num[t->field] == t->num;
	case OP_NE: return e->num[t->field] != t->num;
	case OP_LT: return e->num[t->field] < t->num;
	case OP_LE: return e->num[t->field] <= t->num;
	case OP_GT: return e->num[t->field] > t->num;
	default: return e->num[t->field] >= t->num;
	}
}

static int eval(const struct tree *t, const struct event *e)
{
	switch (t->kind) {
	case T_LEAF: return leaf_holds(t, e);
	case T_AND: return eval(t->a, e) && eval(t->b, e);
	case T_OR: return eval(t->a, e) || eval(t->b, e);
	case T_NOT: return !eval(t->a, e);
	default: return eval(t->a, e);
	}
}

/* Tests a tree needs before any merge: a long name takes two. */
static unsigned int tree_tests(const struct tree *t)
{
	size_t cmp;

	if (t->kind != T_LEAF)
		return tree_tests(t->a) + (t->b ? tree_tests(t->b) : 0);
	if (fields[t->field].type == TPSTAT_FIELD_NUMBER)
		return 1;
	cmp = strlen(t->name) + !t->prefix;
	return cmp > 8 ? 2 : 1;
}

struct text {
	char *buf;
	size_t len, size;
};

static void put(struct text *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < s->size - s->len)
			break;
		s->size = s->size * 2 + n + 16;
		s->buf = realloc(s->buf, s->size);
		if (!s->buf)
			abort();
	}
	s->len += n;
}

static void blank(struct text *s)
{
	static const char *const blanks[] = { "", "", " ", "  ", "\t" };

	put(s, "%s", blanks[pick(POOL(blanks))]);
}

static int bare_name(const char *name)
{
	const char *c;

	if (!*name)
		return 0;
	for (c = name; *c; c++)
		if (*c <= ' ' || strchr("()!&|=<>\"", *c))
			return 0;
	return 1;
}

/*
 * Prints @t so that the parser reads it back as it is: an operand of
 * "&&" that is an "||" gets parentheses, and so does an "&&" or "||"
 * under a "!".
 */
static void print(struct text *s, const struct tree *t, int parent)
{
	int wrap;

	switch (t->kind) {
	case T_LEAF:
		put(s, "%s", fields[t->field].name);
		blank(s);
		put(s, "%s", op_text[t->op]);
		blank(s);
		if (fields[t->field].type == TPSTAT_FIELD_NAME) {
			if (bare_name(t->name) && pick(2))
				put(s, "%s%s", t->name, t->prefix ? "*" : "");
			else
				put(s, "\"%s%s\"", t->name, t->prefix ? "*" : "");
		} else if (pick(3)) {
			put(s, "%llu", (unsigned long long)t->num);
		} else {
			put(s, pick(2) ? "0x%llx" : "0X%llX", (unsigned long long)t->num);
		}
		return;
	case T_NOT:
		put(s, "!");
		blank(s);
		print(s, t->a, T_NOT);
		return;
	case T_PAREN:
		put(s, "(");
		blank(s);
		print(s, t->a, T_PAREN);
		blank(s);
		put(s, ")");
		return;
	}
	wrap = parent == T_NOT || (parent == T_AND && t->kind == T_OR);
	if (wrap)
		put(s, "(");
	print(s, t->a, t->kind);
	blank(s);
	put(s, t->kind == T_AND ? "&&" : "||");
	blank(s);
	/* Right operands nest: a && (b && c) is printed with parentheses. */
	print(s, t->b, t->kind == T_AND ? T_AND : T_NOT);
	if (wrap)
		put(s, ")");
}

/* How deep "!" and parentheses nest as print() writes @t. */
static unsigned int printed_depth(const struct tree *t, int parent)
{
	unsigned int a, b = 0;
	int wrap;

	switch (t->kind) {
	case T_LEAF:
		return 0;
	case T_NOT:
		return 1 + printed_depth(t->a, T_NOT);
	case T_PAREN:
		return 1 + printed_depth(t->a, T_PAREN);
	}
	wrap = parent == T_NOT || (parent == T_AND && t->kind == T_OR);
	a = printed_depth(t->a, t->kind);
	b = printed_depth(t->b, t->kind == T_AND ? T_AND : T_NOT);
	return (a > b ? a : b) + wrap;
}

/* Checks a program's shape; returns a complaint, or NULL. */
static const char *prog_shape(const struct tpstat_filter_prog *p)
{
	unsigned int i;

	if (!p->nr || p->nr > TPSTAT_FILTER_MAX_TESTS)
		return "test count out of bounds";
	for (i = 0; i < p->nr; i++) {
		const struct tpstat_filter_test *t = &p->tests[i];

		if (t->slot >= SLOTS)
			return "a slot no field declared";
		if (!(p->uses & 1ULL << t->slot))
			return "a slot read but not in the program's uses";
		if ((t->pass < TPSTAT_FILTER_ACCEPT && (t->pass <= i || t->pass >= p->nr)) ||
		    (t->fail < TPSTAT_FILTER_ACCEPT && (t->fail <= i || t->fail >= p->nr)))
			return "a jump backwards or out of the program";
	}
	return NULL;
}

static int compile(const char *s, size_t len, struct tpstat_filter_prog **p,
		   struct tpstat_filter_error *e)
{
	long live = host_allocs_live;
	int err = tpstat_filter_compile(s, len, fields, NR_FIELDS, p, e);

	/* Nothing but the program outlives the call. */
	if (host_allocs_live != live + !!*p) {
		tap(0, "allocations leaked compiling '%.*s'", (int)len, s);
		exit(1);
	}
	return err;
}

static void random_event(struct event *e)
{
	unsigned int i;

	for (i = 0; i < NR_FIELDS; i++) {
		e->num[i] = pool_number();
		pool_name(e->name[i]);
	}
}

/* Runs @p on random events; nonzero if it ever disagrees with @t. */
static int disagrees(const struct tpstat_filter_prog *p, const struct tree *t,
		     int events)
{
	u64 v[SLOTS];
	struct event e;

	while (events--) {
		random_event(&e);
		event_slots(&e, v);
		if (tpstat_filter_prog_run(p, v) != eval(t, &e))
			return 1;
	}
	return 0;
}

static int bound_error(const char *what)
{
	return !strcmp(what, "too many terms") || !strcmp(what, "nested too deep") ||
	       !strcmp(what, "expression longer than 256 bytes");
}

/* Known expressions: their verdict on events, or their error. */
struct known {
	const char *text;
	const char *error;	/* NULL if valid */
	unsigned int column;	/* of the error, from 1 */
	unsigned int tests;	/* tests compiled, if valid */
	u64 len;		/* an event's len and dev, and the verdict */
	const char *dev;
	int verdict;
};

#define OK(s, n, l, d, v) \
	{ .text = (s), .tests = (n), .len = (l), .dev = (d), .verdict = (v) }
#define ERR(s, e, c)	{ .text = (s), .error = (e), .column = (c) }

static const struct known known[] = {
	OK("len > 128", 1, 128, "lo", 0),
	OK("len > 128", 1, 129, "lo", 1),
	OK("len>128&&dev==lo", 2, 129, "lo", 1),
	OK("len > 128 && dev == lo", 2, 129, "lo0", 0),
	OK("dev == lo", 1, 0, "l", 0),
	OK("dev == eth*", 1, 0, "eth", 1),
	OK("dev == eth*", 1, 0, "et", 0),
	OK("dev != eth*", 1, 0, "eth7", 0),
	OK("dev == *", 1, 0, "", 1),
	OK("dev == \"\"", 1, 0, "", 1),
	OK("dev == abcdefghijklmno", 2, 0, "abcdefghijklmno", 1),
	OK("dev == abcdefghijklmno", 2, 0, "abcdefghijklmnX", 0),
	OK("dev == abcdefgh", 2, 0, "abcdefgh", 1),
	OK("dev == abcdefgh*", 1, 0, "abcdefghij", 1),
	OK("dev == \"a b\"", 1, 0, "a b", 1),
	OK("len > 100 && len < 5000 && dev == lo", 2, 1500, "lo", 1),
	OK("dev == lo && len > 100 && len < 5000", 2, 5000, "lo", 0),
	OK("len > 5000 && len < 100", 1, 3000, "lo", 0),
	OK("len < 0", 1, 0, "lo", 0),
	OK("len >= 0", 1, 0, "lo", 1),
	OK("len > 18446744073709551615", 1, UINT64_MAX, "lo", 0),
	OK("len == 0x10", 1, 16, "lo", 1),
	OK("len == 0XfF", 1, 255, "lo", 1),
	OK("len == 010", 1, 10, "lo", 1),
	OK("!(len > 5) || dev == lo", 2, 9, "lo", 1),
	OK("!(len > 5) || dev == lo", 2, 9, "eth0", 0),
	OK("!!len == 3", 1, 3, "", 1),
	OK("len != 3 && len != 4", 2, 4, "", 0),
	ERR("", "expected a field name", 1),
	ERR("lenn > 1", "unknown field", 1),
	ERR("len", "expected ==, !=, <, <=, > or >=", 4),
	ERR("len >", "expected a value", 6),
	ERR("len > 1 &&", "expected a field name", 11),
	ERR("(len > 1", "expected )", 9),
	ERR("len > 1)", "unmatched )", 8),
	ERR("len > 1 dev == lo", "expected && or ||", 9),
	ERR("len == abc", "expected a number", 8),
	ERR("len == -1", "expected a number", 8),
	ERR("len == 0x", "expected a number", 8),
	ERR("len > 18446744073709551616", "number too large", 7),
	ERR("dev < lo", "a name compares only with == or !=", 7),
	ERR("dev == lo*x", "'*' may only end a name", 8),
	ERR("dev == abcdefghijklmnop", "a name has at most 15 bytes", 8),
	ERR("dev == \"ab", "unterminated quote", 8),
	ERR("len \x01 1", "unexpected character", 5),
	ERR("len == 1 & cpu == 1", "unexpected character", 10),
	ERR("len == \"1\"", "expected a number", 8),
};

static void known_expressions(void)
{
	struct tpstat_filter_prog *p;
	struct tpstat_filter_error e;
	u64 v[SLOTS] = { 0 };
	unsigned int i, bad = 0;
	struct event ev = { 0 };

	for (i = 0; i < POOL(known); i++) {
		const struct known *k = &known[i];
		int err = compile(k->text, strlen(k->text), &p, &e);

		if (k->error) {
			if (err != -EINVAL || strcmp(e.what, k->error) ||
			    e.pos + 1 != k->column) {
				printf("# '%s': got %d '%s' at %u, want '%s' at %u\n",
				       k->text, err, err ? e.what : "", err ? e.pos + 1 : 0,
				       k->error, k->column);
				bad++;
			}
			continue;
		}
		if (err) {
			printf("# '%s': refused: %s at %u\n", k->text, e.what, e.pos + 1);
			bad++;
			continue;
		}
		ev.num[0] = k->len;
		snprintf(ev.name[2], sizeof(ev.name[2]), "%s", k->dev);
		event_slots(&ev, v);
		if (p->nr != k->tests || tpstat_filter_prog_run(p, v) != k->verdict ||
		    strcmp(p->text, k->text)) {
			printf("# '%s': %u tests, verdict %d on len %llu dev '%s', text '%s'\n",
			       k->text, p->nr, tpstat_filter_prog_run(p, v),
			       (unsigned long long)k->len, k->dev, p->text);
			bad++;
		}
		kfree(p);
	}
	tap(!bad, "%zu known expressions: %s (%u wrong)", POOL(known),
	    "verdicts, merged ranges, errors and their columns", bad);
}

static void random_expressions(int rounds)
{
	struct text s = { 0 };
	unsigned int accepted = 0, refused = 0, wrong = 0;
	int i;

	for (i = 0; i < rounds; i++) {
		struct tree *t = gen(2 + pick(10));
		struct tpstat_filter_prog *p;
		struct tpstat_filter_error e;
		unsigned int depth, tests;
		const char *shape;
		int err;

		s.len = 0;
		print(&s, t, T_PAREN);
		depth = printed_depth(t, T_PAREN);
		tests = tree_tests(t);
		err = compile(s.buf, s.len, &p, &e);
		if (err) {
			refused++;
			if (err != -EINVAL || !bound_error(e.what) ||
			    (tests <= TPSTAT_FILTER_MAX_TESTS &&
			     depth <= TPSTAT_FILTER_MAX_DEPTH &&
			     s.len <= TPSTAT_FILTER_TEXT_MAX)) {
				if (wrong++ < 5)
					printf("# refused '%s': %s at %u (tests %u, depth %u)\n",
					       s.buf, err == -EINVAL ? e.what : "ENOMEM",
					       e.pos + 1, tests, depth);
			}
		} else {
			accepted++;
			shape = prog_shape(p);
			if (shape || p->nr > tests || disagrees(p, t, 64)) {
				if (wrong++ < 5)
					printf("# '%s': %s\n", s.buf,
					       shape ?: "disagrees with the tree");
			}
			kfree(p);
		}
		tree_free(t);
	}
	free(s.buf);
	tap(!wrong && accepted > refused,
	    "%d random expressions: %u accepted, each agreeing with its tree on 64 events; %u refused, each past a bound (%u wrong)",
	    rounds, accepted, refused, wrong);
}

/* Compiles anything; a program must be well formed and run on events. */
static int survives(const char *s, size_t len)
{
	struct tpstat_filter_prog *p;
	struct tpstat_filter_error e;
	u64 v[SLOTS];
	struct event ev;
	int err = compile(s, len, &p, &e);

	if (err)
		return err == -EINVAL && e.what && e.pos <= len && e.pos + e.len <= len;
	if (prog_shape(p)) {
		kfree(p);
		return 0;
	}
	random_event(&ev);
	event_slots(&ev, v);
	tpstat_filter_prog_run(p, v);
	kfree(p);
	return 1;
}

static void mutations(int rounds)
{
	static const char alphabet[] = "()!&|=<>\"* \t0x19azlendvcpu_";
	struct text s = { 0 };
	unsigned int bad = 0;
	int i, m;

	for (i = 0; i < rounds; i++) {
		struct tree *t = gen(pick(8));

		s.len = 0;
		print(&s, t, T_PAREN);
		tree_free(t);
		for (m = 1 + pick(4); m > 0 && s.len; m--) {
			size_t at = pick(s.len);
			char c = pick(4) ? alphabet[pick(sizeof(alphabet) - 1)] : (char)rnd();

			switch (pick(3)) {
			case 0:		/* replace */
				s.buf[at] = c;
				break;
			case 1:		/* delete */
				memmove(s.buf + at, s.buf + at + 1, s.len - at);
				s.len--;
				break;
			default:	/* insert */
				put(&s, "x");
				memmove(s.buf + at + 1, s.buf + at, s.len - at - 1);
				s.buf[at] = c;
				break;
			}
		}
		if (!survives(s.buf, s.len))
			bad++;
	}
	free(s.buf);
	tap(!bad, "%d mutated expressions: refused cleanly or compiled well formed (%u bad)",
	    rounds, bad);
}

static void every_token_everywhere(void)
{
	static const char *const tokens[] = {
		"(", ")", "!", "&&", "||", "==", "!=", "<", "<=", ">", ">=",
		"\"", "*", "len", "dev", "0", "0x", "18446744073709551616", " ",
		"&", "|", "=",
	};
	const char *base = "!(len > 100 && dev == \"lo\") || comm == sh* && cpu <= 1";
	size_t n = strlen(base), at, k;
	unsigned int tried = 0, bad = 0;
	char buf[512];

	for (at = 0; at <= n; at++) {
		for (k = 0; k < POOL(tokens); k++) {
			size_t tl = strlen(tokens[k]);

			memcpy(buf, base, at);
			memcpy(buf + at, tokens[k], tl);
			memcpy(buf + at + tl, base + at, n - at);
			tried++;
			if (!survives(buf, n + tl))
				bad++;
			/* And the token in place of the byte there. */
			if (at < n) {
				memcpy(buf + at + tl, base + at + 1, n - at - 1);
				tried++;
				if (!survives(buf, n + tl - 1))
					bad++;
			}
		}
	}
	tap(!bad, "%s: %u tried (%u bad)",
	    "every operator and token at every position, inserted and replacing",
	    tried, bad);
}

static void bounds(void)
{
	struct tpstat_filter_prog *p;
	struct tpstat_filter_error e;
	struct text s = { 0 };
	size_t huge = 1 << 20, i;
	char *line;
	int d, err, ok;

	for (d = 15; d <= 17; d++) {
		s.len = 0;
		for (i = 0; i < (size_t)d; i++)
			put(&s, "(");
		put(&s, "len == 1");
		for (i = 0; i < (size_t)d; i++)
			put(&s, ")");
		err = compile(s.buf, s.len, &p, &e);
		ok = d <= TPSTAT_FILTER_MAX_DEPTH ? !err :
		     err == -EINVAL && !strcmp(e.what, "nested too deep");
		tap(ok, "%d nested parentheses: %s", d,
		    d <= TPSTAT_FILTER_MAX_DEPTH ? "accepted" : "refused as too deep");
		kfree(p);
	}
	s.len = 0;
	for (i = 0; i < 100; i++)
		put(&s, "!");
	put(&s, "len == 1");
	err = compile(s.buf, s.len, &p, &e);
	tap(err == -EINVAL && !strcmp(e.what, "nested too deep"),
	    "a hundred '!' in a row: refused as too deep");

	for (d = 32; d <= 33; d++) {
		s.len = 0;
		for (i = 0; i < (size_t)d; i++)
			put(&s, "%scpu<%zu", i ? "||" : "", i % 10);
		err = compile(s.buf, s.len, &p, &e);
		ok = d <= TPSTAT_FILTER_MAX_TESTS ? !err && p->nr == (unsigned int)d :
		     err == -EINVAL && !strcmp(e.what, "too many terms");
		tap(ok, "%d terms: %s", d, d <= TPSTAT_FILTER_MAX_TESTS ?
		    "accepted, one test each" : "refused as too many");
		kfree(p);
	}

	line = malloc(huge);
	if (!line)
		abort();
	for (i = 0; i < huge; i++)
		line[i] = "len == 1 && "[i % 12];
	err = compile(line, huge, &p, &e);
	tap(err == -EINVAL && !strcmp(e.what, "expression longer than 256 bytes"),
	    "a 1 MiB line: refused as too long");
	err = compile(line, TPSTAT_FILTER_TEXT_MAX + 1, &p, &e);
	tap(err == -EINVAL, "257 bytes: refused as too long");
	free(line);
	free(s.buf);
}

static void allocation_failures(void)
{
	const char *text = "len > 1 && dev == lo";
	struct tpstat_filter_prog *p;
	struct tpstat_filter_error e;
	int nth, err, ok = 1;

	for (nth = 1; nth <= 2; nth++) {
		host_alloc_fail_in = nth;
		err = compile(text, strlen(text), &p, &e);
		if (err != -ENOMEM || p)
			ok = 0;
		host_alloc_fail_in = 0;
	}
	err = compile(text, strlen(text), &p, &e);
	kfree(p);
	tap(ok && !err, "each allocation failing in turn: -ENOMEM, no program, nothing leaked");
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20000;

	/* Each line out at once: a sanitizer's report ends the process. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x7470737461740001ULL;
	printf("# seed %#llx, %d rounds\n", (unsigned long long)rng_state, rounds);
	known_expressions();
	random_expressions(rounds);
	mutations(rounds);
	every_token_everywhere();
	bounds();
	allocation_failures();
	tap(host_allocs_live == 0, "no allocation outlives the run (%ld live)",
	    host_allocs_live);
	return failures ? 1 : 0;
}
