/* fc-envelope-summary.h - what an envelope carries, for the send preview and `send`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs on a worker thread: nothing here touches the caller's main context.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The limits come from fc-validate.h (FC_VALIDATE_MAX_*_SIZE), the one copy. */

typedef struct {
  char  *type;                /* the item header's "type" */
  gsize  size;                /* payload bytes */
  gsize  limit;               /* Relay's limit for this type, 0 when none applies */
} FcItemSummary;

typedef struct {
  GBytes    *envelope;        /* the exact bytes that would be sent */
  gsize      size;
  GPtrArray *items;           /* FcItemSummary*, in envelope order */
  char      *release;         /* NULL when none is set */
  char      *environment;
  char      *platform;
  GPtrArray *thread_names;    /* char*, sorted, unique */
  GPtrArray *paths;           /* char*, sorted, unique: files, abs paths, modules and images that are paths */
} FcEnvelopeSummary;

FcEnvelopeSummary *fc_envelope_summarize          (GBytes             *envelope,
                                                   GError            **error);
void               fc_envelope_summary_free       (FcEnvelopeSummary  *summary);
/* TRUE when the envelope and each item are within Relay's limits. */
gboolean           fc_envelope_summary_fits       (const FcEnvelopeSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcEnvelopeSummary, fc_envelope_summary_free)

G_END_DECLS
