/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's allocator, on the host: calloc() and free(), counted, and
 * failing on request, so that a test sees every allocation freed and every
 * failure handled.
 */
#ifndef _HOST_LINUX_SLAB_H
#define _HOST_LINUX_SLAB_H

#include <stdlib.h>

#define GFP_KERNEL	0
/* Every host allocation is zeroed anyway. */
#define __GFP_ZERO	0

/* Allocations not yet freed. */
extern long host_allocs_live;
/* When it reaches 1, the allocation that brings it there fails; 0: never. */
extern long host_alloc_fail_in;

static inline void *kzalloc(size_t size, int gfp)
{
	void *p;

	(void)gfp;
	if (host_alloc_fail_in && !--host_alloc_fail_in)
		return NULL;
	p = calloc(1, size);
	if (p)
		host_allocs_live++;
	return p;
}

static inline void kfree(const void *p)
{
	if (p)
		host_allocs_live--;
	free((void *)p);
}

#endif
