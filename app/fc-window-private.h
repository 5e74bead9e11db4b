/* fc-window-private.h - what fc-window.c and fc-window-actions.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-call-tree-view.h"
#include "fc-diff-tree-view.h"
#include "fc-flame-chart.h"
#include "fc-flame-graph.h"
#include "fc-frame-details.h"
#include "fc-minimap.h"
#include "fc-span-track.h"
#include "fc-thread-selector.h"
#include "fc-window.h"

G_BEGIN_DECLS

/* The name recent files are filed under, the same with or without a GApplication. */
#define FC_RECENT_APP_NAME "Flamecast"

struct _FcWindow
{
  AdwApplicationWindow  parent_instance;

  /* template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwHeaderBar         *header_bar;
  GtkButton            *open_button;
  FcThreadSelector     *thread_selector;
  AdwViewSwitcherTitle *switcher_title;
  GtkSearchEntry       *search_entry;
  GtkMenuButton        *color_menu_button;
  GtkToggleButton      *details_button;
  GtkStack             *main_stack;
  AdwStatusPage        *empty_page;
  GtkSpinner           *loading_spinner;
  GtkLabel             *loading_label;
  GtkProgressBar       *loading_progress;
  GtkPaned             *paned;
  AdwViewStack         *view_stack;
  GtkBox               *title_box;
  GtkLabel             *file_label;
  GtkLabel             *file_sublabel;
  GtkBox               *flamechart_box;
  GtkBox               *flamegraph_box;
  FcCallTreeView       *call_tree_view;
  AdwViewStackPage     *compare_page;
  FcDiffTreeView       *diff_tree_view;
  FcFrameDetails       *frame_details;
  GtkScrolledWindow    *details_scroller;
  GMenu                *recent_section;

  FcMinimap            *minimap;
  FcSpanTrack          *span_track;
  FcFlameChart         *flame_chart;
  FcFlameGraph         *flame_graph;
  GtkLabel             *search_matches_label;
  GtkButton            *search_previous_button;
  GtkButton            *search_next_button;
  GtkButton            *record_button;
  AdwSplitButton       *stop_button;
  GtkRevealer          *record_bar;
  GtkLabel             *record_status_label;
  GtkLabel             *record_mode_label;
  GtkButton            *send_button;
  GtkLabel             *send_label;
  GtkButton            *follow_button;
  GtkBox               *lifecycle_box;
  GtkToggleButton      *profiling_button;
  GtkToggleButton      *transaction_button;
  GtkEntry             *transaction_entry;

  /* owned */
  FcSession            *session;
  GSettings            *settings;
  GFile                *file;
  GFile                *loading_file;
  GCancellable         *load_cancellable;
  GtkFileChooserNative *file_chooser;
  char                 *last_error;
  guint                 pulse_source;
  guint                 last_n_problems;
  gboolean              syncing_search;

  /* recording (fc-window-record.c) */
  FcRecording          *recording;
  FcSender             *sender;           /* the recording's, when it sends while recording */
  guint                 live_source;
  gint64                record_started_us;
  gint64                record_stopped_us;
  guint                 live_n_samples;
  gboolean              live_updating;    /* a worker is bringing it up to date */
  gboolean              live_edge_pending; /* follow once the flamechart has the grown layout */
  guint                 transaction_span;
  GPtrArray            *root_spans;       /* FcSpan: this recording's ended transactions */
  gboolean              following;        /* the flamechart shows the live edge */
  gboolean              thread_chosen;    /* the user picked the thread (or all) while recording */
  gboolean              setting_range;    /* the live view moves the range, not the user */
  gboolean              record_stopping;
  gboolean              record_spawned;
  gboolean              close_after_stop;
};

void fc_window_init_actions        (FcWindow   *self);
/* the process or file the window holds, and what else identifies it */
void fc_window_show_title          (FcWindow   *self,
                                    const char *title,
                                    const char *subtitle);
/* fc-window-record.c: the live profile grew (bench-live drives it too) */
void fc_window_record_show_grown   (FcWindow   *self);
void fc_window_set_action_enabled  (FcWindow   *self,
                                    const char *name,
                                    gboolean    enabled);
void fc_window_update_recent_menu  (FcWindow   *self);
char *fc_window_recent_label       (const char *uri);
void fc_window_show_problems       (FcWindow   *self);
/* the details panel: shown when wanted (win.show-details) and a frame is selected */
void fc_window_update_details      (FcWindow   *self);
/* fc-window-send.c: send, outbox, save, export */
void fc_window_init_send_actions   (FcWindow   *self);

void     fc_window_record_init          (FcWindow   *self);
void     fc_window_record_dispose       (FcWindow   *self);
gboolean fc_window_record_close_request (FcWindow   *self);
void     fc_window_record_follow        (FcWindow   *self);

G_END_DECLS
