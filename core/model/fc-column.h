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
 * A shared column (one that readers may hold while it grows) never moves its
 * elements: once it outgrows its first buffer it reserves address space for
 * FC_COLUMN_MAX_ELEMENTS (no memory until used: a reservation costs no RSS
 * and no commit charge) and grows in place, page by page, so a live profile
 * holds each sample once and never a doubled copy. The buffer it leaves (and
 * any it would leave past the reservation) is retired, still valid for whoever
 * holds it, and freed with the column. A private column (being built by one
 * thread) simply reallocates.
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
  gboolean   borrowed;    /* another column's elements, read only (fc_column_borrow()) */
  gsize      reserved;    /* bytes of address space at data when it is a mapping, else 0 */
  GArray    *retired;     /* private-era blocks (fc-big-alloc.h) readers may still hold */
  GArray    *retired_maps; /* the same for mappings (a reservation outgrown) */
} FcColumn;

/* A shared column reserves this many elements of address space at once. */
#define FC_COLUMN_MAX_ELEMENTS (1u << 30)

void     fc_column_init      (FcColumn *self,
                              guint     elt_size);
void     fc_column_clear     (FcColumn *self);
/* writer: make room for one more element and return it (zeroed), unpublished */
gpointer fc_column_push      (FcColumn *self);
void     fc_column_grow      (FcColumn *self);

/* writer: fc_column_push() of an element the caller writes whole. A reader
 * interns millions of stack nodes and samples: the call and the zeroing of
 * each were a tenth of reading a deep chunk. */
#define fc_column_append(self, type, value)                                        \
  G_STMT_START {                                                                   \
    FcColumn *fc_column_ = (self);                                                 \
    g_assert (fc_column_->elt_size == sizeof (type));                              \
    if (G_UNLIKELY (fc_column_->len == fc_column_->capacity))                      \
      fc_column_grow (fc_column_);                                                 \
    ((type *) fc_column_->data)[fc_column_->len++] = (value);                      \
  } G_STMT_END
/* writer: drop unpublished elements and, on a private column, published ones too */
void     fc_column_truncate  (FcColumn *self,
                              guint     len);
/* writer: a private column gives back the room growth left unused */
void     fc_column_trim      (FcColumn *self);
/* writer: a private column makes room for @capacity elements at once (a
 * builder that knows how many; untouched room costs no RSS once it is a
 * mapping of its own, and fc_column_trim() gives it back); @will_fill: the
 * room will be used, fault it in now */
void     fc_column_reserve   (FcColumn *self,
                              guint     capacity,
                              gboolean  will_fill);
/* writer: from now on growth never frees a buffer readers may hold */
void     fc_column_share     (FcColumn *self);
/* writer: make the first len elements visible to readers */
void     fc_column_publish   (FcColumn *self);
/* writer: an empty private column takes @data (fc_big_alloc()'d for
 * @capacity elements, @len of them filled) as its elements */
void     fc_column_adopt     (FcColumn *self,
                              gpointer  data,
                              guint     len,
                              guint     capacity);
/* an empty column reads @src's published elements from now on, without
 * copying or owning them: @src must be immutable (its profile finished) and
 * outlive it; appends to it fail loudly, clearing it forgets them */
void     fc_column_borrow    (FcColumn *self,
                              FcColumn *src);
/* reader: the published elements */
gpointer fc_column_read      (FcColumn *self,
                              guint    *n);
guint    fc_column_n_published (FcColumn *self);

#define fc_column_writer_at(self, type, i) (((type *) (self)->data)[(i)])

G_END_DECLS
