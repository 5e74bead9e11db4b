/* fc-span.h - transactions and their spans, on the profile's clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* One span of a trace: a transaction (its root span, depth 0) or a span
 * nested under it. Times are Unix epoch nanoseconds, as samples are. */
typedef struct
{
  char    *span_id;          /* 16 hex, or NULL when the source had none */
  char    *parent_span_id;   /* NULL for a transaction */
  char    *trace_id;         /* 32 hex, or NULL */
  char    *op;               /* "http.server", "db.query"... or NULL */
  char    *description;      /* a transaction: its name */
  gint64   start_ns;
  gint64   end_ns;           /* still open: the last time it was seen open */
  gboolean open;             /* not ended yet (a live transaction) */
  guint    depth;            /* set by fc_spans_arrange () */
} FcSpan;

#define FC_TYPE_SPAN (fc_span_get_type ())
GType   fc_span_get_type (void) G_GNUC_CONST;
FcSpan *fc_span_new      (const char   *span_id,
                          const char   *parent_span_id,
                          const char   *trace_id,
                          const char   *op,
                          const char   *description,
                          gint64        start_ns,
                          gint64        end_ns);
FcSpan *fc_span_copy     (const FcSpan *span);
void    fc_span_free     (FcSpan       *span);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcSpan, fc_span_free)

/* A new empty array of FcSpan that owns them. */
GPtrArray *fc_spans_new         (void);
/* Orders @spans for drawing (by start, the longer first on ties, so a parent
 * comes before the children it starts with) and gives each its depth: 0 for
 * a span whose parent is not in @spans, its parent's depth + 1 otherwise.
 * Returns the deepest depth + 1 (0 for no spans). */
guint      fc_spans_arrange     (GPtrArray    *spans);

G_END_DECLS
