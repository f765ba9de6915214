/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's fixed-size types, for code built on the host by tests/host/. */
#ifndef _HOST_LINUX_TYPES_H
#define _HOST_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#endif
