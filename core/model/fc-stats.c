/* fc-stats.c - summaries of a profile: top functions, busiest thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-stats.h"

guint *
fc_stats_thread_samples (FcProfile *profile,
                         guint     *n_threads)
{
  guint n = fc_profile_get_n_threads (profile);
  guint n_samples = 0;
  const FcSample *samples = fc_profile_get_samples (profile, &n_samples);
  guint *counts = g_new0 (guint, MAX (n, 1));

  for (guint i = 0; i < n_samples; i++)
    {
      if (samples[i].thread < n)
        counts[samples[i].thread]++;
    }
  if (n_threads != NULL)
    *n_threads = n;
  return counts;
}

/* Leaf functions a thread waits in (blocked in the kernel or parked), by
 * name with leading underscores and a "_nocancel" suffix dropped: the
 * syscall wrappers of glibc and musl, the pthread and GLib waits built on
 * them, and the names Python, Java and V8 give waiting. */
static const char * const idle_functions[] = {
  "accept", "accept4", "clock_nanosleep", "epoll_pwait", "epoll_pwait2", "epoll_wait", "g_cond_wait",
  "g_cond_wait_until", "g_poll", "nanosleep", "park", "pause", "poll", "ppoll", "pselect", "pselect6",
  "pthread_cond_clockwait", "pthread_cond_timedwait", "pthread_cond_wait", "pthread_join", "read", "recv",
  "recvfrom", "recvmsg", "select", "sem_clockwait", "sem_timedwait", "sem_wait", "sigsuspend",
  "sigtimedwait", "sigwait", "sigwaitinfo", "sleep", "syscall", "usleep", "wait", "wait4",
  "wait_for_tstate_lock", "waitid", "waitpid", "(idle)",
};

/* also by prefix: futex_wait, __futex_abstimed_wait_common64, __lll_lock_wait_private... */
static const char * const idle_prefixes[] = { "futex", "lll_lock_wait", "epoll_wait", };

/**
 * fc_stats_function_is_idle:
 *
 * Whether a leaf function named @name means the thread was waiting, not
 * running: see idle_functions above.
 */
gboolean
fc_stats_function_is_idle (const char *name)
{
  g_autofree char *base = NULL;
  const char *dot;
  gsize len;

  if (name == NULL)
    return FALSE;

  /* "time.sleep", "Unsafe.park", "threading.Condition.wait": the last part */
  dot = strrchr (name, '.');
  if (dot != NULL && dot[1] != '\0')
    name = dot + 1;
  while (*name == '_')
    name++;
  base = g_strdup (name);
  len = strlen (base);
  if (len > 9 && g_str_has_suffix (base, "_nocancel"))
    base[len - 9] = '\0';

  for (guint i = 0; i < G_N_ELEMENTS (idle_functions); i++)
    if (strcmp (base, idle_functions[i]) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (idle_prefixes); i++)
    if (g_str_has_prefix (base, idle_prefixes[i]))
      return TRUE;
  return FALSE;
}

/**
 * fc_stats_thread_busy_samples:
 *
 * Samples per thread that were on CPU: a sample is idle when its stack is
 * empty or its leaf function is a wait (fc_stats_function_is_idle()).
 *
 * Returns: (transfer full): counts indexed by thread
 */
guint *
fc_stats_thread_busy_samples (FcProfile *profile,
                              guint     *n_threads)
{
  guint n = fc_profile_get_n_threads (profile);
  guint n_samples = 0;
  const FcSample *samples = fc_profile_get_samples (profile, &n_samples);
  guint n_stacks = fc_profile_get_n_stacks (profile);
  guint n_frames = fc_profile_get_n_frames (profile);
  guint *counts = g_new0 (guint, MAX (n, 1));
  g_autofree guint8 *frame_idle = g_new0 (guint8, MAX (n_frames, 1));  /* 0 unknown, 1 busy, 2 idle */

  for (guint i = 0; i < n_samples; i++)
    {
      const FcStackNode *leaf;

      if (samples[i].thread >= n || samples[i].stack == FC_STACK_EMPTY || samples[i].stack >= n_stacks)
        continue;
      leaf = fc_profile_get_stack (profile, samples[i].stack);
      if (leaf->frame < n_frames && frame_idle[leaf->frame] == 0)
        {
          const FcFrame *frame = fc_profile_get_frame (profile, leaf->frame);

          frame_idle[leaf->frame] = fc_stats_function_is_idle (fc_profile_string (profile, frame->function)) ? 2 : 1;
        }
      if (leaf->frame < n_frames && frame_idle[leaf->frame] == 2)
        continue;
      counts[samples[i].thread]++;
    }

  if (n_threads != NULL)
    *n_threads = n;
  return counts;
}

/**
 * fc_stats_busiest_thread:
 *
 * The thread a view opens on: the one with the most on-CPU samples
 * (fc_stats_thread_busy_samples()), so that in wall mode, where every
 * thread has as many samples, a main thread parked in a futex is not
 * chosen. Ties, and profiles where every sample waits: the most samples,
 * then the first thread.
 *
 * Returns: a thread index, or -1 when no thread has samples
 */
gint
fc_stats_busiest_thread (FcProfile *profile)
{
  guint n = 0;
  g_autofree guint *counts = NULL;
  g_autofree guint *busy = NULL;
  gint best = -1;

  g_return_val_if_fail (FC_IS_PROFILE (profile), -1);

  counts = fc_stats_thread_samples (profile, &n);
  busy = fc_stats_thread_busy_samples (profile, NULL);
  for (guint i = 0; i < n; i++)
    {
      if (counts[i] == 0)
        continue;
      if (best < 0 || busy[i] > busy[best] || (busy[i] == busy[best] && counts[i] > counts[best]))
        best = i;
    }
  return best;
}

typedef struct {
  FcProfile *profile;
  gboolean   by_self;
} SortData;

static int
compare_stats (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const SortData *sort_data = user_data;
  const FcFunctionStat *sa = a;
  const FcFunctionStat *sb = b;
  guint ka = sort_data->by_self ? sa->self : sa->total;
  guint kb = sort_data->by_self ? sb->self : sb->total;
  char la[256], lb[256];

  if (ka != kb)
    return ka > kb ? -1 : 1;
  ka = sort_data->by_self ? sa->total : sa->self;
  kb = sort_data->by_self ? sb->total : sb->self;
  if (ka != kb)
    return ka > kb ? -1 : 1;
  /* the label returned, not the buffer: a named frame's label is its name, and the buffer stays unwritten */
  return strcmp (fc_profile_frame_label (sort_data->profile, sa->frame, la, sizeof la),
                 fc_profile_frame_label (sort_data->profile, sb->frame, lb, sizeof lb));
}

GArray *
fc_stats_top_functions (FcProfile *profile,
                        gint       thread,
                        gboolean   by_self,
                        guint      limit)
{
  guint n_samples = 0;
  const FcSample *samples;
  guint n_stacks, n_frames;
  g_autofree guint *stack_count = NULL;
  g_autofree guint32 *frame_key = NULL;     /* frame -> function slot */
  g_autofree guint *seen = NULL;            /* slot -> last stack that counted it */
  g_autoptr(GHashTable) by_name = NULL;     /* label -> slot */
  GArray *stats;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  samples = fc_profile_get_samples (profile, &n_samples);
  n_stacks = fc_profile_get_n_stacks (profile);
  n_frames = fc_profile_get_n_frames (profile);
  stats = g_array_new (FALSE, TRUE, sizeof (FcFunctionStat));

  /* count samples per stack first: each distinct stack is walked once */
  stack_count = g_new0 (guint, MAX (n_stacks, 1));
  for (guint i = 0; i < n_samples; i++)
    {
      if (thread >= 0 && samples[i].thread != (guint) thread)
        continue;
      if (samples[i].stack < n_stacks)
        stack_count[samples[i].stack]++;
    }

  /* frames of one function (same name, other lines) share one slot; so do
   * nameless frames that print the same (an address, "<anonymous>") */
  frame_key = g_new (guint32, MAX (n_frames, 1));
  by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint f = 0; f < n_frames; f++)
    {
      char buf[256];
      const char *label = fc_profile_frame_label (profile, f, buf, sizeof buf);
      gpointer slot;

      if (g_hash_table_lookup_extended (by_name, label, NULL, &slot))
        {
          frame_key[f] = GPOINTER_TO_UINT (slot);
          continue;
        }
      frame_key[f] = stats->len;
      g_array_set_size (stats, stats->len + 1);
      g_array_index (stats, FcFunctionStat, stats->len - 1).frame = f;
      g_hash_table_insert (by_name, g_strdup (label), GUINT_TO_POINTER (frame_key[f]));
    }

  seen = g_new (guint, MAX (stats->len, 1));
  memset (seen, 0xff, sizeof (guint) * MAX (stats->len, 1));
  for (guint s = 1; s < n_stacks; s++)
    {
      guint count = stack_count[s];
      gboolean leaf = TRUE;

      if (count == 0)
        continue;
      for (guint32 node_id = s; node_id != FC_STACK_EMPTY; )
        {
          const FcStackNode *node = fc_profile_get_stack (profile, node_id);
          guint slot;
          FcFunctionStat *stat;

          if (node->frame >= n_frames)
            break;
          slot = frame_key[node->frame];
          stat = &g_array_index (stats, FcFunctionStat, slot);
          if (leaf)
            stat->self += count;
          leaf = FALSE;
          if (seen[slot] != s)
            {
              seen[slot] = s;
              stat->total += count;
            }
          node_id = node->parent;
        }
    }

  /* drop functions no sample of this thread touched (by self: that was
   * never a leaf) */
  for (guint i = stats->len; i > 0; i--)
    {
      const FcFunctionStat *st = &g_array_index (stats, FcFunctionStat, i - 1);

      if ((by_self ? st->self : st->total) == 0)
        g_array_remove_index_fast (stats, i - 1);
    }

  g_array_sort_with_data (stats, compare_stats, &(SortData) { profile, by_self });

  if (limit > 0 && stats->len > limit)
    g_array_set_size (stats, limit);

  return stats;
}
