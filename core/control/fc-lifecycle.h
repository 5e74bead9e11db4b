/* fc-lifecycle.h - when to profile: Sentry's manual and trace lifecycles, session sampling
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-root-span.h"
#include "fc-settings.h"

G_BEGIN_DECLS

/* Uniform in [0, 1); replaceable by tests. */
typedef double (*FcRandomFunc) (gpointer user_data);

/*
 * FcLifecycle decides; it does not sample. Whoever records connects to
 *   "start-profiling" ()   start (or resume) the recorder
 *   "stop-profiling"  ()   stop it, finishing the chunk in progress
 *   "root-span-ended" (FcRootSpan *span)   e.g. to send a linked transaction
 * and the read-only property "running" follows them.
 *
 * The session is sampled once, at construction: random() < profile_session_sample_rate.
 * Warnings for no-op calls go through g_warning() in the "flamecast-lifecycle" domain.
 */
#define FC_TYPE_LIFECYCLE (fc_lifecycle_get_type ())
G_DECLARE_FINAL_TYPE (FcLifecycle, fc_lifecycle, FC, LIFECYCLE, GObject)

FcLifecycle        *fc_lifecycle_new                (FcProfileLifecycle  mode,
                                                     double              profile_session_sample_rate,
                                                     double              traces_sample_rate);
FcLifecycle        *fc_lifecycle_new_full           (FcProfileLifecycle  mode,
                                                     double              profile_session_sample_rate,
                                                     double              traces_sample_rate,
                                                     FcRandomFunc        random_func,
                                                     gpointer            random_data);
FcLifecycle        *fc_lifecycle_new_for_settings   (FcSettings         *settings);

FcProfileLifecycle  fc_lifecycle_get_mode           (FcLifecycle        *self);
gboolean            fc_lifecycle_get_session_sampled (FcLifecycle       *self);
gboolean            fc_lifecycle_get_running        (FcLifecycle        *self);
guint               fc_lifecycle_get_n_active_spans (FcLifecycle        *self);

/* Manual mode. Return TRUE when they changed something; otherwise a warning
 * says why (not sampled, already running, trace mode). */
gboolean            fc_lifecycle_start_profiler     (FcLifecycle        *self);
gboolean            fc_lifecycle_stop_profiler      (FcLifecycle        *self);

/* Root spans, in both modes; in trace mode they drive profiling.
 * Returns the span id (never 0). */
guint               fc_lifecycle_begin_root_span    (FcLifecycle        *self,
                                                     const char         *name);
gboolean            fc_lifecycle_end_root_span      (FcLifecycle        *self,
                                                     guint               span_id);
/* The most recently begun active span called @name, or 0. */
guint               fc_lifecycle_find_root_span     (FcLifecycle        *self,
                                                     const char         *name);
const FcRootSpan   *fc_lifecycle_get_root_span      (FcLifecycle        *self,
                                                     guint               span_id);
/* Ends every active span (end of the recording). */
void                fc_lifecycle_end_all            (FcLifecycle        *self);

G_END_DECLS
