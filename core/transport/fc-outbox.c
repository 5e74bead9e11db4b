/* fc-outbox.c - envelopes waiting to be delivered, on disk so nothing is lost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "fc-atomic-file.h"
#include "fc-outbox.h"

#define ENVELOPE_SUFFIX    ".envelope"
#define NOTE_SUFFIX        ".note"
#define REASON_SUFFIX      ".reason"
#define DESTINATION_SUFFIX ".destination"
/* A writer killed mid-write leaves its hidden temporary; one this old belongs
 * to no writer still running. */
#define STALE_TEMP_AGE_S (60 * 60)

struct _FcOutbox
{
  GObject  parent_instance;

  char    *dir;
  char    *rejected_dir;
  gint     counter;     /* atomic: envelopes may be added from worker threads */
};

G_DEFINE_FINAL_TYPE (FcOutbox, fc_outbox, G_TYPE_OBJECT)

static void
fc_outbox_finalize (GObject *object)
{
  FcOutbox *self = (FcOutbox *)object;

  g_clear_pointer (&self->dir, g_free);
  g_clear_pointer (&self->rejected_dir, g_free);

  G_OBJECT_CLASS (fc_outbox_parent_class)->finalize (object);
}

static void
fc_outbox_class_init (FcOutboxClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_outbox_finalize;
}

static void
fc_outbox_init (FcOutbox *self)
{
}

FcOutbox *
fc_outbox_new (const char *dir)
{
  FcOutbox *self = g_object_new (FC_TYPE_OUTBOX, NULL);

  if (dir != NULL)
    self->dir = g_strdup (dir);
  else
    self->dir = g_build_filename (g_get_user_state_dir (), "flamecast", "outbox", NULL);
  self->rejected_dir = g_build_filename (self->dir, "rejected", NULL);

  return self;
}

const char *
fc_outbox_get_dir (FcOutbox *self)
{
  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  return self->dir;
}

char *
fc_outbox_dup_rejected_dir (FcOutbox *self)
{
  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  return g_strdup (self->rejected_dir);
}

static gboolean
valid_id (const char *id)
{
  if (id == NULL || *id == '\0' || *id == '.')
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '-' || *p == '_'))
      return FALSE;
  return TRUE;
}

static char *
path_for (const char *dir,
          const char *id,
          const char *suffix)
{
  g_autofree char *name = g_strconcat (id, suffix, NULL);
  return g_build_filename (dir, name, NULL);
}

static gboolean
ensure_dir (const char  *dir,
            GError     **error)
{
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot create the outbox directory %s: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_dir (const char  *dir,
           GError     **error)
{
  GStatBuf st;

  if (g_lstat (dir, &st) != 0)
    return TRUE;
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("The outbox %s is not a folder (a link?): refusing to use it"), dir);
      return FALSE;
    }
  if (st.st_uid != geteuid ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("The outbox folder %s belongs to another user (uid %u): refusing to use it. "
                   "Move it away; Flamecast makes a new one of yours"), dir, (guint) st.st_uid);
      return FALSE;
    }
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("The outbox folder %s may be written by other users (mode %04o): refusing to use it, "
                   "anyone could put an envelope there to be sent with your credentials. "
                   "Make it private: chmod 700 %s"), dir, (guint) (st.st_mode & 07777), dir);
      return FALSE;
    }
  return TRUE;
}

gboolean
fc_outbox_check_folder (FcOutbox  *self,
                        GError   **error)
{
  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);

  return check_dir (self->dir, error) && check_dir (self->rejected_dir, error);
}

char *
fc_outbox_add (FcOutbox    *self,
               GBytes      *envelope,
               const char  *destination,
               GError     **error)
{
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *destination_path = NULL;
  gconstpointer data;
  gsize len;

  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  g_return_val_if_fail (envelope != NULL, NULL);
  g_return_val_if_fail (destination != NULL && *destination != '\0', NULL);

  if (!ensure_dir (self->dir, error) || !fc_outbox_check_folder (self, error))
    return NULL;

  /* Fixed-width wall-clock time first so that names sort oldest first,
   * then a counter and randomness so parallel writers never collide. */
  do
    {
      g_clear_pointer (&id, g_free);
      g_clear_pointer (&path, g_free);
      id = g_strdup_printf ("%016" G_GINT64_FORMAT "-%06u-%08x",
                            g_get_real_time (), (guint) g_atomic_int_add (&self->counter, 1) + 1,
                            g_random_int ());
      path = path_for (self->dir, id, ENVELOPE_SUFFIX);
    }
  while (g_file_test (path, G_FILE_TEST_EXISTS));

  /* The destination first: an envelope is never without one (a crash in
   * between leaves a destination alone, which nothing lists). */
  destination_path = path_for (self->dir, id, DESTINATION_SUFFIX);
  if (!fc_atomic_file_write (destination_path, destination, strlen (destination), error))
    {
      g_prefix_error (error, _("Cannot store the envelope in the outbox: "));
      return NULL;
    }

  /* Written to a hidden temporary, fsynced and renamed: a crash at any
   * instant leaves no entry or the whole envelope, and an ID returned means
   * the envelope is on disk (tests/transport/test-outbox-crash.c kills writers
   * to check). A full disk is an error here, never a silent drop. */
  data = g_bytes_get_data (envelope, &len);
  if (!fc_atomic_file_write (path, data, len, error))
    {
      g_unlink (destination_path);
      g_prefix_error (error, _("Cannot store the envelope in the outbox: "));
      return NULL;
    }

  return g_steal_pointer (&id);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static void
remove_if_stale (const char *dir,
                 const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  GStatBuf st;

  if (g_stat (path, &st) == 0 && st.st_mtime < g_get_real_time () / G_USEC_PER_SEC - STALE_TEMP_AGE_S)
    g_unlink (path);
}

static GPtrArray *
list_dir (const char *dir)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return ids;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *id = NULL;

      if (fc_atomic_file_is_temp_of (name, ENVELOPE_SUFFIX))
        {
          remove_if_stale (dir, name);
          continue;
        }
      /* A destination without its envelope: a writer killed between the two. */
      if (g_str_has_suffix (name, DESTINATION_SUFFIX))
        {
          g_autofree char *envelope = g_strndup (name, strlen (name) - strlen (DESTINATION_SUFFIX));
          g_autofree char *envelope_path = NULL;

          envelope_path = g_strconcat (dir, G_DIR_SEPARATOR_S, envelope, ENVELOPE_SUFFIX, NULL);
          if (!g_file_test (envelope_path, G_FILE_TEST_EXISTS))
            remove_if_stale (dir, name);
          continue;
        }
      /* Skips other temporaries (".NAME.note.XXXXXX") and strangers whose
       * name is no ID: every other call refuses those. */
      if (!g_str_has_suffix (name, ENVELOPE_SUFFIX))
        continue;
      id = g_strndup (name, strlen (name) - strlen (ENVELOPE_SUFFIX));
      if (valid_id (id))
        g_ptr_array_add (ids, g_steal_pointer (&id));
    }

  g_ptr_array_sort (ids, compare_strings);
  return ids;
}

GPtrArray *
fc_outbox_list (FcOutbox *self)
{
  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  return list_dir (self->dir);
}

GPtrArray *
fc_outbox_list_rejected (FcOutbox *self)
{
  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  return list_dir (self->rejected_dir);
}

static gboolean
check_id (const char  *id,
          GError     **error)
{
  if (!valid_id (id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an outbox entry"), id ? id : "(null)");
      return FALSE;
    }
  return TRUE;
}

GBytes *
fc_outbox_load (FcOutbox    *self,
                const char  *id,
                GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);

  if (!check_id (id, error))
    return NULL;

  path = path_for (self->dir, id, ENVELOPE_SUFFIX);
  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;

  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

static gboolean
unlink_if_exists (const char  *path,
                  GError     **error)
{
  if (g_unlink (path) != 0 && errno != ENOENT)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot remove %s: %s"), path, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

gboolean
fc_outbox_remove (FcOutbox    *self,
                  const char  *id,
                  GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *note = NULL;
  g_autofree char *destination = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);

  if (!check_id (id, error))
    return FALSE;

  path = path_for (self->dir, id, ENVELOPE_SUFFIX);
  note = path_for (self->dir, id, NOTE_SUFFIX);
  destination = path_for (self->dir, id, DESTINATION_SUFFIX);

  /* The envelope goes first: a stale note is harmless, a stale envelope is sent twice. */
  return unlink_if_exists (path, error) && unlink_if_exists (note, error) && unlink_if_exists (destination, error);
}

gboolean
fc_outbox_reject (FcOutbox    *self,
                  const char  *id,
                  const char  *reason,
                  GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dest = NULL;
  g_autofree char *reason_path = NULL;
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);

  if (!check_id (id, error) || !ensure_dir (self->rejected_dir, error))
    return FALSE;

  path = path_for (self->dir, id, ENVELOPE_SUFFIX);
  dest = path_for (self->rejected_dir, id, ENVELOPE_SUFFIX);
  reason_path = path_for (self->rejected_dir, id, REASON_SUFFIX);
  note = path_for (self->dir, id, NOTE_SUFFIX);

  /* The reason is written first so a rejected envelope never lacks one. */
  text = g_strdup_printf ("%s\n", reason ? reason : "rejected");
  if (!fc_atomic_file_write (reason_path, text, strlen (text), error))
    return FALSE;

  if (g_rename (path, dest) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot move %s to %s: %s"), path, dest, g_strerror (errsv));
      return FALSE;
    }
  /* its destination along, for a Retry (none for an entry of an older version) */
  {
    g_autofree char *from = path_for (self->dir, id, DESTINATION_SUFFIX);
    g_autofree char *to = path_for (self->rejected_dir, id, DESTINATION_SUFFIX);

    g_rename (from, to);
  }

  /* The move is on disk before anyone is told: a rejected envelope that came
   * back after a power cut would be sent again. */
  return fc_atomic_file_sync_dir (self->rejected_dir, error) &&
         fc_atomic_file_sync_dir (self->dir, error) &&
         unlink_if_exists (note, error);
}

void
fc_outbox_set_note (FcOutbox   *self,
                    const char *id,
                    const char *note)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (FC_IS_OUTBOX (self));
  g_return_if_fail (valid_id (id));

  path = path_for (self->dir, id, NOTE_SUFFIX);

  if (note == NULL)
    unlink_if_exists (path, NULL);
  else if (!fc_atomic_file_write (path, note, strlen (note), &error))
    g_debug ("Cannot write outbox note %s: %s", path, error->message);
}

static char *
read_text (const char *path)
{
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return g_strdup (g_strstrip (contents));
}

char *
fc_outbox_dup_note (FcOutbox   *self,
                    const char *id)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  g_return_val_if_fail (valid_id (id), NULL);

  path = path_for (self->dir, id, NOTE_SUFFIX);
  return read_text (path);
}

char *
fc_outbox_dup_destination (FcOutbox   *self,
                           const char *id,
                           gboolean    rejected)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  g_return_val_if_fail (valid_id (id), NULL);

  path = path_for (rejected ? self->rejected_dir : self->dir, id, DESTINATION_SUFFIX);
  text = read_text (path);
  return text != NULL && *text != '\0' ? g_steal_pointer (&text) : NULL;
}

gboolean
fc_outbox_set_destination (FcOutbox    *self,
                           const char  *id,
                           const char  *destination,
                           GError     **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);
  g_return_val_if_fail (destination != NULL && *destination != '\0', FALSE);

  if (!check_id (id, error))
    return FALSE;
  path = path_for (self->dir, id, DESTINATION_SUFFIX);
  return fc_atomic_file_write (path, destination, strlen (destination), error);
}

char *
fc_outbox_dup_rejected_reason (FcOutbox   *self,
                               const char *id)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);
  g_return_val_if_fail (valid_id (id), NULL);

  path = path_for (self->rejected_dir, id, REASON_SUFFIX);
  return read_text (path);
}

/* -- claims -- */

struct _FcOutboxClaim
{
  FcOutbox *outbox;
  char     *id;
  int       fd;       /* holds the flock; closing it releases the claim */
};

FcOutboxClaim *
fc_outbox_claim (FcOutbox    *self,
                 const char  *id,
                 GError     **error)
{
  g_autofree char *path = NULL;
  FcOutboxClaim *claim;
  struct stat fd_st;
  struct stat path_st;
  int fd;

  g_return_val_if_fail (FC_IS_OUTBOX (self), NULL);

  if (!check_id (id, error))
    return NULL;

  path = path_for (self->dir, id, ENVELOPE_SUFFIX);

  /* O_CLOEXEC: a profiled program spawned meanwhile must not inherit the claim. */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0);
  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, errsv == ENOENT ? G_IO_ERROR_NOT_FOUND : g_io_error_from_errno (errsv),
                   _("Cannot open the outbox entry %s: %s"), path, g_strerror (errsv));
      return NULL;
    }

  while (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int errsv = errno;

      if (errsv == EINTR)
        continue;
      close (fd);
      if (errsv == EWOULDBLOCK)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                     _("The outbox entry %s is being sent by another process"), id);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                     _("Cannot claim the outbox entry %s: %s"), path, g_strerror (errsv));
      return NULL;
    }

  /* The previous holder may have delivered (unlinked) or rejected (moved)
   * the entry between our open() and our flock(): then the file we locked
   * is no longer the entry, and sending it would send it twice. */
  if (fstat (fd, &fd_st) != 0 || fd_st.st_nlink == 0 ||
      g_stat (path, &path_st) != 0 ||
      fd_st.st_dev != path_st.st_dev || fd_st.st_ino != path_st.st_ino)
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The outbox entry %s was handled by another process"), id);
      return NULL;
    }
  /* Not ours: someone else put it there to have it sent (with our
   * credentials, to our project); it is left where it is. */
  if (fd_st.st_uid != geteuid ())
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("The outbox entry %s belongs to another user (uid %u): not sent"), id, (guint) fd_st.st_uid);
      return NULL;
    }

  claim = g_new0 (FcOutboxClaim, 1);
  claim->outbox = g_object_ref (self);
  claim->id = g_strdup (id);
  claim->fd = fd;

  return claim;
}

const char *
fc_outbox_claim_get_id (FcOutboxClaim *claim)
{
  g_return_val_if_fail (claim != NULL, NULL);
  return claim->id;
}

GBytes *
fc_outbox_claim_load (FcOutboxClaim  *claim,
                      GError        **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  guint8 buf[64 * 1024];
  off_t offset = 0;

  g_return_val_if_fail (claim != NULL, NULL);

  /* pread: the claim's file offset is not ours to move between calls. */
  for (;;)
    {
      ssize_t n = pread (claim->fd, buf, sizeof buf, offset);

      if (n < 0)
        {
          int errsv = errno;

          if (errsv == EINTR)
            continue;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Cannot read the outbox entry %s in %s: %s"),
                       claim->id, claim->outbox->dir, g_strerror (errsv));
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (data, buf, n);
      offset += n;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

void
fc_outbox_claim_release (FcOutboxClaim *claim)
{
  if (claim == NULL)
    return;

  /* Closing the only descriptor of this open file description drops the flock. */
  close (claim->fd);
  g_object_unref (claim->outbox);
  g_free (claim->id);
  g_free (claim);
}

/* -- what the user decides -- */

gboolean
fc_outbox_discard (FcOutbox    *self,
                   const char  *id,
                   GError     **error)
{
  g_autoptr(FcOutboxClaim) claim = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);

  /* Claimed first: an envelope on its way out is not pulled from under the sender. */
  claim = fc_outbox_claim (self, id, error);
  if (claim == NULL)
    return FALSE;

  return fc_outbox_remove (self, id, error);
}

gboolean
fc_outbox_discard_rejected (FcOutbox    *self,
                            const char  *id,
                            GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *destination = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);

  if (!check_id (id, error))
    return FALSE;

  path = path_for (self->rejected_dir, id, ENVELOPE_SUFFIX);
  reason = path_for (self->rejected_dir, id, REASON_SUFFIX);
  destination = path_for (self->rejected_dir, id, DESTINATION_SUFFIX);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("No rejected envelope %s in %s"), id, self->rejected_dir);
      return FALSE;
    }

  return unlink_if_exists (path, error) && unlink_if_exists (reason, error) &&
         unlink_if_exists (destination, error);
}

gboolean
fc_outbox_requeue_rejected (FcOutbox    *self,
                            const char  *id,
                            GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dest = NULL;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (FC_IS_OUTBOX (self), FALSE);

  if (!check_id (id, error) || !ensure_dir (self->dir, error))
    return FALSE;

  path = path_for (self->rejected_dir, id, ENVELOPE_SUFFIX);
  dest = path_for (self->dir, id, ENVELOPE_SUFFIX);
  reason = path_for (self->rejected_dir, id, REASON_SUFFIX);

  /* the destination before the envelope, as when it was added */
  {
    g_autofree char *from = path_for (self->rejected_dir, id, DESTINATION_SUFFIX);
    g_autofree char *to = path_for (self->dir, id, DESTINATION_SUFFIX);

    g_rename (from, to);
  }
  if (g_rename (path, dest) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot move %s back to %s: %s"), path, dest, g_strerror (errsv));
      return FALSE;
    }

  return fc_atomic_file_sync_dir (self->dir, error) &&
         fc_atomic_file_sync_dir (self->rejected_dir, error) &&
         unlink_if_exists (reason, error);
}
