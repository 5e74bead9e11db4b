/* fc-root-span.h - a root span (a transaction) as the lifecycle saw it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* A root span (a transaction) as the lifecycle saw it. */
typedef struct
{
  guint    id;
  char    *name;
  char     trace_id[33];     /* 32 lowercase hex */
  char     span_id[17];      /* 16 lowercase hex */
  gboolean sampled;          /* by traces_sample_rate (and the session, in trace mode) */
  gboolean profiled;         /* profiling was running at some point while it was active */
  gint64   start_ns;         /* wall clock, Unix epoch */
  gint64   end_ns;           /* 0 while active */
} FcRootSpan;

#define FC_TYPE_ROOT_SPAN (fc_root_span_get_type ())
GType       fc_root_span_get_type (void) G_GNUC_CONST;
FcRootSpan *fc_root_span_copy     (const FcRootSpan *span);
void        fc_root_span_free     (FcRootSpan       *span);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcRootSpan, fc_root_span_free)

G_END_DECLS
