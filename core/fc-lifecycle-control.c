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

#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>

#include "fc-lifecycle-control.h"

struct _FcLifecycleControl
{
  GObject           parent_instance;

  FcLifecycle      *lifecycle;
  char             *path;
  gboolean          created;
  GDataInputStream *input;
  GCancellable     *cancellable;
  guint             n_commands;
};

G_DEFINE_FINAL_TYPE (FcLifecycleControl, fc_lifecycle_control, G_TYPE_OBJECT)

static void
fc_lifecycle_control_dispose (GObject *object)
{
  FcLifecycleControl *self = (FcLifecycleControl *)object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (fc_lifecycle_control_parent_class)->dispose (object);
}

static void
fc_lifecycle_control_finalize (GObject *object)
{
  FcLifecycleControl *self = (FcLifecycleControl *)object;

  if (self->created && self->path != NULL)
    g_unlink (self->path);

  g_clear_object (&self->input);
  g_clear_object (&self->cancellable);
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
                       "%s: “%s” needs a span name", self->path ? self->path : "control", copy);
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
                           "%s: no active span “%s” to end", self->path ? self->path : "control", name);
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
               "%s: unknown command “%s” (expected begin NAME, end NAME, start or stop)",
               self->path ? self->path : "control", line);
  return FALSE;
}

static void read_next (FcLifecycleControl *self);

/* The pending read holds only a weak reference: dropping the last strong
 * one disposes the control, which cancels the read. */
static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcLifecycleControl) self = g_weak_ref_get (weak);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize len;

  g_weak_ref_clear (weak);
  g_free (weak);

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, &len, &error);

  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL)
    {
      g_warning ("Stopped reading span commands from %s: %s", self->path, error->message);
      return;
    }

  /* The FIFO is also open for writing by us, so EOF should not happen; if it does, stop. */
  if (line == NULL)
    return;

  if (!fc_lifecycle_control_handle_line (self, line, &error))
    g_warning ("%s", error->message);

  read_next (self);
}

static void
read_next (FcLifecycleControl *self)
{
  GWeakRef *weak;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  g_data_input_stream_read_line_async (self->input, G_PRIORITY_DEFAULT, self->cancellable,
                                       read_line_cb, weak);
}

FcLifecycleControl *
fc_lifecycle_control_new (FcLifecycle  *lifecycle,
                          const char   *path,
                          GError      **error)
{
  g_autoptr(FcLifecycleControl) self = NULL;
  g_autoptr(GInputStream) base = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (FC_IS_LIFECYCLE (lifecycle), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (FC_TYPE_LIFECYCLE_CONTROL, NULL);
  self->lifecycle = g_object_ref (lifecycle);
  self->path = g_strdup (path);
  self->cancellable = g_cancellable_new ();

  if (mkfifo (path, 0600) == 0)
    self->created = TRUE;
  else if (errno != EEXIST)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot create the control FIFO %s: %s", path, g_strerror (errsv));
      return NULL;
    }

  /* Read and write: opening does not wait for a writer, and writers closing
   * their end never makes us see EOF. */
  fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot open the control FIFO %s: %s", path, g_strerror (errsv));
      return NULL;
    }

  if (fstat (fd, &st) != 0 || !S_ISFIFO (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s is not a FIFO (create one with mkfifo, or give a path that does not exist)", path);
      return NULL;
    }

  base = g_unix_input_stream_new (fd, TRUE);
  self->input = g_data_input_stream_new (base);
  g_data_input_stream_set_newline_type (self->input, G_DATA_STREAM_NEWLINE_TYPE_ANY);

  read_next (self);

  return g_steal_pointer (&self);
}

guint
fc_lifecycle_control_get_n_commands (FcLifecycleControl *self)
{
  g_return_val_if_fail (FC_IS_LIFECYCLE_CONTROL (self), 0);
  return self->n_commands;
}
