/* fc-flame-chart-search.c - the flamechart's search matches, and stepping through them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-chart-private.h"

/* a search walks every box of the layout: off the main loop above this */
#define SYNC_SEARCH_SAMPLES 20000

static void
set_current_match (FcFlameChart *self,
                   guint         current)
{
  if (current == self->current_match)
    return;
  self->current_match = current;
  fc_flame_chart_notify (self, FC_FLAME_CHART_PROP_CURRENT_MATCH);
}

typedef struct {
  FcFlameLayout *layout;
  guint8        *match;
  guint          n_frames;
} MatchData;

static void
match_data_free (MatchData *data)
{
  g_clear_pointer (&data->layout, fc_flame_layout_unref);
  g_free (data->match);
  g_free (data);
}

static void
find_matches_in_thread (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  MatchData *data = task_data;

  g_task_return_pointer (task, fc_flame_layout_find_runs (data->layout, data->match, data->n_frames, cancellable),
                         (GDestroyNotify) g_array_unref);
}

static void
set_matches (FcFlameChart *self,
             GArray       *matches)
{
  guint old_n = self->matches->len;

  g_array_set_size (self->matches, 0);
  if (matches != NULL)
    g_array_append_vals (self->matches, matches->data, matches->len);

  set_current_match (self, 0);
  if (old_n != self->matches->len)
    fc_flame_chart_notify (self, FC_FLAME_CHART_PROP_N_MATCHES);
}

static void
matches_ready_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(FcFlameChart) self = g_weak_ref_get (weak);
  g_autoptr(GArray) matches = g_task_propagate_pointer (G_TASK (result), NULL);

  g_weak_ref_clear (weak);
  g_free (weak);

  if (self == NULL || matches == NULL || g_task_get_cancellable (G_TASK (result)) != self->search_cancellable)
    return;

  set_matches (self, matches);
}

void
fc_flame_chart_update_search (FcFlameChart *self)
{
  const guint8 *search_match = fc_flame_view_get_search_match (FC_FLAME_VIEW (self));
  FcFlameLayout *layout = fc_flame_chart_layout (self);
  guint n_colors = 0;

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  fc_flame_view_get_colors (FC_FLAME_VIEW (self), &n_colors);

  if (search_match == NULL || layout == NULL)
    {
      set_matches (self, NULL);
      return;
    }

  if (fc_flame_layout_get_n_positions (layout) < SYNC_SEARCH_SAMPLES)
    {
      g_autoptr(GArray) matches = fc_flame_layout_find_runs (layout, search_match, n_colors, NULL);

      set_matches (self, matches);
    }
  else
    {
      g_autoptr(GTask) task = NULL;
      MatchData *data = g_new0 (MatchData, 1);
      GWeakRef *weak = g_new0 (GWeakRef, 1);

      /* until the worker answers, the counter shows no matches */
      set_matches (self, NULL);

      data->layout = fc_flame_layout_ref (layout);
      data->match = g_memdup2 (search_match, MAX (n_colors, 1));
      data->n_frames = n_colors;
      g_weak_ref_init (weak, self);
      self->search_cancellable = g_cancellable_new ();
      task = g_task_new (NULL, self->search_cancellable, matches_ready_cb, weak);
      g_task_set_task_data (task, data, (GDestroyNotify) match_data_free);
      g_task_set_return_on_cancel (task, TRUE);
      g_task_run_in_thread (task, find_matches_in_thread);
    }
}

void
fc_flame_chart_go_to_match (FcFlameChart *self,
                            gint          step)
{
  guint n = self->matches->len;
  guint current;
  const FcFlameBoxStart *start;
  FcFlameBox box;

  if (n == 0 || fc_flame_chart_session (self) == NULL)
    return;

  if (self->current_match == 0)
    current = step > 0 ? 1 : n;
  else if (step > 0)
    current = self->current_match % n + 1;
  else
    current = self->current_match == 1 ? n : self->current_match - 1;

  start = &g_array_index (self->matches, FcFlameBoxStart, current - 1);
  if (!fc_flame_layout_box_at_position (fc_flame_chart_layout (self), start->row, start->first, &box))
    return;
  set_current_match (self, current);
  fc_flame_chart_zoom_to_box (self, &box);
  fc_flame_chart_select_box (self, &box);
}

guint
fc_flame_chart_get_n_matches (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->matches->len;
}

guint
fc_flame_chart_get_current_match (FcFlameChart *self)
{
  g_return_val_if_fail (FC_IS_FLAME_CHART (self), 0);
  return self->current_match;
}
