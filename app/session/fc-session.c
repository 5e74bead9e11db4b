/* fc-session.c - what the user is looking at: document, thread, time ranges, search, colours
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-session.h"

#include "fc-layout-cache.h"
#include "fc-session-tree.h"

/* The narrowest visible window: below a microsecond there is nothing left to see. */
#define MIN_VISIBLE_NS 1000

struct _FcSession
{
  GObject        parent_instance;

  /* owned */
  FcDocument    *document;
  FcProfile     *profile;
  GPtrArray     *spans;          /* FcSpan, arranged; never NULL */
  /* the thread range (fc_session_get_thread_range(), kept up to date with
   * profile and thread because every zoom and pan clamps to it) and the
   * visible range: the axis is their one owner */
  FcTimeAxis    *axis;
  char          *search_text;

  /* derived from the profile */
  gint           default_thread;
  FcLayoutCache *layouts;
  FcSessionTree *call_tree;      /* made on first use */

  gint           thread;
  gint64         selection_begin_ns;
  gint64         selection_end_ns;
  FcColorMode    color_mode;
  FcFrameFilter  frame_filter;
  guint          selected_frame;
};

G_DEFINE_FINAL_TYPE (FcSession, fc_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_PROFILE,
  PROP_DEFAULT_THREAD,
  PROP_THREAD,
  PROP_VISIBLE_BEGIN_NS,
  PROP_VISIBLE_END_NS,
  PROP_SELECTION_BEGIN_NS,
  PROP_SELECTION_END_NS,
  PROP_SEARCH_TEXT,
  PROP_COLOR_MODE,
  PROP_FRAME_FILTER,
  PROP_SELECTED_FRAME,
  PROP_SPANS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ENUM_TYPE (FcColorMode, fc_color_mode,
  G_DEFINE_ENUM_VALUE (FC_COLOR_MODE_IN_APP, "in-app"),
  G_DEFINE_ENUM_VALUE (FC_COLOR_MODE_PACKAGE, "package"),
  G_DEFINE_ENUM_VALUE (FC_COLOR_MODE_FUNCTION, "function"))

static void
fc_session_notify_visible (FcSession *self,
                           gint64     begin_ns,
                           gint64     end_ns)
{
  gint64 old_begin, old_end;
  gboolean begin_changed, end_changed;

  fc_time_axis_get_visible (self->axis, &old_begin, &old_end);
  begin_changed = begin_ns != old_begin;
  end_changed = end_ns != old_end;
  fc_time_axis_set_visible (self->axis, begin_ns, end_ns);

  if (begin_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_BEGIN_NS]);
  if (end_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_END_NS]);
}

static void
fc_session_dispose (GObject *object)
{
  FcSession *self = (FcSession *)object;

  /* The tree points back at the session: it stops working for it here, and
   * goes in finalize, once its signal group heard that the session goes
   * (a group cannot let go of a target whose last reference is dropped). */
  if (self->call_tree != NULL)
    fc_session_tree_detach (self->call_tree);
  g_clear_object (&self->document);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (fc_session_parent_class)->dispose (object);
}

static void
fc_session_finalize (GObject *object)
{
  FcSession *self = (FcSession *)object;

  g_clear_object (&self->call_tree);
  g_clear_object (&self->layouts);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  g_clear_object (&self->axis);

  G_OBJECT_CLASS (fc_session_parent_class)->finalize (object);
}

static void
fc_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  FcSession *self = FC_SESSION (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_DEFAULT_THREAD:
      g_value_set_int (value, self->default_thread);
      break;
    case PROP_THREAD:
      g_value_set_int (value, self->thread);
      break;
    case PROP_VISIBLE_BEGIN_NS:
      g_value_set_int64 (value, fc_session_get_visible_begin_ns (self));
      break;
    case PROP_VISIBLE_END_NS:
      g_value_set_int64 (value, fc_session_get_visible_end_ns (self));
      break;
    case PROP_SELECTION_BEGIN_NS:
      g_value_set_int64 (value, self->selection_begin_ns);
      break;
    case PROP_SELECTION_END_NS:
      g_value_set_int64 (value, self->selection_end_ns);
      break;
    case PROP_SEARCH_TEXT:
      g_value_set_string (value, fc_session_get_search_text (self));
      break;
    case PROP_COLOR_MODE:
      g_value_set_enum (value, self->color_mode);
      break;
    case PROP_FRAME_FILTER:
      g_value_set_enum (value, self->frame_filter);
      break;
    case PROP_SPANS:
      g_value_set_boxed (value, self->spans);
      break;
    case PROP_SELECTED_FRAME:
      g_value_set_uint (value, self->selected_frame);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  FcSession *self = FC_SESSION (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      fc_session_set_document (self, g_value_get_object (value));
      break;
    case PROP_THREAD:
      fc_session_set_thread (self, g_value_get_int (value));
      break;
    case PROP_VISIBLE_BEGIN_NS:
      fc_session_set_visible_range (self, g_value_get_int64 (value), fc_session_get_visible_end_ns (self));
      break;
    case PROP_VISIBLE_END_NS:
      fc_session_set_visible_range (self, fc_session_get_visible_begin_ns (self), g_value_get_int64 (value));
      break;
    case PROP_SELECTION_BEGIN_NS:
      fc_session_set_selection (self, g_value_get_int64 (value), self->selection_end_ns);
      break;
    case PROP_SELECTION_END_NS:
      fc_session_set_selection (self, self->selection_begin_ns, g_value_get_int64 (value));
      break;
    case PROP_SEARCH_TEXT:
      fc_session_set_search_text (self, g_value_get_string (value));
      break;
    case PROP_COLOR_MODE:
      fc_session_set_color_mode (self, g_value_get_enum (value));
      break;
    case PROP_FRAME_FILTER:
      fc_session_set_frame_filter (self, g_value_get_enum (value));
      break;
    case PROP_SELECTED_FRAME:
      fc_session_set_selected_frame (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_session_class_init (FcSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fc_session_dispose;
  object_class->finalize = fc_session_finalize;
  object_class->get_property = fc_session_get_property;
  object_class->set_property = fc_session_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL,
                         FC_TYPE_DOCUMENT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         FC_TYPE_PROFILE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties[PROP_DEFAULT_THREAD] =
    g_param_spec_int ("default-thread", NULL, NULL,
                      FC_SESSION_ALL_THREADS, G_MAXINT, FC_SESSION_ALL_THREADS,
                      (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_THREAD] =
    g_param_spec_int ("thread", NULL, NULL,
                      FC_SESSION_ALL_THREADS, G_MAXINT, FC_SESSION_ALL_THREADS,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_VISIBLE_BEGIN_NS] =
    g_param_spec_int64 ("visible-begin-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_VISIBLE_END_NS] =
    g_param_spec_int64 ("visible-end-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SELECTION_BEGIN_NS] =
    g_param_spec_int64 ("selection-begin-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SELECTION_END_NS] =
    g_param_spec_int64 ("selection-end-ns", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL,
                         "",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL,
                       FC_TYPE_COLOR_MODE, FC_COLOR_MODE_IN_APP,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_FRAME_FILTER] =
    g_param_spec_enum ("frame-filter", NULL, NULL,
                       FC_TYPE_FRAME_FILTER, FC_FRAME_FILTER_ALL,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SELECTED_FRAME] =
    g_param_spec_uint ("selected-frame", NULL, NULL,
                       0, G_MAXUINT, FC_SESSION_NO_FRAME,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SPANS] =
    g_param_spec_boxed ("spans", NULL, NULL,
                        G_TYPE_PTR_ARRAY,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_session_init (FcSession *self)
{
  self->thread = FC_SESSION_ALL_THREADS;
  self->default_thread = FC_SESSION_ALL_THREADS;
  self->layouts = fc_layout_cache_new ();
  self->color_mode = FC_COLOR_MODE_IN_APP;
  self->frame_filter = FC_FRAME_FILTER_ALL;
  self->selected_frame = FC_SESSION_NO_FRAME;
  self->spans = fc_spans_new ();
  self->axis = fc_time_axis_new ();
  fc_time_axis_set_total (self->axis, 0, MIN_VISIBLE_NS);
}

FcSession *
fc_session_new (void)
{
  return g_object_new (FC_TYPE_SESSION, NULL);
}

FcDocument *
fc_session_get_document (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);

  return self->document;
}

FcProfile *
fc_session_get_profile (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);

  return self->profile;
}

static void
fc_session_update_thread_range (FcSession *self)
{
  gint64 begin_ns, end_ns;

  fc_view_threads_get_range (self->profile, self->thread, &begin_ns, &end_ns);
  fc_time_axis_set_total (self->axis, begin_ns, end_ns);
}

/**
 * fc_session_profile_grew:
 * @self: a session
 * @follow: show the live edge
 *
 * The session's live profile (see fc_profile_publish()) gained samples or
 * threads: views reload what is published. The thread range follows the
 * threads' first and last samples, without walking the samples (this runs
 * several times a second); with @follow, the visible range becomes the last
 * %FC_SESSION_LIVE_WINDOW_NS of it.
 */
void
fc_session_profile_grew (FcSession *self,
                         gboolean   follow)
{
  gint64 begin_ns, end_ns;

  g_return_if_fail (FC_IS_SESSION (self));

  if (self->profile == NULL)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  fc_view_threads_get_grown_range (self->profile, self->thread, &begin_ns, &end_ns);
  fc_time_axis_set_total (self->axis, begin_ns, end_ns);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  if (follow)
    fc_session_set_visible_range (self, MAX (begin_ns, end_ns - FC_SESSION_LIVE_WINDOW_NS), end_ns);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * fc_session_get_spans:
 * @self: a session
 *
 * Returns: (transfer none) (element-type FcSpan): the transactions and spans
 *   that go with the profile, arranged (fc_spans_arrange ()); maybe empty
 */
GPtrArray *
fc_session_get_spans (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);

  return self->spans;
}

/**
 * fc_session_set_spans:
 * @self: a session
 * @spans: (element-type FcSpan): spans to show instead, e.g. a live
 *   recording's transactions; arranged here
 *
 * Replaces the spans until the next document.
 */
void
fc_session_set_spans (FcSession *self,
                      GPtrArray *spans)
{
  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (spans != NULL);

  if (spans == self->spans)
    return;
  g_ptr_array_ref (spans);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  self->spans = spans;
  fc_spans_arrange (self->spans);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPANS]);
}

/**
 * fc_session_set_document:
 * @self: a session
 * @document: (nullable): the document to show
 *
 * Shows @document, merging its profiles and picking the thread it opens on
 * and its range (which read every sample) on the calling thread. The window
 * does all three on its loader thread (fc-file-load.c) and calls
 * fc_session_set_document_full().
 */
void
fc_session_set_document (FcSession  *self,
                         FcDocument *document)
{
  g_autoptr(FcProfile) merged = NULL;

  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (!document || FC_IS_DOCUMENT (document));

  if (document == self->document)
    return;

  if (document != NULL)
    merged = fc_document_dup_merged_profile (document);

  fc_session_set_document_full (self, document, merged, NULL);
}

/**
 * fc_session_set_document_full:
 * @self: a session
 * @document: (nullable): the document to show
 * @merged_profile: (nullable): fc_document_dup_merged_profile() of @document
 * @start: (nullable): the thread it opens on and that thread's range,
 *   fc_view_threads_pick_start() of @merged_profile; %NULL to find them here
 *   (which reads every sample)
 *
 * Shows @document and starts over: the start thread, its whole time range
 * visible, no selection, no selected frame. Search text, colour mode and
 * frame filter are the user's and stay.
 */
void
fc_session_set_document_full (FcSession         *self,
                              FcDocument        *document,
                              FcProfile         *merged_profile,
                              const FcViewStart *start)
{
  FcViewStart found;
  gint default_thread;

  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (!document || FC_IS_DOCUMENT (document));
  g_return_if_fail (!merged_profile || FC_IS_PROFILE (merged_profile));
  g_return_if_fail ((document == NULL) == (merged_profile == NULL));
  g_return_if_fail (!start || start->thread >= FC_SESSION_ALL_THREADS);

  if (document == self->document && merged_profile == self->profile)
    return;

  if (start == NULL || merged_profile == NULL || start->thread >= (gint) fc_profile_get_n_threads (merged_profile))
    {
      fc_view_threads_pick_start (merged_profile, &found);
      start = &found;
    }
  default_thread = start->thread;

  g_object_freeze_notify (G_OBJECT (self));

  g_set_object (&self->document, document);
  g_set_object (&self->profile, merged_profile);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  /* transactions linked from an envelope (V1 by transaction id, V2 by profiler_id) */
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  self->spans = document != NULL ? fc_transaction_spans_for_document (document) : fc_spans_new ();
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPANS]);

  if (default_thread != self->default_thread)
    {
      self->default_thread = default_thread;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFAULT_THREAD]);
    }
  if (default_thread != self->thread)
    {
      self->thread = default_thread;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
    }

  fc_time_axis_set_total (self->axis, start->begin_ns, start->end_ns);
  fc_session_reset_view (self);
  fc_session_set_selection (self, 0, 0);
  fc_session_set_selected_frame (self, FC_SESSION_NO_FRAME);

  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * fc_session_set_document_keep_thread:
 * @self: a session
 * @document: the document to show
 * @merged_profile: its profile for the views
 *
 * As fc_session_set_document_full(), but the thread the user chose stays
 * (the same thread id, or all threads) when @merged_profile has it: a live
 * recording that stops opens on the thread it showed. The visible range
 * stays too when the profile is the one already shown.
 */
void
fc_session_set_document_keep_thread (FcSession  *self,
                                     FcDocument *document,
                                     FcProfile  *merged_profile)
{
  g_autofree char *tid = NULL;
  gint thread = self->thread;
  gboolean same = merged_profile == self->profile;
  guint32 index;

  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (FC_IS_DOCUMENT (document));
  g_return_if_fail (FC_IS_PROFILE (merged_profile));

  if (self->profile != NULL && thread >= 0)
    tid = g_strdup (fc_profile_string (self->profile, fc_profile_get_thread (self->profile, thread)->tid));
  if (!same)
    {
      fc_session_set_document_full (self, document, merged_profile, NULL);
      if (thread == FC_SESSION_ALL_THREADS)
        fc_session_set_thread (self, FC_SESSION_ALL_THREADS);
      else if (tid != NULL && fc_profile_lookup_thread (merged_profile, tid, &index))
        fc_session_set_thread (self, (gint) index);
      return;
    }

  /* the live copy, finished: what the views hold stays valid */
  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->document, document);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  g_clear_pointer (&self->spans, g_ptr_array_unref);
  self->spans = fc_transaction_spans_for_document (document);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPANS]);
  fc_session_update_thread_range (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * fc_session_get_default_thread:
 *
 * Returns: the thread the document opened on (fc_view_threads_pick_default()
 *   of its profile, as the caller of fc_session_set_document_full() found it)
 */
gint
fc_session_get_default_thread (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), FC_SESSION_ALL_THREADS);

  return self->default_thread;
}

/**
 * fc_session_get_call_tree:
 *
 * The one top-down call tree of the session's thread, selection and frame
 * filter, which the flamegraph, the details and the call tree view share;
 * made on first use.
 *
 * Returns: (transfer none): the session's call tree
 */
FcSessionTree *
fc_session_get_call_tree (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);

  if (self->call_tree == NULL)
    self->call_tree = fc_session_tree_new_shared (self);
  return self->call_tree;
}

/**
 * fc_session_get_layouts:
 *
 * Returns: (transfer none): the flamechart layout of the session's profile
 *   and thread, computed once for the views that ask (fc_layout_cache_request())
 */
FcLayoutCache *
fc_session_get_layouts (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);

  return self->layouts;
}

gint
fc_session_get_thread (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), FC_SESSION_ALL_THREADS);

  return self->thread;
}

/**
 * fc_session_set_thread:
 * @self: a session
 * @thread: a thread index of the profile, or %FC_SESSION_ALL_THREADS
 *
 * Switches thread. Threads cover different time ranges, so the view is
 * reset to the new thread's range and the time selection is cleared.
 */
void
fc_session_set_thread (FcSession *self,
                       gint       thread)
{
  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (thread >= FC_SESSION_ALL_THREADS);

  if (self->profile == NULL || thread >= (gint) fc_profile_get_n_threads (self->profile))
    thread = FC_SESSION_ALL_THREADS;

  if (thread == self->thread)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  self->thread = thread;
  fc_session_update_thread_range (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
  fc_session_set_selection (self, 0, 0);
  fc_session_reset_view (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * fc_session_get_thread_range:
 * @self: a session
 * @begin_ns: (out): first sample time of the session's thread(s)
 * @end_ns: (out): where the last sample's time ends (its timestamp plus its
 *   weight, see FcSampleWeights; the latest such end over all threads for
 *   %FC_SESSION_ALL_THREADS), at least a microsecond after @begin_ns
 *
 * The time range of the session's thread, or of the whole profile for all
 * threads; 0..1µs when there is nothing to show. It is the extent of the
 * flamechart layout of the same profile and thread.
 */
void
fc_session_get_thread_range (FcSession *self,
                             gint64    *begin_ns,
                             gint64    *end_ns)
{
  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (begin_ns != NULL && end_ns != NULL);

  fc_time_axis_get_total (self->axis, begin_ns, end_ns);
}

/**
 * fc_session_get_time_axis:
 *
 * Returns: (transfer none): the session's thread range and visible range,
 *   for the views that draw time across their width
 */
FcTimeAxis *
fc_session_get_time_axis (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);
  return self->axis;
}

gint64
fc_session_get_visible_begin_ns (FcSession *self)
{
  gint64 begin_ns, end_ns;

  g_return_val_if_fail (FC_IS_SESSION (self), 0);

  fc_time_axis_get_visible (self->axis, &begin_ns, &end_ns);
  return begin_ns;
}

gint64
fc_session_get_visible_end_ns (FcSession *self)
{
  gint64 begin_ns, end_ns;

  g_return_val_if_fail (FC_IS_SESSION (self), 0);

  fc_time_axis_get_visible (self->axis, &begin_ns, &end_ns);
  return end_ns;
}

/**
 * fc_session_set_visible_range:
 * @self: a session
 * @begin_ns: absolute start of the flamechart's window
 * @end_ns: absolute end; must be after @begin_ns
 *
 * Sets the flamechart's window as given (panning may go past the data);
 * use fc_session_zoom_to() to stay within the thread's range.
 */
void
fc_session_set_visible_range (FcSession *self,
                              gint64     begin_ns,
                              gint64     end_ns)
{
  g_return_if_fail (FC_IS_SESSION (self));

  if (end_ns <= begin_ns)
    end_ns = begin_ns + 1;

  fc_session_notify_visible (self, begin_ns, end_ns);
}

/**
 * fc_session_zoom_to:
 * @self: a session
 * @begin_ns: wanted start
 * @end_ns: wanted end
 *
 * Shows @begin_ns..@end_ns, clamped to the thread's range and widened to at
 * least a microsecond.
 */
void
fc_session_zoom_to (FcSession *self,
                    gint64     begin_ns,
                    gint64     end_ns)
{
  gint64 range_begin, range_end;

  g_return_if_fail (FC_IS_SESSION (self));

  fc_session_get_thread_range (self, &range_begin, &range_end);

  if (end_ns < begin_ns)
    {
      gint64 tmp = begin_ns;
      begin_ns = end_ns;
      end_ns = tmp;
    }

  if (end_ns - begin_ns < MIN_VISIBLE_NS)
    {
      gint64 middle = begin_ns + (end_ns - begin_ns) / 2;

      begin_ns = middle - MIN_VISIBLE_NS / 2;
      end_ns = begin_ns + MIN_VISIBLE_NS;
    }

  if (end_ns - begin_ns >= range_end - range_begin)
    {
      begin_ns = range_begin;
      end_ns = range_end;
    }
  else if (begin_ns < range_begin)
    {
      end_ns += range_begin - begin_ns;
      begin_ns = range_begin;
    }
  else if (end_ns > range_end)
    {
      begin_ns -= end_ns - range_end;
      end_ns = range_end;
    }

  fc_session_set_visible_range (self, begin_ns, end_ns);
}

/**
 * fc_session_reset_view:
 * @self: a session
 *
 * Makes the whole range of the session's thread(s) visible.
 */
void
fc_session_reset_view (FcSession *self)
{
  gint64 begin_ns, end_ns;

  g_return_if_fail (FC_IS_SESSION (self));

  fc_session_get_thread_range (self, &begin_ns, &end_ns);
  fc_session_set_visible_range (self, begin_ns, end_ns);
}

gint64
fc_session_get_selection_begin_ns (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), 0);

  return self->selection_begin_ns;
}

gint64
fc_session_get_selection_end_ns (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), 0);

  return self->selection_end_ns;
}

gboolean
fc_session_has_selection (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), FALSE);

  return self->selection_begin_ns != self->selection_end_ns;
}

/**
 * fc_session_set_selection:
 * @self: a session
 * @begin_ns: start of the selected time range
 * @end_ns: end; equal to @begin_ns for "no selection"
 *
 * Selects the time range the aggregated views (flamegraph, call tree,
 * frame details) summarise. The ends may come in either order.
 */
void
fc_session_set_selection (FcSession *self,
                          gint64     begin_ns,
                          gint64     end_ns)
{
  gboolean begin_changed, end_changed;

  g_return_if_fail (FC_IS_SESSION (self));

  if (end_ns < begin_ns)
    {
      gint64 tmp = begin_ns;
      begin_ns = end_ns;
      end_ns = tmp;
    }

  /* Every empty selection means the same thing: keep one spelling of it. */
  if (begin_ns == end_ns)
    begin_ns = end_ns = 0;

  begin_changed = begin_ns != self->selection_begin_ns;
  end_changed = end_ns != self->selection_end_ns;
  self->selection_begin_ns = begin_ns;
  self->selection_end_ns = end_ns;

  if (begin_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_BEGIN_NS]);
  if (end_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_END_NS]);
}

const char *
fc_session_get_search_text (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), NULL);

  return self->search_text ? self->search_text : "";
}

void
fc_session_set_search_text (FcSession  *self,
                            const char *search_text)
{
  g_return_if_fail (FC_IS_SESSION (self));

  if (search_text != NULL && search_text[0] == '\0')
    search_text = NULL;

  if (g_strcmp0 (search_text, self->search_text) == 0)
    return;

  g_free (self->search_text);
  self->search_text = g_strdup (search_text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_TEXT]);
}

FcColorMode
fc_session_get_color_mode (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), FC_COLOR_MODE_IN_APP);

  return self->color_mode;
}

void
fc_session_set_color_mode (FcSession   *self,
                           FcColorMode  color_mode)
{
  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (color_mode <= FC_COLOR_MODE_FUNCTION);

  if (color_mode == self->color_mode)
    return;

  self->color_mode = color_mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_MODE]);
}

FcFrameFilter
fc_session_get_frame_filter (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), FC_FRAME_FILTER_ALL);

  return self->frame_filter;
}

void
fc_session_set_frame_filter (FcSession     *self,
                             FcFrameFilter  frame_filter)
{
  g_return_if_fail (FC_IS_SESSION (self));
  g_return_if_fail (frame_filter <= FC_FRAME_FILTER_SYSTEM);

  if (frame_filter == self->frame_filter)
    return;

  self->frame_filter = frame_filter;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRAME_FILTER]);
}

guint
fc_session_get_selected_frame (FcSession *self)
{
  g_return_val_if_fail (FC_IS_SESSION (self), FC_SESSION_NO_FRAME);

  return self->selected_frame;
}

/**
 * fc_session_set_selected_frame:
 * @self: a session
 * @frame: a frame id of the profile, or %FC_SESSION_NO_FRAME
 *
 * Selects the frame the details panel shows; ids beyond the profile's frame
 * table mean "none".
 */
void
fc_session_set_selected_frame (FcSession *self,
                               guint      frame)
{
  g_return_if_fail (FC_IS_SESSION (self));

  if (self->profile == NULL || frame >= fc_profile_get_n_frames (self->profile))
    frame = FC_SESSION_NO_FRAME;

  if (frame == self->selected_frame)
    return;

  self->selected_frame = frame;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FRAME]);
}
