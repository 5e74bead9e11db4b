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
#include "fc-header-title.h"
#include "fc-loading-page.h"
#include "fc-minimap.h"
#include "fc-record-bar.h"
#include "fc-search-bar.h"
#include "fc-span-track.h"
#include "fc-thread-selector.h"
#include "fc-window.h"

G_BEGIN_DECLS

/* The name recent files are filed under, the same with or without a GApplication. */
#define FC_RECENT_APP_NAME "Flamecast"

typedef struct _FcWindowSymbols FcWindowSymbols;

struct _FcWindow
{
  AdwApplicationWindow  parent_instance;

  /* template widgets */
  AdwToastOverlay      *toast_overlay;
  FcThreadSelector     *thread_selector;
  FcSearchBar          *search_bar;
  FcHeaderTitle        *header_title;
  GtkBox               *document_tools;
  AdwViewSwitcherTitle *switcher_title;
  GtkStack             *main_stack;
  AdwStatusPage        *empty_page;
  FcLoadingPage        *loading_page;
  AdwViewStack         *view_stack;
  FcCallTreeView       *call_tree_view;
  AdwViewStackPage     *compare_page;
  FcDiffTreeView       *diff_tree_view;
  FcFrameDetails       *frame_details;
  GtkScrolledWindow    *details_scroller;

  FcMinimap            *minimap;
  FcSpanTrack          *span_track;
  FcFlameChart         *flame_chart;
  FcFlameGraph         *flame_graph;
  GtkStack             *record_stack;     /* Record, or Stop while recording */
  FcRecordBar          *record_bar;

  /* owned */
  FcSession            *session;
  GSettings            *settings;
  GFile                *file;
  GCancellable         *load_cancellable;
  char                 *last_error;
  guint                 last_n_problems;

  /* the recording shown (fc-window-record.c) */
  FcLiveRecording      *live;
  /* a close waiting for the recording: the application held meanwhile */
  gboolean              closing;
  GApplication         *close_hold;
  guint                 close_grace_id;

  /* debug info from debuginfod (fc-window-symbols.c) */
  FcWindowSymbols      *symbols;
};

void fc_window_init_actions        (FcWindow   *self);
/* the process or file the window holds, and what else identifies it */
void fc_window_show_title          (FcWindow   *self,
                                    const char *title,
                                    const char *subtitle);
void fc_window_set_action_enabled  (FcWindow   *self,
                                    const char *name,
                                    gboolean    enabled);
void fc_window_update_recent_menu  (FcWindow   *self);
void fc_window_show_problems       (FcWindow   *self);
/* the details panel: shown when wanted (win.show-details) and a frame is selected */
void fc_window_update_details      (FcWindow   *self);
/* fc-window-send.c: send, outbox, save, export */
void fc_window_init_send_actions   (FcWindow   *self);

void     fc_window_record_init          (FcWindow   *self);
void     fc_window_record_dispose       (FcWindow   *self);
gboolean fc_window_record_close_request (FcWindow   *self);
void     fc_window_record_follow        (FcWindow   *self);

void     fc_window_symbols_init         (FcWindow   *self);
void     fc_window_symbols_dispose      (FcWindow   *self);
void     fc_window_symbols_finalize     (FcWindow   *self);

G_END_DECLS
