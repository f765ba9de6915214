/* SPDX-License-Identifier: GPL-2.0 */
/* What the tables take from <linux/log2.h>: see host_kernel.h. */
#include <host_kernel.h>
