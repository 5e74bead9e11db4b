/* fuzz-outbox.c - the outbox's index: whatever files an outbox directory holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Input: entries separated by NUL bytes, each "NAME\nCONTENTS"; NAME may
 * start with "rejected/". They become the files of a fresh outbox directory
 * (leftovers of crashed writers, strangers, broken envelopes...), then the
 * outbox lists, claims, loads and reads every entry as a sender would. Every
 * listed ID must be one the outbox accepts, and every failure must say why.
 */

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "flamecast.h"
#include "fc-fuzz.h"

static char *outbox_dir;

static void
empty_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          empty_dir (path);
          g_rmdir (path);
        }
      else
        g_unlink (path);
    }
}

static void
remove_outbox_dir (void)
{
  empty_dir (outbox_dir);
  g_rmdir (outbox_dir);
}

static void
create_entry (const char *entry,
              gsize       len)
{
  const char *nl = memchr (entry, '\n', len);
  g_autofree char *name = g_strndup (entry, nl ? (gsize) (nl - entry) : len);
  const char *base = name;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  if (g_str_has_prefix (name, "rejected/"))
    base = name + strlen ("rejected/");
  if (*base == '\0' || strchr (base, '/') != NULL || strcmp (base, ".") == 0 || strcmp (base, "..") == 0)
    return;

  dir = base == name ? g_strdup (outbox_dir) : g_build_filename (outbox_dir, "rejected", NULL);
  g_mkdir_with_parents (dir, 0700);
  path = g_build_filename (dir, base, NULL);
  if (nl != NULL)
    g_file_set_contents (path, nl + 1, len - (nl + 1 - entry), NULL);
  else
    g_file_set_contents (path, "", 0, NULL);
}

static void
read_entry (FcOutbox   *outbox,
            const char *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcOutboxClaim) claim = fc_outbox_claim (outbox, id, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FcDocument) doc = NULL;
  g_autofree char *note = NULL;

  FC_FUZZ_CHECK_RESULT (claim != NULL, error, "fc_outbox_claim");
  if (claim == NULL)
    return;

  bytes = fc_outbox_claim_load (claim, &error);
  FC_FUZZ_CHECK_RESULT (bytes != NULL, error, "fc_outbox_claim_load");
  if (bytes == NULL)
    return;

  doc = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);
  FC_FUZZ_CHECK_RESULT (doc != NULL, error, "reading an outbox entry");
  note = fc_outbox_dup_note (outbox, id);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *p = (const char *) data;
  const char *end = p + size;
  g_autoptr(FcOutbox) outbox = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(GPtrArray) rejected = NULL;

  if (outbox_dir == NULL)
    {
      outbox_dir = g_dir_make_tmp ("fc-fuzz-outbox-XXXXXX", NULL);
      g_assert (outbox_dir != NULL);
      atexit (remove_outbox_dir);
    }
  empty_dir (outbox_dir);

  while (p < end)
    {
      const char *nul = memchr (p, '\0', end - p);
      const char *stop = nul ? nul : end;

      create_entry (p, stop - p);
      p = nul ? nul + 1 : end;
    }

  outbox = fc_outbox_new (outbox_dir);
  ids = fc_outbox_list (outbox);
  for (guint i = 0; i < ids->len; i++)
    read_entry (outbox, g_ptr_array_index (ids, i));

  rejected = fc_outbox_list_rejected (outbox);
  for (guint i = 0; i < rejected->len; i++)
    {
      g_autofree char *reason = fc_outbox_dup_rejected_reason (outbox, g_ptr_array_index (rejected, i));

      (void) reason;
    }

  /* Any name at all as an ID: refused with a reason, or found. */
  for (p = (const char *) data; p < end; )
    {
      const char *nl = memchr (p, '\n', end - p);
      g_autofree char *id = g_strndup (p, (nl ? nl : end) - p);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = fc_outbox_load (outbox, id, &error);

      FC_FUZZ_CHECK_RESULT (bytes != NULL, error, "fc_outbox_load");
      p = nl ? nl + 1 : end;
    }
  return 0;
}
