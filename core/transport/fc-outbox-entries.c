/* fc-outbox-entries.c - what waits in the outbox and what was rejected, described for people
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-outbox-entries.h"
#include "fc-transport.h"

void
fc_outbox_entry_free (FcOutboxEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->id);
  g_free (entry->why);
  g_free (entry->destination);
  g_free (entry->categories);
  g_free (entry);
}

static FcOutboxEntry *
entry_new (FcOutbox     *outbox,
           FcRateLimits *rate_limits,
           gint64        now_us,
           const char   *id,
           gboolean      rejected)
{
  FcOutboxEntry *entry = g_new0 (FcOutboxEntry, 1);
  g_autofree char *rejected_dir = fc_outbox_dup_rejected_dir (outbox);
  g_autofree char *name = g_strconcat (id, ".envelope", NULL);
  g_autofree char *path = g_build_filename (rejected ? rejected_dir : fc_outbox_get_dir (outbox), name, NULL);
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);

  entry->id = g_strdup (id);
  entry->rejected = rejected;
  entry->why = rejected ? fc_outbox_dup_rejected_reason (outbox, id) : fc_outbox_dup_note (outbox, id);
  entry->destination = fc_outbox_dup_destination (outbox, id, rejected);
  if (mapped != NULL)
    {
      g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (mapped);
      g_autoptr(GPtrArray) categories = fc_envelope_dup_categories (bytes, NULL);

      entry->size = g_bytes_get_size (bytes);
      if (categories != NULL)
        {
          /* The transport's note says what happened at the last attempt;
           * the rate limits say until when it is held back now. */
          for (guint i = 0; !rejected && rate_limits != NULL && i < categories->len; i++)
            entry->limited_until = MAX (entry->limited_until,
                                        fc_rate_limits_get_limited_until (rate_limits,
                                                                          g_ptr_array_index (categories, i), now_us));
          g_ptr_array_add (categories, NULL);
          entry->categories = g_strjoinv (", ", (char **) categories->pdata);
        }
    }
  return entry;
}

/**
 * fc_outbox_list_entries:
 * @outbox: an outbox
 * @rate_limits: (nullable): the limits in force
 * @now_us: wall-clock microseconds, for @rate_limits
 *
 * Returns: (transfer full) (element-type FcOutboxEntry): waiting, then rejected
 */
GPtrArray *
fc_outbox_list_entries (FcOutbox     *outbox,
                        FcRateLimits *rate_limits,
                        gint64        now_us)
{
  g_autoptr(GPtrArray) waiting = NULL;
  g_autoptr(GPtrArray) rejected = NULL;
  GPtrArray *entries;

  g_return_val_if_fail (FC_IS_OUTBOX (outbox), NULL);

  entries = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_outbox_entry_free);
  waiting = fc_outbox_list (outbox);
  rejected = fc_outbox_list_rejected (outbox);
  for (guint i = 0; i < waiting->len; i++)
    g_ptr_array_add (entries, entry_new (outbox, rate_limits, now_us, g_ptr_array_index (waiting, i), FALSE));
  for (guint i = 0; i < rejected->len; i++)
    g_ptr_array_add (entries, entry_new (outbox, rate_limits, now_us, g_ptr_array_index (rejected, i), TRUE));
  return entries;
}
