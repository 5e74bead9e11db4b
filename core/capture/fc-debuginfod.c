/* fc-debuginfod.c - debug info fetched by build-id from debuginfod servers, in the background
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fetches run on a pool of two threads, never on the sampler's or the
 * recorder's: a slow or dead server (libdebuginfod waits DEBUGINFOD_TIMEOUT,
 * 90 s by default, for a silent one) only delays names, never samples.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>
#include <glib/gi18n-lib.h>

#include "fc-debuginfod.h"

typedef enum {
  ENTRY_PENDING,
  ENTRY_FOUND,
  ENTRY_FAILED,
} EntryState;

typedef struct {
  char       *build_id;   /* hex */
  guint8     *raw;
  gsize       len;
  char       *module;
  EntryState  state;
  char       *path;       /* ENTRY_FOUND: in the client's cache */
  char       *error;      /* ENTRY_FAILED */
  gint        downloaded; /* bytes came over the network (atomic: set while fetching) */
} Entry;

static GMutex lock;
static GCond changed;
static GHashTable *entries;   /* hex build-id -> Entry */
static GThreadPool *pool;
static gint generation;
static FcDebuginfod *default_instance;   /* under lock */
static gboolean notify_pending;          /* under lock: one idle at a time */

struct _FcDebuginfod
{
  GObject               parent_instance;

  GMainContext         *context;
  FcDebuginfodProgress  shown;   /* as last notified */
};

G_DEFINE_FINAL_TYPE (FcDebuginfod, fc_debuginfod, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_N_ASKED,
  PROP_N_PENDING,
  PROP_N_FOUND,
  PROP_N_FAILED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
fc_debuginfod_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  FcDebuginfod *self = FC_DEBUGINFOD (object);

  switch (prop_id)
    {
    case PROP_N_ASKED:
      g_value_set_uint (value, self->shown.n_asked);
      break;
    case PROP_N_PENDING:
      g_value_set_uint (value, self->shown.n_pending);
      break;
    case PROP_N_FOUND:
      g_value_set_uint (value, self->shown.n_found);
      break;
    case PROP_N_FAILED:
      g_value_set_uint (value, self->shown.n_failed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_debuginfod_class_init (FcDebuginfodClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = fc_debuginfod_get_property;
  properties[PROP_N_ASKED] = g_param_spec_uint ("n-asked", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_PENDING] = g_param_spec_uint ("n-pending", NULL, NULL, 0, G_MAXUINT, 0,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_FOUND] = g_param_spec_uint ("n-found", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_FAILED] = g_param_spec_uint ("n-failed", NULL, NULL, 0, G_MAXUINT, 0,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_debuginfod_init (FcDebuginfod *self)
{
}

/* in the default instance's context: the counts as they are now, each changed one notified */
static gboolean
notify_idle_cb (gpointer user_data)
{
  FcDebuginfod *self = user_data;
  FcDebuginfodProgress now, was = self->shown;

  g_mutex_lock (&lock);
  notify_pending = FALSE;
  g_mutex_unlock (&lock);
  fc_debuginfod_get_progress (&now);
  self->shown = now;
  g_object_freeze_notify (G_OBJECT (self));
  if (now.n_asked != was.n_asked)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ASKED]);
  if (now.n_pending != was.n_pending)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PENDING]);
  if (now.n_found != was.n_found)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FOUND]);
  if (now.n_failed != was.n_failed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FAILED]);
  g_object_thaw_notify (G_OBJECT (self));
  return G_SOURCE_REMOVE;
}

/* under lock, from any thread: the counts changed */
static void
schedule_notify_locked (void)
{
  g_autoptr(GSource) idle = NULL;

  if (default_instance == NULL || notify_pending)
    return;
  notify_pending = TRUE;
  idle = g_idle_source_new ();
  /* not after redraws: a window animating its progress would starve an idle-priority one */
  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_static_name (idle, "[flamecast] debuginfod progress");
  g_source_set_callback (idle, notify_idle_cb, default_instance, NULL);
  g_source_attach (idle, default_instance->context);
}

FcDebuginfod *
fc_debuginfod_get_default (void)
{
  FcDebuginfod *self;

  g_mutex_lock (&lock);
  if (default_instance == NULL)
    {
      default_instance = g_object_new (FC_TYPE_DEBUGINFOD, NULL);
      default_instance->context = g_main_context_ref_thread_default ();
      /* fetches asked for before: their counts too */
      schedule_notify_locked ();
    }
  self = default_instance;
  g_mutex_unlock (&lock);
  return self;
}

static void
entry_free (Entry *e)
{
  g_free (e->build_id);
  g_free (e->raw);
  g_free (e->module);
  g_free (e->path);
  g_free (e->error);
  g_free (e);
}

gboolean
fc_debuginfod_enabled (void)
{
  const char *urls = g_getenv ("DEBUGINFOD_URLS");

  return urls != NULL && *urls != '\0';
}

static char *
hex (const guint8 *id,
     gsize         len)
{
  GString *s = g_string_sized_new (len * 2);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (s, "%02x", id[i]);
  return g_string_free (s, FALSE);
}

/* called by libdebuginfod while bytes arrive */
static int
progress_cb (debuginfod_client *client,
             long               done,
             long               total)
{
  Entry *e = debuginfod_get_user_data (client);

  g_atomic_int_set (&e->downloaded, TRUE);
  return 0;
}

static void
fetch_cb (gpointer data,
          gpointer user_data)
{
  Entry *e = data;
  debuginfod_client *client = debuginfod_begin ();
  char *path = NULL;
  int fd = -1;

  if (client != NULL)
    {
      /* e is not freed while entries lives, and its fields below are this thread's until done */
      debuginfod_set_user_data (client, e);
      debuginfod_set_progressfn (client, progress_cb);
      fd = debuginfod_find_debuginfo (client, e->raw, e->len, &path);
    }
  g_mutex_lock (&lock);
  if (fd >= 0)
    {
      close (fd);
      e->path = g_strdup (path);
      e->state = ENTRY_FOUND;
      g_atomic_int_inc (&generation);
    }
  else
    {
      e->error = g_strdup (client == NULL ? _("the debuginfod client could not start")
                                          : g_strerror (-fd));
      e->state = ENTRY_FAILED;
    }
  g_cond_broadcast (&changed);
  schedule_notify_locked ();
  g_mutex_unlock (&lock);
  free (path);
  if (client != NULL)
    debuginfod_end (client);
}

void
fc_debuginfod_request (const guint8 *build_id,
                       gsize         len,
                       const char   *module)
{
  g_autofree char *id = NULL;
  Entry *e;

  g_return_if_fail (build_id != NULL && len > 0);

  if (!fc_debuginfod_enabled ())
    return;
  id = hex (build_id, len);
  g_mutex_lock (&lock);
  if (entries == NULL)
    entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) entry_free);
  if (pool == NULL)
    pool = g_thread_pool_new (fetch_cb, NULL, 2, FALSE, NULL);
  if (g_hash_table_lookup (entries, id) != NULL)
    {
      g_mutex_unlock (&lock);
      return;
    }
  e = g_new0 (Entry, 1);
  e->build_id = g_steal_pointer (&id);
  e->raw = g_memdup2 (build_id, len);
  e->len = len;
  e->module = g_strdup (module);
  e->state = ENTRY_PENDING;
  g_hash_table_insert (entries, e->build_id, e);
  g_thread_pool_push (pool, e, NULL);
  schedule_notify_locked ();
  g_mutex_unlock (&lock);
}

char *
fc_debuginfod_wait (const guint8 *build_id,
                    gsize         len,
                    gint64        deadline_us)
{
  g_autofree char *id = hex (build_id, len);
  char *path = NULL;
  Entry *e;

  g_mutex_lock (&lock);
  while (entries != NULL && (e = g_hash_table_lookup (entries, id)) != NULL && e->state == ENTRY_PENDING)
    if (!g_cond_wait_until (&changed, &lock, deadline_us))
      break;
  if (entries != NULL && (e = g_hash_table_lookup (entries, id)) != NULL && e->state == ENTRY_FOUND)
    path = g_strdup (e->path);
  g_mutex_unlock (&lock);
  return path;
}

guint
fc_debuginfod_get_generation (void)
{
  /* read at every symbol lookup: no lock */
  return g_atomic_int_get (&generation);
}

void
fc_debuginfod_get_progress (FcDebuginfodProgress *progress)
{
  GHashTableIter iter;
  Entry *e;

  memset (progress, 0, sizeof *progress);
  g_mutex_lock (&lock);
  if (entries != NULL)
    {
      g_hash_table_iter_init (&iter, entries);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
        {
          progress->n_asked++;
          progress->n_pending += e->state == ENTRY_PENDING;
          progress->n_found += e->state == ENTRY_FOUND;
          progress->n_downloaded += e->state == ENTRY_FOUND && g_atomic_int_get (&e->downloaded);
          progress->n_failed += e->state == ENTRY_FAILED;
        }
    }
  g_mutex_unlock (&lock);
}

char *
fc_debuginfod_dup_summary (void)
{
  FcDebuginfodProgress p;
  g_autoptr(GString) failed = g_string_new (NULL);
  GString *s;
  GHashTableIter iter;
  Entry *e;
  guint shown = 0;

  fc_debuginfod_get_progress (&p);
  if (p.n_asked == 0)
    return NULL;
  g_mutex_lock (&lock);
  g_hash_table_iter_init (&iter, entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
    if (e->state == ENTRY_FAILED && shown++ < 3)
      g_string_append_printf (failed, "%s%s (%s)", failed->len > 0 ? ", " : "", e->module, e->error);
  g_mutex_unlock (&lock);

  s = g_string_new (NULL);
  g_string_append_printf (s, ngettext ("debuginfod: debug info for %u of %u module without it",
                                       "debuginfod: debug info for %u of %u modules without it", p.n_asked),
                          p.n_found, p.n_asked);
  g_string_append_printf (s, _(" (%u downloaded, %u from the cache"), p.n_downloaded, p.n_found - p.n_downloaded);
  if (p.n_pending > 0)
    g_string_append_printf (s, _(", %u still being fetched"), p.n_pending);
  g_string_append_c (s, ')');
  if (failed->len > 0)
    g_string_append_printf (s, _("; not found: %s"), failed->str);
  return g_string_free (s, FALSE);
}
