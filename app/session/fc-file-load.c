/* fc-file-load.c - opening a file off the main loop, started before its window exists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-file-load.h"
#include "fc-reader.h"

/*
 * `flamecast FILE` knows the file before GTK starts: reading a 50 MB chunk
 * takes about as long as starting GTK and building the window, so the app
 * starts the load first (main.c) and the window waits for it (the first
 * paint comes that much sooner). Opening from the window starts one too.
 */

struct _FcFileLoad
{
  GObject       parent_instance;

  GFile        *file;
  char        **in_app_prefixes;
  GCancellable *cancellable;

  /* once the worker is done */
  gboolean      done;
  FcDocument   *document;
  FcProfile    *profile;
  FcViewStart   start;
  GError       *error;
  GPtrArray    *waiting;      /* GTask */
};

G_DEFINE_FINAL_TYPE (FcFileLoad, fc_file_load, G_TYPE_OBJECT)

typedef struct {
  FcDocument *document;
  FcProfile  *profile;
  FcViewStart start;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_object (&loaded->document);
  g_clear_object (&loaded->profile);
  g_free (loaded);
}

/**
 * fc_file_load_run:
 * @in_app_prefixes: (nullable): the user's in-app path prefixes (read from
 *   GSettings on the main thread)
 * @document: (out): the document as read
 * @profile: (out): its profiles merged, prepared for the views
 * @start: (out) (optional): the thread @profile opens on and its range
 *
 * The worker's part of opening a file, and of Compare with: read it
 * leniently, merge its profiles, merge frames by function and infer in_app
 * for the views (fc_profile_dup_for_view()), and pick the thread it opens
 * on and that thread's range (fc_view_threads_pick_start(): it reads every
 * sample, so here, off the main loop). Blocks.
 *
 * Returns: %FALSE with @error set when the file cannot be read or holds no profile
 */
gboolean
fc_file_load_run (GFile               *file,
                  const char * const  *in_app_prefixes,
                  GCancellable        *cancellable,
                  FcDocument         **document,
                  FcProfile          **profile,
                  FcViewStart         *start,
                  GError             **error)
{
  g_autoptr(FcDocument) doc = NULL;
  g_autoptr(FcProfile) merged = NULL;
  g_autoptr(FcInAppRules) rules = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  doc = fc_reader_load_file (file, FC_READ_LENIENT, cancellable, error);
  if (doc == NULL)
    return FALSE;

  if (fc_document_get_n_profiles (doc) == 0)
    {
      g_autofree char *name = g_file_get_basename (file);

      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, _("%s: the file holds no profile"), name);
      return FALSE;
    }

  merged = fc_document_dup_merged_profile (doc);
  rules = fc_in_app_rules_new (in_app_prefixes);
  /* Views merge by function, not by call site or address, and know your
   * code where the SDK left in_app out. */
  *profile = fc_profile_dup_for_view (merged, rules);
  if (start != NULL)
    fc_view_threads_pick_start (*profile, start);
  *document = g_steal_pointer (&doc);
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FcFileLoad *self = source_object;
  Loaded *loaded = g_new0 (Loaded, 1);
  GError *error = NULL;

  if (!fc_file_load_run (self->file, (const char * const *) self->in_app_prefixes, cancellable,
                         &loaded->document, &loaded->profile, &loaded->start, &error))
    {
      loaded_free (loaded);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, loaded, (GDestroyNotify) loaded_free);
}

static void
complete (FcFileLoad *self,
          GTask      *task)
{
  if (self->error != NULL)
    g_task_return_error (task, g_error_copy (self->error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  FcFileLoad *self = FC_FILE_LOAD (source);
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &self->error);

  if (loaded != NULL)
    {
      self->document = g_steal_pointer (&loaded->document);
      self->profile = g_steal_pointer (&loaded->profile);
      self->start = loaded->start;
      loaded_free (loaded);
    }
  self->done = TRUE;
  for (guint i = 0; i < self->waiting->len; i++)
    complete (self, g_ptr_array_index (self->waiting, i));
  g_ptr_array_set_size (self->waiting, 0);
}

/**
 * fc_file_load_new:
 * @in_app_prefixes: (nullable): the user's in-app path prefixes
 *
 * Starts opening @file (fc_file_load_run()) on a worker at once. Cancel it
 * through fc_file_load_get_cancellable(). Call from the thread whose main
 * context runs the waiters' callbacks: the main thread.
 *
 * Returns: (transfer full): the load
 */
FcFileLoad *
fc_file_load_new (GFile              *file,
                  const char * const *in_app_prefixes)
{
  FcFileLoad *self;
  g_autoptr(GTask) task = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (FC_TYPE_FILE_LOAD, NULL);
  self->file = g_object_ref (file);
  self->in_app_prefixes = g_strdupv ((char **) in_app_prefixes);
  self->cancellable = g_cancellable_new ();

  /* the task holds @self until the worker is done */
  task = g_task_new (self, self->cancellable, loaded_cb, NULL);
  g_task_set_source_tag (task, fc_file_load_new);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, load_thread);
  return self;
}

GFile *
fc_file_load_get_file (FcFileLoad *self)
{
  g_return_val_if_fail (FC_IS_FILE_LOAD (self), NULL);

  return self->file;
}

GCancellable *
fc_file_load_get_cancellable (FcFileLoad *self)
{
  g_return_val_if_fail (FC_IS_FILE_LOAD (self), NULL);

  return self->cancellable;
}

/**
 * fc_file_load_wait_async:
 *
 * Calls @callback once the load is done (at once, from an idle, if it
 * already is). Its result's cancellable is the load's.
 */
void
fc_file_load_wait_async (FcFileLoad          *self,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (FC_IS_FILE_LOAD (self));

  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_file_load_wait_async);
  if (self->done)
    complete (self, task);
  else
    g_ptr_array_add (self->waiting, g_steal_pointer (&task));
}

/**
 * fc_file_load_wait_finish:
 *
 * Returns: %TRUE when the document and profile are there, else %FALSE
 *   with the load's error (%G_IO_ERROR_CANCELLED when it was cancelled)
 */
gboolean
fc_file_load_wait_finish (FcFileLoad    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (FC_IS_FILE_LOAD (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * fc_file_load_get_document:
 *
 * Returns: (transfer none) (nullable): the document, once waited for with success
 */
FcDocument *
fc_file_load_get_document (FcFileLoad *self)
{
  g_return_val_if_fail (FC_IS_FILE_LOAD (self), NULL);

  return self->document;
}

/**
 * fc_file_load_get_profile:
 *
 * Returns: (transfer none) (nullable): the merged profile prepared for the
 *   views, once waited for with success
 */
FcProfile *
fc_file_load_get_profile (FcFileLoad *self)
{
  g_return_val_if_fail (FC_IS_FILE_LOAD (self), NULL);

  return self->profile;
}

/**
 * fc_file_load_get_start:
 *
 * Returns: (transfer none): the thread the profile opens on and its range
 *   (fc_view_threads_pick_start()), once waited for with success
 */
const FcViewStart *
fc_file_load_get_start (FcFileLoad *self)
{
  g_return_val_if_fail (FC_IS_FILE_LOAD (self), NULL);

  return &self->start;
}

static void
fc_file_load_dispose (GObject *object)
{
  FcFileLoad *self = FC_FILE_LOAD (object);

  g_clear_pointer (&self->waiting, g_ptr_array_unref);
  G_OBJECT_CLASS (fc_file_load_parent_class)->dispose (object);
}

static void
fc_file_load_finalize (GObject *object)
{
  FcFileLoad *self = FC_FILE_LOAD (object);

  g_clear_object (&self->file);
  g_strfreev (self->in_app_prefixes);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->document);
  g_clear_object (&self->profile);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (fc_file_load_parent_class)->finalize (object);
}

static void
fc_file_load_class_init (FcFileLoadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fc_file_load_dispose;
  object_class->finalize = fc_file_load_finalize;
}

static void
fc_file_load_init (FcFileLoad *self)
{
  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  fc_view_threads_pick_start (NULL, &self->start);
}
