/* fc-envelope-summary.h - what an envelope carries, for the send preview; home paths stripped
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GLib only (no GTK): runs on a worker thread.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Relay's default limits (relay-config): a profile or chunk 50 MiB, an
 * event or transaction 1 MiB, a whole envelope 100 MiB. */
#define FC_RELAY_MAX_PROFILE_SIZE  (((gsize) 50) * 1024 * 1024)
#define FC_RELAY_MAX_EVENT_SIZE    (((gsize) 1) * 1024 * 1024)
#define FC_RELAY_MAX_ENVELOPE_SIZE (((gsize) 100) * 1024 * 1024)

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

/* A copy of @envelope in which every JSON string starting with @home (a
 * directory, no trailing slash) starts with "~" instead; item lengths are
 * rewritten. Items that are not JSON are copied as they are. */
GBytes            *fc_envelope_strip_home         (GBytes             *envelope,
                                                   const char         *home,
                                                   GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcEnvelopeSummary, fc_envelope_summary_free)

G_END_DECLS
