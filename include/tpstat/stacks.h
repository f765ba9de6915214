/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counts by kernel stack and a small key (a command, a pid, a CPU): each
 * event's stack is saved whole, found by a hash in storage allocated at
 * load, and compared frame by frame and word by word, so two stacks with
 * the same hash are never merged and neither loses a count. Events of
 * stacks that do not fit count in an "other" row. A reset drops the stacks
 * with their counts.
 *
 * A row may also sum a value (a time waited) over its events: the stack
 * is held when a wait begins (tpstat_stacks_hold()) and the value added
 * when it ends (tpstat_stacks_add_value()). Such rows sort by their sums.
 */
#ifndef _TPSTAT_STACKS_H
#define _TPSTAT_STACKS_H

#include <linux/seq_file.h>
#include <linux/types.h>
#include <tpstat/data.h>
#include <tpstat/key.h>

/* Frames kept of a stack, at most: they are saved on the probe's stack. */
#define TPSTAT_STACK_MAX_DEPTH	32

/* Stacks a table may hold; keeps a typo from eating memory. */
#define TPSTAT_STACKS_MAX	65536

struct tpstat_stacks_gen;

/**
 * struct tpstat_stacks - counts by stack and small key
 * @live: the generation probes update
 * @capacity: stacks (with their keys) it holds; the rest count in "other"
 * @depth: frames kept of each stack, from the tracepoint's caller down
 * @collide: for tests: every stack gets the same hash, so that only the
 *           comparison of whole stacks keeps them apart
 * @gen: private: the live generation, and during a reset the next
 * @mask: private: index slots - 1
 * @bits: private: log2 of index slots
 * @entry_size: private: bytes of an entry with its frames
 * @seq: private: generations made, which a held row's handle names
 * @data: private: what the core handles
 *
 * Declare it with TPSTAT_STACKS(capacity, depth) and list it in the set's
 * data; a module parameter may change both before the set is registered.
 */
struct tpstat_stacks {
	struct tpstat_stacks_gen *live;
	unsigned int capacity;
	unsigned int depth;
	bool collide;
	/* private: */
	struct tpstat_stacks_gen *gen[TPSTAT_GENERATIONS];
	unsigned int mask;
	unsigned int bits;
	size_t entry_size;
	u32 seq;
	struct tpstat_data data;
};

extern const struct tpstat_data_ops tpstat_stacks_ops;

#define TPSTAT_STACKS(cap, d)						\
	{ .capacity = (cap), .depth = (d), .data.ops = &tpstat_stacks_ops }

bool __tpstat_stacks_add(struct tpstat_stacks *s, void *data,
			 const struct tpstat_key *key,
			 const unsigned long *frame);

/**
 * tpstat_stacks_add() - count one event under @key and, if asked, the
 *                       stack it came from
 * @s: the counts
 * @data: the probe's first argument: the probe's own frames and those of
 *        the tracepoint's machinery are left out, so a stack starts at the
 *        function that hit the tracepoint
 * @key: the small key, zero in the words it does not use
 * @with_stack: false to count by @key alone
 *
 * Call it from the probe itself, the function the tracepoint calls: the
 * walk starts from the probe's frame (which it finds through the frame
 * address the probe is given here, so it never walks the core's own
 * frames). Called from a function the probe calls, it still starts at the
 * function that hit the tracepoint, at the cost of walking that function's
 * frame.
 *
 * Any context; a new stack is never stored in NMI (its event goes to
 * "other"), nor once the table is full.
 *
 * Return: false if the event went to "other".
 */
static __always_inline bool tpstat_stacks_add(struct tpstat_stacks *s,
					      void *data,
					      const struct tpstat_key *key,
					      bool with_stack)
{
	return __tpstat_stacks_add(s, data, key, with_stack ?
				   __builtin_frame_address(0) : NULL);
}

u64 __tpstat_stacks_hold(struct tpstat_stacks *s, void *data,
			 const struct tpstat_key *key,
			 const unsigned long *frame);

/**
 * tpstat_stacks_hold() - the row of the stack an event came from, and
 *                        @key, stored if new, without counting the event
 * @s: the counts
 * @data: the probe's first argument, as for tpstat_stacks_add()
 * @key: the small key
 * @with_stack: false to hold the row of @key alone
 *
 * For a value known only at a later event (a wait, from a task's switch
 * out to its switch in): save the handle, and give it to
 * tpstat_stacks_add_value() then. Call it from the probe itself, as
 * tpstat_stacks_add(). Any context.
 *
 * Return: the row's handle; that of "other" if the stack does not fit.
 */
static __always_inline u64 tpstat_stacks_hold(struct tpstat_stacks *s,
					      void *data,
					      const struct tpstat_key *key,
					      bool with_stack)
{
	return __tpstat_stacks_hold(s, data, key, with_stack ?
				    __builtin_frame_address(0) : NULL);
}

/**
 * tpstat_stacks_add_value() - count one event in a held row, and add
 *                             @value to its sum
 * @s: the counts
 * @handle: from tpstat_stacks_hold()
 * @value: what to add
 *
 * A row held before the last reset is gone with its generation: the event
 * and its value go to "other". Any context.
 *
 * Return: false if they went to "other".
 */
bool tpstat_stacks_add_value(struct tpstat_stacks *s, u64 handle, u64 value);

/**
 * struct tpstat_stack_row - one stack and key, as read
 * @count: its events
 * @sum: the values added to it by tpstat_stacks_add_value()
 * @handle: its handle, as tpstat_stacks_hold() gives it: for a reader that
 *          saved handles elsewhere (a pairing map) and groups them by row
 * @key: the small key
 * @nr: frames
 * @frames: the frames, innermost first, in the live generation: valid until
 *          the show or stats callback that read them returns
 */
struct tpstat_stack_row {
	u64 count;
	u64 sum;
	u64 handle;
	struct tpstat_key key;
	unsigned int nr;
	const unsigned long *frames;
};

/**
 * tpstat_stacks_rows() - every stack held, by sum then count, highest first
 * @s: the counts
 * @nr: set to the number of rows of stacks
 *
 * Return: the rows, and after them, at [*@nr], the "other" row, with no
 * frames. To kvfree(); NULL with *@nr == 0 on -ENOMEM, the only failure.
 */
struct tpstat_stack_row *tpstat_stacks_rows(const struct tpstat_stacks *s,
					    unsigned int *nr);

/**
 * tpstat_stacks_generation() - the generation rows are held in now
 * @s: the counts
 *
 * For a reader that saved handles (tpstat_stacks_hold()) and matches them
 * to rows: a handle whose upper half is not this was held before the last
 * reset, and its row is gone. Call it where resets cannot run (a show or
 * stats callback): it stays the same until the next one.
 *
 * Return: the upper half of the handles held until the next reset.
 */
u32 tpstat_stacks_generation(const struct tpstat_stacks *s);

/**
 * tpstat_stacks_print_frames() - a row's frames, one a line, each named
 *                                "function+0xoff/0xsize [module]"
 * @m: the file
 * @row: the row
 * @indent: in front of each line
 *
 * A frame kallsyms cannot name prints as "unknown", never as an address.
 */
void tpstat_stacks_print_frames(struct seq_file *m,
				const struct tpstat_stack_row *row,
				const char *indent);

/**
 * tpstat_stacks_print_folded() - a row's frames as a folded stack has them:
 *                                outermost first, separated by ';'
 * @m: the file
 * @row: the row
 * @after: something is on the line before them (keys), which a ';' then
 *         separates from the first frame
 *
 * Frames are named "function [module]" without their offsets, which would
 * make one function many frames, as flamegraph.pl, speedscope and
 * Grafana read them. A row with no frame and nothing before it prints
 * "[no frames]". The caller ends the line with " VALUE\n".
 */
void tpstat_stacks_print_folded(struct seq_file *m,
				const struct tpstat_stack_row *row, bool after);

#endif /* _TPSTAT_STACKS_H */
