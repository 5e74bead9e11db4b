/* fc-atomic-file.c - files that a crash leaves whole or absent, never half written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * g_file_set_contents_full (CONSISTENT) renames a temporary into place but
 * fsyncs only when the file already existed, and its temporaries are named
 * like the file ("NAME.XXXXXX"). The outbox needs more: a new envelope is
 * acknowledged as saved only once it is on disk, and a killed writer's
 * leftovers must never look like an entry.
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "fc-atomic-file.h"

static gboolean
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *what,
                 const char  *path)
{
  /* A full disk and a file-size limit say what the user can do about it. */
  const char *hint = (errsv == ENOSPC || errsv == EDQUOT || errsv == EFBIG) ? _(" (is the disk full?)") : "";

  /* TRANSLATORS: an action ("create", "open the directory"...), a path, the system's reason, a hint */
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               _("Cannot %s %s: %s%s"), what, path, g_strerror (errsv), hint);
  return FALSE;
}

gboolean
fc_atomic_file_sync_dir (const char  *dir,
                         GError     **error)
{
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  int errsv;

  if (fd < 0)
    return set_errno_error (error, errno, C_("file action", "open the directory"), dir);
  if (fsync (fd) != 0 && errno != EINVAL)   /* EINVAL: a file system without directory fsync */
    {
      errsv = errno;
      close (fd);
      return set_errno_error (error, errsv, C_("file action", "sync the directory"), dir);
    }
  close (fd);
  return TRUE;
}

gboolean
fc_atomic_file_write (const char  *path,
                      const void  *data,
                      gsize        len,
                      GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp_name = g_strdup_printf (".%s.XXXXXX", base);
  g_autofree char *tmp = g_build_filename (dir, tmp_name, NULL);
  const guint8 *p = data;
  gsize left = len;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    return set_errno_error (error, errno, C_("file action", "create"), tmp);

  while (left > 0)
    {
      ssize_t n = write (fd, p, left);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int errsv = n < 0 ? errno : ENOSPC;

          close (fd);
          g_unlink (tmp);
          return set_errno_error (error, errsv, C_("file action", "write"), tmp);
        }
      p += n;
      left -= n;
    }

  /* Data first, then the name: renaming an unsynced file can leave a
   * complete-looking name over empty blocks after a power cut. */
  if (fsync (fd) != 0)
    {
      int errsv = errno;

      close (fd);
      g_unlink (tmp);
      return set_errno_error (error, errsv, C_("file action", "sync"), tmp);
    }
  if (close (fd) != 0)
    {
      int errsv = errno;

      g_unlink (tmp);
      return set_errno_error (error, errsv, C_("file action", "close"), tmp);
    }

  if (g_rename (tmp, path) != 0)
    {
      int errsv = errno;

      g_unlink (tmp);
      return set_errno_error (error, errsv, C_("file action", "rename the new file to"), path);
    }

  return fc_atomic_file_sync_dir (dir, error);
}

gboolean
fc_atomic_file_is_temp_of (const char *temp_name,
                           const char *suffix)
{
  g_autofree char *needle = g_strconcat (suffix, ".", NULL);
  const char *at;

  if (temp_name[0] != '.')
    return FALSE;
  at = g_strrstr (temp_name, needle);
  /* ".NAME" + suffix + "." + the six characters of g_mkstemp() */
  return at != NULL && at > temp_name + 1 && strlen (at + strlen (needle)) == 6;
}
