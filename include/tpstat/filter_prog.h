/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filter programs: the fields a set lets a filter test, and what an
 * expression over them compiles to. Nothing here touches kernel state, so
 * the parser (core/filter_parse.c) builds and is fuzzed outside the kernel
 * too (tests/host/).
 *
 * An expression compiles to a branch program: an array of tests, each of
 * one word of the event's fields, each naming the test to go to next when
 * it passes and when it fails. "&&", "||", "!" and parentheses become
 * nothing but those jumps, so a probe runs one short loop, with no stack
 * and no recursion, at most as many steps as the expression has terms.
 */
#ifndef _TPSTAT_FILTER_PROG_H
#define _TPSTAT_FILTER_PROG_H

#include <linux/types.h>

/* Tests a program may hold; a name of 8 bytes or more takes two. */
#define TPSTAT_FILTER_MAX_TESTS		32

/* How deep parentheses and "!" may nest. */
#define TPSTAT_FILTER_MAX_DEPTH		16

/* Bytes of an expression; the debugfs file takes one line of at most 256. */
#define TPSTAT_FILTER_TEXT_MAX		256

/* Bytes of a name a field holds, with its NUL: a comm, an interface name. */
#define TPSTAT_FILTER_NAME_BYTES	16

/* Where a test's pass or fail jump ends the program. */
#define TPSTAT_FILTER_ACCEPT		0xfe
#define TPSTAT_FILTER_REJECT		0xff

/**
 * enum tpstat_field_type - what a field holds, and so how it compares
 * @TPSTAT_FIELD_NUMBER: a u64, compared with == != < <= > >=
 * @TPSTAT_FIELD_NAME: a string of up to 15 bytes and a NUL, in two words,
 *                     compared with == and != only; a trailing '*' in the
 *                     value matches any name that begins with the rest
 */
enum tpstat_field_type {
	TPSTAT_FIELD_NUMBER,
	TPSTAT_FIELD_NAME,
};

/**
 * struct tpstat_field - a field a filter may name
 * @name: as the expression spells it, a C identifier
 * @type: how it compares
 * @slot: where the probe puts its value in the array it hands the filter,
 *        below %TPSTAT_FILTER_SLOTS; a name takes @slot and @slot + 1
 */
struct tpstat_field {
	const char *name;
	enum tpstat_field_type type;
	unsigned int slot;
};

#define TPSTAT_FIELD_NUMBER(n, s)					\
	{ .name = (n), .type = TPSTAT_FIELD_NUMBER, .slot = (s) }
#define TPSTAT_FIELD_NAME(n, s)						\
	{ .name = (n), .type = TPSTAT_FIELD_NAME, .slot = (s) }

/**
 * struct tpstat_filter_test - one step of a program
 * @mask: the bits of the word that count (a name's bytes up to its NUL)
 * @lo: the lowest value that passes, after the mask
 * @span: how far above @lo a value still passes: the test passes when
 *        (word & @mask) - @lo <= @span, unsigned, which makes ==, <, <=,
 *        >, >= and ranges one compare each
 * @slot: the word tested
 * @pass: the next test if it passes, or %TPSTAT_FILTER_ACCEPT or
 *        %TPSTAT_FILTER_REJECT
 * @fail: the same if it fails
 *
 * Jumps only go forward, so a program always ends.
 */
struct tpstat_filter_test {
	u64 mask;
	u64 lo;
	u64 span;
	u8 slot;
	u8 pass;
	u8 fail;
};

/* Slots a set's fields may take: a program says which it reads in a u64. */
#define TPSTAT_FILTER_SLOTS		64

/**
 * struct tpstat_filter_prog - a compiled expression
 * @nr: tests; the first is where the program starts
 * @uses: bit n set if a test reads slot n: a probe may leave the others
 *        unfilled
 * @text: the expression as it was written, for the filter file
 * @tests: the program
 */
struct tpstat_filter_prog {
	unsigned int nr;
	u64 uses;
	char text[TPSTAT_FILTER_TEXT_MAX + 1];
	struct tpstat_filter_test tests[];
};

/**
 * tpstat_filter_prog_run() - whether an event passes a program
 * @p: the program
 * @v: the event's fields, at the slots its set declared
 *
 * Return: true if the event matches the expression.
 */
static inline bool tpstat_filter_prog_run(const struct tpstat_filter_prog *p,
					  const u64 *v)
{
	unsigned int i = 0;

	do {
		const struct tpstat_filter_test *t = &p->tests[i];

		i = (v[t->slot] & t->mask) - t->lo <= t->span ? t->pass : t->fail;
	} while (i < TPSTAT_FILTER_ACCEPT);
	return i == TPSTAT_FILTER_ACCEPT;
}

/**
 * struct tpstat_filter_error - where an expression is wrong
 * @pos: the offset of the offending token in the expression
 * @len: its length, 0 at the end of the expression
 * @what: what is wrong, a phrase such as "expected a value"
 */
struct tpstat_filter_error {
	unsigned int pos;
	unsigned int len;
	const char *what;
};

/**
 * tpstat_filter_compile() - parse an expression and compile it
 * @text: the expression, not necessarily NUL-terminated
 * @len: its bytes
 * @fields: the fields it may name
 * @nr_fields: their number
 * @prog: set to the program, to be freed with kfree(), on success
 * @err: set to where it is wrong on -EINVAL
 *
 * The grammar, loosest first:
 *   expr := and { "||" and }
 *   and  := not { "&&" not }
 *   not  := "!" not | "(" expr ")" | field op value
 *   op   := "==" | "!=" | "<" | "<=" | ">" | ">="
 * A number is decimal or 0x hex; a name is a word of any bytes but
 * blanks and operators, or any bytes but '"' between quotes.
 *
 * Return: 0, -EINVAL for an expression that is malformed, too long, too
 * deep or too large, or -ENOMEM.
 */
int tpstat_filter_compile(const char *text, size_t len,
			  const struct tpstat_field *fields,
			  unsigned int nr_fields,
			  struct tpstat_filter_prog **prog,
			  struct tpstat_filter_error *err);

#endif /* _TPSTAT_FILTER_PROG_H */
