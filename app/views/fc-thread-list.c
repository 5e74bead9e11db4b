/* fc-thread-list.c - a profile's threads in the order the thread selector shows them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>

#include "fc-format.h"
#include "fc-session.h"
#include "fc-thread-list.h"

struct _FcThreadItem
{
  GObject   parent_instance;

  char     *name;
  char     *tid;
  char     *heading;
  char     *search_key;    /* casefolded name and tid */
  gint64    duration_ns;
  gint      index;
  guint32   name_id;       /* the profile's string id of the name, for fc_thread_list_refresh() */
  guint     n_samples;
  guint     is_default : 1;
  guint     is_active : 1;
  guint     is_named : 1;
  guint     is_idle : 1;
};

G_DEFINE_FINAL_TYPE (FcThreadItem, fc_thread_item, G_TYPE_OBJECT)

static void
fc_thread_item_finalize (GObject *object)
{
  FcThreadItem *self = (FcThreadItem *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->tid, g_free);
  g_clear_pointer (&self->heading, g_free);
  g_clear_pointer (&self->search_key, g_free);

  G_OBJECT_CLASS (fc_thread_item_parent_class)->finalize (object);
}

static void
fc_thread_item_class_init (FcThreadItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_thread_item_finalize;
}

static void
fc_thread_item_init (FcThreadItem *self)
{
}

gint
fc_thread_item_get_index (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), FC_SESSION_ALL_THREADS);
  return self->index;
}

const char *
fc_thread_item_get_name (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), NULL);
  return self->name;
}

const char *
fc_thread_item_get_tid (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), NULL);
  return self->tid;
}

guint
fc_thread_item_get_n_samples (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), 0);
  return self->n_samples;
}

gint64
fc_thread_item_get_duration_ns (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), 0);
  return self->duration_ns;
}

gboolean
fc_thread_item_get_is_default (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), FALSE);
  return self->is_default;
}

gboolean
fc_thread_item_get_is_active (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), FALSE);
  return self->is_active;
}

gboolean
fc_thread_item_get_is_idle (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), FALSE);
  return self->is_idle;
}

const char *
fc_thread_item_get_heading (FcThreadItem *self)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), NULL);
  return self->heading;
}

/**
 * fc_thread_item_dup_details:
 * @self: a thread item
 *
 * Returns: (transfer full): "tid 1234 · 5,678 samples · 1.23 s"
 */
char *
fc_thread_item_dup_details (FcThreadItem *self)
{
  g_autofree char *duration = NULL;
  g_autofree char *samples = NULL;

  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), NULL);

  duration = fc_format_duration (self->duration_ns);
  samples = g_strdup_printf (ngettext ("%'u sample", "%'u samples", self->n_samples), self->n_samples);

  if (self->tid == NULL)
    return g_strdup_printf ("%s · %s", samples, duration);
  if (self->n_samples == 0)
    return g_strdup_printf (_("tid %s · no samples"), self->tid);

  return g_strdup_printf (_("tid %s · %s · %s"), self->tid, samples, duration);
}

gboolean
fc_thread_item_matches (FcThreadItem *self,
                        const char   *casefolded_text)
{
  g_return_val_if_fail (FC_IS_THREAD_ITEM (self), FALSE);

  if (casefolded_text == NULL || casefolded_text[0] == '\0')
    return TRUE;

  return strstr (self->search_key, casefolded_text) != NULL;
}

static FcThreadItem *
fc_thread_item_new (FcProfile *profile,
                    gint       index)
{
  FcThreadItem *self = g_object_new (FC_TYPE_THREAD_ITEM, NULL);

  self->index = index;

  if (index == FC_SESSION_ALL_THREADS)
    {
      gint64 first, last;

      fc_profile_get_time_range (profile, &first, &last);
      self->name = g_strdup (_("All threads"));
      self->n_samples = fc_profile_get_n_samples (profile);
      self->duration_ns = first <= last ? last - first : 0;
    }
  else
    {
      const FcThread *thread = fc_profile_get_thread (profile, index);
      const char *name = fc_profile_string (profile, thread->name);

      self->name_id = thread->name;
      self->tid = g_strdup (fc_profile_string (profile, thread->tid));
      if (self->tid == NULL)
        self->tid = g_strdup ("?");
      self->is_named = name != NULL && name[0] != '\0';
      self->name = self->is_named ? g_strdup (name) : g_strdup_printf (_("tid %s"), self->tid);
      self->n_samples = thread->n_samples;
      self->duration_ns = thread->n_samples > 0 ? thread->last_ns - thread->first_ns : 0;
    }

  {
    g_autofree char *key = g_strdup_printf ("%s\n%s", self->name, self->tid ? self->tid : "");
    self->search_key = g_utf8_casefold (key, -1);
  }

  return self;
}

/* Thread ids are numbers written as text ("259", "0x1a2b"): compare them as
 * numbers where they parse, so "tid 9" comes before "tid 10". */
static int
compare_tids (const char *a,
              const char *b)
{
  guint64 na, nb;
  char *end_a, *end_b;

  na = g_ascii_strtoull (a, &end_a, 0);
  nb = g_ascii_strtoull (b, &end_b, 0);
  if (*a != '\0' && *end_a == '\0' && *b != '\0' && *end_b == '\0' && na != nb)
    return na < nb ? -1 : 1;

  return strcmp (a, b);
}

static int
compare_items (gconstpointer pa,
               gconstpointer pb)
{
  FcThreadItem *a = *(FcThreadItem **) pa;
  FcThreadItem *b = *(FcThreadItem **) pb;
  int ret;

  /* named before unnamed; named A-Z, unnamed by tid */
  if (a->is_named != b->is_named)
    return a->is_named ? -1 : 1;

  if (a->is_named)
    {
      g_autofree char *ka = g_utf8_collate_key (a->name, -1);
      g_autofree char *kb = g_utf8_collate_key (b->name, -1);

      if ((ret = strcmp (ka, kb)) != 0)
        return ret;
    }

  return compare_tids (a->tid, b->tid);
}

/* A thread that waited (blocked in the kernel, parked) in all but one of
 * 20 samples is idle, as Sentry groups them: listed after the busy ones. */
#define IDLE_SHARE 20

/**
 * fc_thread_list_new:
 * @profile: (nullable): a profile
 * @default_thread: the thread @profile opens on (fc_view_threads_pick_default())
 *
 * The selector's entries, as in Sentry: "All threads", the thread the
 * profile opens on (the active thread, else the busiest), the other named
 * threads A-Z, the unnamed ones by thread id, then under a heading the idle
 * threads in the same order (nearly every sample waits: blocked in the
 * kernel or parked, fc_stats_thread_busy_samples()), and last, under a
 * heading, the threads without samples.
 *
 * Returns: (transfer full): a list of #FcThreadItem, empty for no profile
 */
GListModel *
fc_thread_list_new (FcProfile *profile,
                    gint       default_thread)
{
  GListStore *store = g_list_store_new (FC_TYPE_THREAD_ITEM);
  g_autoptr(GPtrArray) with_samples = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) idle = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) without_samples = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(FcThreadItem) all = NULL;
  g_autoptr(FcThreadItem) first = NULL;
  g_autofree guint *busy = NULL;
  guint n_busy = 0;
  guint n_threads;

  if (profile == NULL)
    return G_LIST_MODEL (store);

  n_threads = fc_profile_get_n_threads (profile);
  busy = fc_stats_thread_busy_samples (profile, &n_busy);

  for (guint i = 0; i < n_threads; i++)
    {
      FcThreadItem *item = fc_thread_item_new (profile, (gint) i);

      if ((gint) i == default_thread)
        {
          const char *active_tid = fc_profile_get_active_thread_id (profile);

          item->is_default = TRUE;
          item->is_active = g_strcmp0 (active_tid, item->tid) == 0;
          first = item;
        }
      else if (item->n_samples > 0 && i < n_busy && busy[i] * IDLE_SHARE < item->n_samples)
        {
          item->is_idle = TRUE;
          g_ptr_array_add (idle, item);
        }
      else if (item->n_samples > 0)
        g_ptr_array_add (with_samples, item);
      else
        g_ptr_array_add (without_samples, item);
    }

  /* four threads all named "xz" are told apart by their tid */
  {
    g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    GPtrArray *groups[] = { with_samples, idle, without_samples };
    g_autoptr(GPtrArray) items = g_ptr_array_new ();

    if (first != NULL)
      g_ptr_array_add (items, first);
    for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
      for (guint i = 0; i < groups[g]->len; i++)
        g_ptr_array_add (items, g_ptr_array_index (groups[g], i));

    for (guint i = 0; i < items->len; i++)
      {
        FcThreadItem *item = g_ptr_array_index (items, i);

        if (item->is_named)
          g_hash_table_insert (counts, g_strdup (item->name),
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, item->name)) + 1));
      }
    for (guint i = 0; i < items->len; i++)
      {
        FcThreadItem *item = g_ptr_array_index (items, i);

        if (item->is_named && GPOINTER_TO_UINT (g_hash_table_lookup (counts, item->name)) > 1)
          {
            char *name = g_strdup_printf ("%s (%s)", item->name, item->tid);

            g_free (item->name);
            item->name = name;
          }
      }
  }

  g_ptr_array_sort (with_samples, compare_items);
  g_ptr_array_sort (idle, compare_items);
  g_ptr_array_sort (without_samples, compare_items);

  all = fc_thread_item_new (profile, FC_SESSION_ALL_THREADS);
  g_list_store_append (store, all);
  if (first != NULL)
    g_list_store_append (store, first);
  g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0,
                       with_samples->pdata, with_samples->len);

  if (idle->len > 0)
    {
      FcThreadItem *head = g_ptr_array_index (idle, 0);

      head->heading = g_strdup (_("Idle threads"));
      g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0, idle->pdata, idle->len);
    }
  if (without_samples->len > 0)
    {
      FcThreadItem *head = g_ptr_array_index (without_samples, 0);

      head->heading = g_strdup (_("Threads without samples"));
      g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0,
                           without_samples->pdata, without_samples->len);
    }

  return G_LIST_MODEL (store);
}

/**
 * fc_thread_list_refresh:
 * @list: a fc_thread_list_new() of @profile
 * @profile: the same profile, grown since (see fc_profile_publish())
 *
 * Brings the items' sample counts and durations up to date, thread by thread
 * and without a walk over the samples: a live view does this several times a
 * second, where a new list would rank the threads (a walk over every sample)
 * and make the list view recreate its rows. Order and default stay as listed.
 *
 * Returns: FALSE when the threads changed in a way that moves items (a thread
 *   started, was named, or got its first samples): then build a new list
 */
gboolean
fc_thread_list_refresh (GListModel *list,
                        FcProfile  *profile)
{
  guint n_items;

  g_return_val_if_fail (G_IS_LIST_MODEL (list), FALSE);
  g_return_val_if_fail (FC_IS_PROFILE (profile), FALSE);

  n_items = g_list_model_get_n_items (list);
  if (n_items != fc_profile_get_n_threads (profile) + 1)
    return FALSE;

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(FcThreadItem) item = g_list_model_get_item (list, i);
      const FcThread *thread;

      if (item->index == FC_SESSION_ALL_THREADS)
        {
          gint64 first, last;

          fc_profile_get_time_range (profile, &first, &last);
          item->n_samples = fc_profile_get_n_samples (profile);
          item->duration_ns = first <= last ? last - first : 0;
          continue;
        }
      thread = fc_profile_get_thread (profile, item->index);
      if (thread->name != item->name_id || (thread->n_samples == 0) != (item->n_samples == 0))
        return FALSE;
      item->n_samples = thread->n_samples;
      item->duration_ns = thread->n_samples > 0 ? thread->last_ns - thread->first_ns : 0;
    }
  return TRUE;
}
