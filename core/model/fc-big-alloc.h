/* fc-big-alloc.h - arrays of megabytes, in huge pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A reader fills arrays of tens of MB once (a deep chunk's samples, stack
 * nodes and frame indexes). On a VM each first touch of a 4 KiB page is a
 * trap costing about 14 us; at this size a block is a mapping of its own,
 * 2 MiB aligned, that asks for transparent huge pages (MADV_HUGEPAGE: the
 * system's THP mode is usually "madvise"), so one fault maps 2 MiB.
 *
 * What a block is follows from its size, which the caller always knows:
 * under FC_BIG_MIN bytes it is g_malloc'd, from there on a mapping of
 * fc_big_mapping_size() bytes. So every call takes the size the block was
 * made with. Failures abort, as g_malloc() does. Not part of the public API.
 */

/* blocks of at least this many bytes are huge-page mappings */
#define FC_BIG_MIN (2u << 20)

gpointer fc_big_alloc   (gsize    bytes);
/* the first MIN (@old_bytes, @new_bytes) bytes kept; may move */
gpointer fc_big_realloc (gpointer data,
                         gsize    old_bytes,
                         gsize    new_bytes);
void     fc_big_free    (gpointer data,
                         gsize    bytes);
/* faults in [@from, @to) bytes of a block that will be written (best effort) */
void     fc_big_populate (gpointer data,
                          gsize    from,
                          gsize    to);

G_END_DECLS
