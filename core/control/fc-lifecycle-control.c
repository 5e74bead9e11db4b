/* fc-lifecycle-control.c - drive a lifecycle from text commands on a FIFO
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "flamecast-lifecycle"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "fc-lifecycle-control.h"

struct _FcLifecycleControl
{
  GObject           parent_instance;

  FcLifecycle      *lifecycle;
  char             *path;
  gboolean          created;
  int               fd;
  guint             watch_id;
  GString          *pending;    /* bytes after the last complete line */
  guint             n_commands;
};

G_DEFINE_FINAL_TYPE (FcLifecycleControl, fc_lifecycle_control, G_TYPE_OBJECT)

static void
fc_lifecycle_control_dispose (GObject *object)
{
  FcLifecycleControl *self = (FcLifecycleControl *)object;

  g_clear_handle_id (&self->watch_id, g_source_remove);

  G_OBJECT_CLASS (fc_lifecycle_control_parent_class)->dispose (object);
}

static void
fc_lifecycle_control_finalize (GObject *object)
{
  FcLifecycleControl *self = (FcLifecycleControl *)object;

  if (self->created && self->path != NULL)
    g_unlink (self->path);

  if (self->fd >= 0)
    close (self->fd);
  g_string_free (self->pending, TRUE);
  g_clear_object (&self->lifecycle);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (fc_lifecycle_control_parent_class)->finalize (object);
}

static void
fc_lifecycle_control_class_init (FcLifecycleControlClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fc_lifecycle_control_dispose;
  object_class->finalize = fc_lifecycle_control_finalize;
}

static void
fc_lifecycle_control_init (FcLifecycleControl *self)
{
  self->fd = -1;
  self->pending = g_string_new (NULL);
}

gboolean
fc_lifecycle_control_handle_line (FcLifecycleControl  *self,
                                  const char          *line,
                                  GError             **error)
{
  g_autofree char *copy = NULL;
  const char *name;
  char *space;

  g_return_val_if_fail (FC_IS_LIFECYCLE_CONTROL (self), FALSE);
  g_return_val_if_fail (line != NULL, FALSE);

  copy = g_strstrip (g_strdup (line));
  if (copy[0] == '\0' || copy[0] == '#')
    return TRUE;

  space = strchr (copy, ' ');
  name = "";
  if (space != NULL)
    {
      *space = '\0';
      name = g_strstrip (space + 1);
    }

  self->n_commands++;

  if (strcmp (copy, "begin") == 0 || strcmp (copy, "end") == 0)
    {
      if (name[0] == '\0')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: “%s” needs a span name"), self->path ? self->path : "control", copy);
          return FALSE;
        }

      if (copy[0] == 'b')
        fc_lifecycle_begin_root_span (self->lifecycle, name);
      else
        {
          guint id = fc_lifecycle_find_root_span (self->lifecycle, name);

          if (id == 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("%s: no active span “%s” to end"), self->path ? self->path : "control", name);
              return FALSE;
            }
          fc_lifecycle_end_root_span (self->lifecycle, id);
        }
      return TRUE;
    }

  if (strcmp (copy, "start") == 0 && name[0] == '\0')
    {
      fc_lifecycle_start_profiler (self->lifecycle);
      return TRUE;
    }

  if (strcmp (copy, "stop") == 0 && name[0] == '\0')
    {
      fc_lifecycle_stop_profiler (self->lifecycle);
      return TRUE;
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s: unknown command “%s” (expected begin NAME, end NAME, start or stop)"),
               self->path ? self->path : "control", line);
  return FALSE;
}

void
fc_lifecycle_control_drain (FcLifecycleControl *self)
{
  char buf[4096];
  char *nl;

  g_return_if_fail (FC_IS_LIFECYCLE_CONTROL (self));

  /* The fd is non-blocking: read what writers have written so far. */
  for (;;)
    {
      gssize n = read (self->fd, buf, sizeof buf);

      if (n > 0)
        g_string_append_len (self->pending, buf, n);
      else if (n < 0 && errno == EINTR)
        continue;
      else
        break;
    }

  while ((nl = memchr (self->pending->str, '\n', self->pending->len)) != NULL)
    {
      g_autofree char *line = g_strndup (self->pending->str, nl - self->pending->str);
      g_autoptr(GError) error = NULL;

      g_string_erase (self->pending, 0, nl - self->pending->str + 1);
      if (!g_utf8_validate (line, -1, NULL))
        g_warning ("%s: ignoring a line that is not UTF-8", self->path);
      else if (!fc_lifecycle_control_handle_line (self, line, &error))
        g_warning ("%s", error->message);
    }
}

static gboolean
fd_ready_cb (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  fc_lifecycle_control_drain (user_data);
  return G_SOURCE_CONTINUE;
}

FcLifecycleControl *
fc_lifecycle_control_new (FcLifecycle  *lifecycle,
                          const char   *path,
                          GError      **error)
{
  g_autoptr(FcLifecycleControl) self = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (FC_IS_LIFECYCLE (lifecycle), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (FC_TYPE_LIFECYCLE_CONTROL, NULL);
  self->lifecycle = g_object_ref (lifecycle);
  self->path = g_strdup (path);

  if (mkfifo (path, 0600) == 0)
    self->created = TRUE;
  else if (errno != EEXIST)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot create the control FIFO %s: %s"), path, g_strerror (errsv));
      return NULL;
    }

  /* Read and write: opening does not wait for a writer, and writers closing
   * their end never makes us see EOF. */
  fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot open the control FIFO %s: %s"), path, g_strerror (errsv));
      return NULL;
    }

  if (fstat (fd, &st) != 0 || !S_ISFIFO (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s is not a FIFO (create one with mkfifo, or give a path that does not exist)"), path);
      return NULL;
    }

  self->fd = fd;
  self->watch_id = g_unix_fd_add (fd, G_IO_IN, fd_ready_cb, self);

  return g_steal_pointer (&self);
}

guint
fc_lifecycle_control_get_n_commands (FcLifecycleControl *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE_CONTROL (self), 0);
  return self->n_commands;
}
