/* fc-column.h - an append-only array that readers on other threads can read while it grows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * One writer appends; readers see the first `published` elements, which never
 * change once published. The writer stores the buffer pointer before it
 * publishes a count, and readers load the count before the pointer, so the
 * buffer a reader gets always holds at least the count it read.
 *
 * A shared column (one that readers may hold while it grows) never frees a
 * buffer on growth: the old one is retired, still valid for whoever holds it,
 * and freed with the column. Retired buffers add up to less than the live one.
 * A private column (being built by one thread) simply reallocates.
 *
 * Not part of the public API: FcProfile's storage.
 */
typedef struct {
  gpointer   data;        /* atomic */
  guint      published;   /* atomic */
  guint      len;         /* writer only from here on */
  guint      capacity;
  guint      elt_size;
  gboolean   shared;
  GPtrArray *retired;
} FcColumn;

void     fc_column_init      (FcColumn *self,
                              guint     elt_size);
void     fc_column_clear     (FcColumn *self);
/* writer: make room for one more element and return it (zeroed), unpublished */
gpointer fc_column_push      (FcColumn *self);
/* writer: drop unpublished elements and, on a private column, published ones too */
void     fc_column_truncate  (FcColumn *self,
                              guint     len);
/* writer: from now on growth never frees a buffer readers may hold */
void     fc_column_share     (FcColumn *self);
/* writer: make the first len elements visible to readers */
void     fc_column_publish   (FcColumn *self);
/* reader: the published elements */
gpointer fc_column_read      (FcColumn *self,
                              guint    *n);
guint    fc_column_n_published (FcColumn *self);

#define fc_column_writer_at(self, type, i) (((type *) (self)->data)[(i)])

G_END_DECLS
