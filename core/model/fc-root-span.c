/* fc-root-span.c - a root span (a transaction) as the lifecycle saw it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-root-span.h"

G_DEFINE_BOXED_TYPE (FcRootSpan, fc_root_span, fc_root_span_copy, fc_root_span_free)

FcRootSpan *
fc_root_span_copy (const FcRootSpan *span)
{
  FcRootSpan *copy;

  g_return_val_if_fail (span != NULL, NULL);

  copy = g_memdup2 (span, sizeof *span);
  copy->name = g_strdup (span->name);
  return copy;
}

void
fc_root_span_free (FcRootSpan *span)
{
  if (span == NULL)
    return;
  g_free (span->name);
  g_free (span);
}
