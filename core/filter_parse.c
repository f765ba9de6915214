// SPDX-License-Identifier: GPL-2.0
/*
 * Filter expressions: text to a branch program (include/tpstat/filter_prog.h).
 *
 * A recursive descent parser builds a small tree, bounded in size and
 * depth; the compiler then lays out its leaves as tests, the right side of
 * each "&&" and "||" before its left, so that every jump goes forward and
 * the first test is where the program starts. A conjunction of two ranges
 * of one field ("len > 100 && len < 1500") merges into one test.
 *
 * Nothing here touches kernel state: tests/host/ builds this file as it is
 * and fuzzes it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <tpstat/filter_prog.h>

/* Tree nodes: every leaf, merged or not, and the "&&" and "||" above them. */
#define FP_MAX_NODES	(4 * TPSTAT_FILTER_MAX_TESTS)

enum fp_kind { FP_LEAF, FP_AND, FP_OR };

struct fp_node {
	enum fp_kind kind;
	bool neg;		/* a "!" above it, or "!=" */
	unsigned int left;	/* the children of FP_AND and FP_OR */
	unsigned int right;
	struct tpstat_filter_test test;	/* FP_LEAF's, without its jumps */
};

enum fp_token {
	FP_END, FP_WORD, FP_QUOTED, FP_LPAREN, FP_RPAREN, FP_NOT,
	FP_AND_AND, FP_OR_OR, FP_EQ, FP_NE, FP_LT, FP_LE, FP_GT, FP_GE,
	FP_BAD, FP_UNTERMINATED,
};

struct fp_parser {
	const char *s;
	size_t len;
	size_t pos;		/* after the current token */
	enum fp_token tok;	/* the current token */
	size_t tok_pos;
	size_t tok_len;
	unsigned int depth;
	unsigned int nr_nodes;
	unsigned int nr_leaves;	/* leaves not merged away: the tests */
	const struct tpstat_field *fields;
	unsigned int nr_fields;
	struct tpstat_filter_error *err;
	struct tpstat_filter_prog *prog;	/* while compiling */
	unsigned int next_test;
	struct fp_node nodes[FP_MAX_NODES];
};

/* A test no value passes: the mask leaves 0, which is below lo. */
static const struct tpstat_filter_test fp_never = { .mask = 0, .lo = 1 };

static bool fp_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Bytes a bare word may hold: printable, not blank, no operator. */
static bool fp_word_char(char c)
{
	return c > ' ' && c < 0x7f && !strchr("()!&|=<>\"", c);
}

/*
 * Fails the parse at the current token, saying @what was wrong unless the
 * token itself is; always returns -EINVAL.
 */
static int fp_fail(struct fp_parser *p, const char *what)
{
	if (p->tok == FP_BAD)
		what = "unexpected character";
	else if (p->tok == FP_UNTERMINATED)
		what = "unterminated quote";
	p->err->pos = p->tok_pos;
	p->err->len = p->tok == FP_END ? 0 : p->tok_len;
	p->err->what = what;
	return -EINVAL;
}

static bool fp_two(struct fp_parser *p, const char *op)
{
	return p->pos + 1 < p->len && p->s[p->pos] == op[0] &&
	       p->s[p->pos + 1] == op[1];
}

/* Moves to the next token. */
static void fp_next(struct fp_parser *p)
{
	static const struct { const char *op; enum fp_token tok; } ops[] = {
		{ "&&", FP_AND_AND }, { "||", FP_OR_OR }, { "==", FP_EQ },
		{ "!=", FP_NE }, { "<=", FP_LE }, { ">=", FP_GE },
	};
	unsigned int i;
	char c;

	while (p->pos < p->len && fp_blank(p->s[p->pos]))
		p->pos++;
	p->tok_pos = p->pos;
	p->tok_len = 1;
	if (p->pos >= p->len) {
		p->tok = FP_END;
		p->tok_len = 0;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (fp_two(p, ops[i].op)) {
			p->tok = ops[i].tok;
			p->tok_len = 2;
			p->pos += 2;
			return;
		}
	}
	c = p->s[p->pos];
	switch (c) {
	case '(':
		p->tok = FP_LPAREN;
		break;
	case ')':
		p->tok = FP_RPAREN;
		break;
	case '!':
		p->tok = FP_NOT;
		break;
	case '<':
		p->tok = FP_LT;
		break;
	case '>':
		p->tok = FP_GT;
		break;
	case '"':
		/* Any bytes but a quote and a NUL up to the closing quote. */
		while (++p->pos < p->len && p->s[p->pos] != '"' && p->s[p->pos])
			;
		if (p->pos < p->len && p->s[p->pos] == '"') {
			p->tok = FP_QUOTED;
			p->pos++;
		} else {
			p->tok = FP_UNTERMINATED;
		}
		p->tok_len = p->pos - p->tok_pos;
		return;
	default:
		if (!fp_word_char(c)) {
			p->tok = FP_BAD;
			p->pos++;
			return;
		}
		p->tok = FP_WORD;
		while (p->pos < p->len && fp_word_char(p->s[p->pos]))
			p->pos++;
		p->tok_len = p->pos - p->tok_pos;
		return;
	}
	p->pos++;
}

static const char *fp_tok_text(const struct fp_parser *p)
{
	return p->s + p->tok_pos;
}

static int fp_node_new(struct fp_parser *p, enum fp_kind kind,
		       unsigned int *n)
{
	if (p->nr_nodes >= FP_MAX_NODES)
		return fp_fail(p, "too many terms");
	*n = p->nr_nodes++;
	memset(&p->nodes[*n], 0, sizeof(p->nodes[*n]));
	p->nodes[*n].kind = kind;
	return 0;
}

static int fp_leaf(struct fp_parser *p, const struct tpstat_filter_test *t,
		   unsigned int *n)
{
	int err;

	if (p->nr_leaves >= TPSTAT_FILTER_MAX_TESTS)
		return fp_fail(p, "too many terms");
	err = fp_node_new(p, FP_LEAF, n);
	if (err)
		return err;
	p->nodes[*n].test = *t;
	p->nr_leaves++;
	return 0;
}

static int fp_join(struct fp_parser *p, enum fp_kind kind, unsigned int left,
		   unsigned int right, unsigned int *n)
{
	int err = fp_node_new(p, kind, n);

	if (err)
		return err;
	p->nodes[*n].left = left;
	p->nodes[*n].right = right;
	return 0;
}

static u64 fp_range_hi(const struct tpstat_filter_test *t)
{
	return t->lo + t->span;
}

/* Leaves whose conjunction is one range of one word. */
static bool fp_mergeable(const struct fp_node *a, const struct fp_node *b)
{
	return a->kind == FP_LEAF && b->kind == FP_LEAF && !a->neg && !b->neg &&
	       a->test.slot == b->test.slot && a->test.mask == b->test.mask;
}

/* Narrows leaf @a to what leaf @b passes too; @b is dropped. */
static void fp_merge(struct fp_parser *p, struct fp_node *a,
		     const struct fp_node *b)
{
	u64 lo = a->test.lo > b->test.lo ? a->test.lo : b->test.lo;
	u64 hi_a = fp_range_hi(&a->test), hi_b = fp_range_hi(&b->test);
	u64 hi = hi_a < hi_b ? hi_a : hi_b;

	if (lo > hi) {
		a->test = fp_never;
		a->test.slot = b->test.slot;
	} else {
		a->test.lo = lo;
		a->test.span = hi - lo;
	}
	p->nr_leaves--;
}

/* A number: decimal, or hex after 0x. */
static int fp_number(struct fp_parser *p, u64 *value)
{
	const char *s = fp_tok_text(p);
	size_t i = 0, n = p->tok_len;
	unsigned int base = 10;
	u64 v = 0;

	if (p->tok != FP_WORD)
		return fp_fail(p, "expected a number");
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	for (; i < n; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return fp_fail(p, "expected a number");
		if (v > (U64_MAX - d) / base)
			return fp_fail(p, "number too large");
		v = v * base + d;
	}
	*value = v;
	return 0;
}

/* field op number, as a leaf: every operator but != is a range. */
static int fp_number_leaf(struct fp_parser *p, const struct tpstat_field *f,
			  enum fp_token op, unsigned int *n)
{
	struct tpstat_filter_test t = { .mask = U64_MAX };
	u64 k;
	int err;

	err = fp_number(p, &k);
	if (err)
		return err;
	switch (op) {
	case FP_EQ:
	case FP_NE:
		t.lo = k;
		break;
	case FP_LT:
		if (!k)
			t = fp_never;
		else
			t.span = k - 1;
		break;
	case FP_LE:
		t.span = k;
		break;
	case FP_GT:
		if (k == U64_MAX) {
			t = fp_never;
		} else {
			t.lo = k + 1;
			t.span = U64_MAX - k - 1;
		}
		break;
	default:	/* FP_GE */
		t.lo = k;
		t.span = U64_MAX - k;
		break;
	}
	t.slot = f->slot;
	err = fp_leaf(p, &t, n);
	if (!err)
		p->nodes[*n].neg = op == FP_NE;
	return err;
}

static u64 fp_word_of(const unsigned char *bytes)
{
	u64 w;

	memcpy(&w, bytes, sizeof(w));
	return w;
}

/*
 * field == name, as a leaf per word the comparison needs: a name's bytes
 * and its NUL, or only its bytes before a trailing '*'. A word is loaded
 * from memory as the probe loads it, so this holds on any byte order.
 */
static int fp_name_leaf(struct fp_parser *p, const struct tpstat_field *f,
			enum fp_token op, unsigned int *n)
{
	unsigned char name[TPSTAT_FILTER_NAME_BYTES] = { 0 };
	unsigned char mask[TPSTAT_FILTER_NAME_BYTES] = { 0 };
	const char *s = fp_tok_text(p);
	size_t len = p->tok_len, cmp, i;
	struct tpstat_filter_test t = { .slot = f->slot };
	unsigned int lo_word, hi_word;
	int err;

	if (op != FP_EQ && op != FP_NE)
		return fp_fail(p, "a name compares only with == or !=");
	if (p->tok == FP_QUOTED) {
		s++;
		len -= 2;
	} else if (p->tok != FP_WORD) {
		return fp_fail(p, "expected a name");
	}
	cmp = len + 1;
	if (len && s[len - 1] == '*')
		cmp = --len;
	for (i = 0; i < len; i++)
		if (s[i] == '*')
			return fp_fail(p, "'*' may only end a name");
	if (len >= TPSTAT_FILTER_NAME_BYTES)
		return fp_fail(p, "a name has at most 15 bytes");
	memcpy(name, s, len);
	memset(mask, 0xff, cmp);

	t.mask = fp_word_of(mask);
	t.lo = fp_word_of(name);
	err = fp_leaf(p, &t, &lo_word);
	if (err)
		return err;
	*n = lo_word;
	if (cmp > sizeof(u64)) {
		t.slot = f->slot + 1;
		t.mask = fp_word_of(mask + sizeof(u64));
		t.lo = fp_word_of(name + sizeof(u64));
		err = fp_leaf(p, &t, &hi_word);
		if (!err)
			err = fp_join(p, FP_AND, lo_word, hi_word, n);
		if (err)
			return err;
	}
	p->nodes[*n].neg = op == FP_NE;
	return 0;
}

static const struct tpstat_field *fp_field(const struct fp_parser *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_fields; i++)
		if (strlen(p->fields[i].name) == p->tok_len &&
		    !memcmp(p->fields[i].name, fp_tok_text(p), p->tok_len))
			return &p->fields[i];
	return NULL;
}

/* field op value */
static int fp_compare(struct fp_parser *p, unsigned int *n)
{
	const struct tpstat_field *f;
	enum fp_token op;
	int err;

	if (p->tok != FP_WORD)
		return fp_fail(p, "expected a field name");
	f = fp_field(p);
	if (!f)
		return fp_fail(p, "unknown field");
	fp_next(p);
	op = p->tok;
	if (op < FP_EQ || op > FP_GE)
		return fp_fail(p, "expected ==, !=, <, <=, > or >=");
	fp_next(p);
	if (p->tok == FP_END)
		return fp_fail(p, "expected a value");
	if (f->type == TPSTAT_FIELD_NAME)
		err = fp_name_leaf(p, f, op, n);
	else
		err = fp_number_leaf(p, f, op, n);
	if (!err)
		fp_next(p);
	return err;
}

static int fp_or(struct fp_parser *p, unsigned int *n);

/* "!" not | "(" expr ")" | compare */
static int fp_not(struct fp_parser *p, unsigned int *n)
{
	int err;

	if (p->tok != FP_NOT && p->tok != FP_LPAREN)
		return fp_compare(p, n);
	if (++p->depth > TPSTAT_FILTER_MAX_DEPTH)
		return fp_fail(p, "nested too deep");
	if (p->tok == FP_NOT) {
		fp_next(p);
		err = fp_not(p, n);
		if (!err)
			p->nodes[*n].neg = !p->nodes[*n].neg;
	} else {
		fp_next(p);
		err = fp_or(p, n);
		if (!err && p->tok != FP_RPAREN)
			err = fp_fail(p, "expected )");
		if (!err)
			fp_next(p);
	}
	p->depth--;
	return err;
}

/* not { "&&" not }, merging ranges of one field as it goes */
static int fp_and(struct fp_parser *p, unsigned int *n)
{
	unsigned int right;
	int err;

	err = fp_not(p, n);
	while (!err && p->tok == FP_AND_AND) {
		struct fp_node *last = &p->nodes[*n];

		fp_next(p);
		err = fp_not(p, &right);
		if (err)
			break;
		/* The chain so far ends with a plain leaf: a && b, or (...) && b */
		if (last->kind == FP_AND && !last->neg)
			last = &p->nodes[last->right];
		if (fp_mergeable(last, &p->nodes[right]))
			fp_merge(p, last, &p->nodes[right]);
		else
			err = fp_join(p, FP_AND, *n, right, n);
	}
	return err;
}

/* and { "||" and } */
static int fp_or(struct fp_parser *p, unsigned int *n)
{
	unsigned int right;
	int err;

	err = fp_and(p, n);
	while (!err && p->tok == FP_OR_OR) {
		fp_next(p);
		err = fp_and(p, &right);
		if (!err)
			err = fp_join(p, FP_OR, *n, right, n);
	}
	return err;
}

/*
 * Lays out node @n to go to @yes if it holds and @no if not; returns the
 * test it starts at. Tests are handed out from the last down.
 */
static u8 fp_emit(struct fp_parser *p, unsigned int n, u8 yes, u8 no)
{
	const struct fp_node *node = &p->nodes[n];
	struct tpstat_filter_test *t;
	u8 swap;

	if (node->neg) {
		swap = yes;
		yes = no;
		no = swap;
	}
	switch (node->kind) {
	case FP_AND:
		return fp_emit(p, node->left, fp_emit(p, node->right, yes, no), no);
	case FP_OR:
		return fp_emit(p, node->left, yes, fp_emit(p, node->right, yes, no));
	default:
		t = &p->prog->tests[--p->next_test];
		*t = node->test;
		t->pass = yes;
		t->fail = no;
		p->prog->uses |= 1ULL << t->slot;
		return p->next_test;
	}
}

int tpstat_filter_compile(const char *text, size_t len,
			  const struct tpstat_field *fields,
			  unsigned int nr_fields,
			  struct tpstat_filter_prog **prog,
			  struct tpstat_filter_error *err)
{
	struct fp_parser *p;
	unsigned int root;
	int ret;

	*prog = NULL;
	if (len > TPSTAT_FILTER_TEXT_MAX) {
		*err = (struct tpstat_filter_error){
			.pos = TPSTAT_FILTER_TEXT_MAX,
			.what = "expression longer than 256 bytes",
		};
		return -EINVAL;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->s = text;
	p->len = len;
	p->fields = fields;
	p->nr_fields = nr_fields;
	p->err = err;

	fp_next(p);
	ret = fp_or(p, &root);
	if (!ret && p->tok != FP_END)
		ret = fp_fail(p, p->tok == FP_RPAREN ? "unmatched )" :
				 "expected && or ||");
	if (ret)
		goto out;

	ret = -ENOMEM;
	p->prog = kzalloc(sizeof(*p->prog) +
			  p->nr_leaves * sizeof(p->prog->tests[0]), GFP_KERNEL);
	if (!p->prog)
		goto out;
	p->prog->nr = p->nr_leaves;
	p->next_test = p->nr_leaves;
	memcpy(p->prog->text, text, len);
	fp_emit(p, root, TPSTAT_FILTER_ACCEPT, TPSTAT_FILTER_REJECT);
	*prog = p->prog;
	ret = 0;
out:
	kfree(p);
	return ret;
}
