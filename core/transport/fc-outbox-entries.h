/* fc-outbox-entries.h - what waits in the outbox and what was rejected, described for people
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One reading of the outbox for the app's Outbox page and `flamecast-cli
 * send --list`. Reads the disk: run it on a worker.
 */

#pragma once

#include <gio/gio.h>

#include "fc-outbox.h"
#include "fc-rate-limits.h"

G_BEGIN_DECLS

typedef struct
{
  char     *id;
  gboolean  rejected;       /* in outbox/rejected/, else waiting */
  char     *why;            /* the transport's note or the server's reason, NULL when none */
  char     *destination;    /* project or endpoint without credentials; NULL: an older version's entry */
  char     *categories;     /* "profile_chunk, transaction"; NULL when the envelope cannot be read */
  goffset   size;
  gint64    limited_until;  /* wall-clock us until a rate limit lets it go, 0 when not held */
} FcOutboxEntry;

void       fc_outbox_entry_free      (FcOutboxEntry *entry);

/* The waiting entries, oldest first, then the rejected ones (FcOutboxEntry*).
 * @rate_limits (nullable) and @now_us say which waiting ones are held back. */
GPtrArray *fc_outbox_list_entries    (FcOutbox      *outbox,
                                      FcRateLimits  *rate_limits,
                                      gint64         now_us);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcOutboxEntry, fc_outbox_entry_free)

G_END_DECLS
