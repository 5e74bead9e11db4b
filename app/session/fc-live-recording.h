/* fc-live-recording.h - a recording under way, shown live in a session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-live-edge.h"
#include "fc-session.h"

G_BEGIN_DECLS

typedef enum {
  FC_LIVE_STATE_WAITING,     /* attached, the profiler not running (manual or trace lifecycle) */
  FC_LIVE_STATE_RECORDING,
  FC_LIVE_STATE_STOPPING,    /* the target is being released, then what was queued sent */
  FC_LIVE_STATE_STOPPED,     /* all done; the recording stays shown */
} FcLiveState;

#define FC_TYPE_LIVE_RECORDING (fc_live_recording_get_type ())
G_DECLARE_FINAL_TYPE (FcLiveRecording, fc_live_recording, FC, LIVE_RECORDING, GObject)

FcLiveRecording *fc_live_recording_attach        (GPid                 pid,
                                                  GError             **error);
void             fc_live_recording_attach_async  (GPid                 pid,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
FcLiveRecording *fc_live_recording_attach_finish (GAsyncResult        *result,
                                                  GError             **error);
void             fc_live_recording_save_user_environ (void);
FcLiveRecording *fc_live_recording_spawn         (const char * const  *argv,
                                                  const char          *cwd,
                                                  GError             **error);

FcRecording     *fc_live_recording_get_recording (FcLiveRecording     *self);
FcSender        *fc_live_recording_get_sender    (FcLiveRecording     *self);
FcLiveState      fc_live_recording_get_state     (FcLiveRecording     *self);
/* not yet released: the target is still ours */
gboolean         fc_live_recording_is_active     (FcLiveRecording     *self);
gboolean         fc_live_recording_get_spawned   (FcLiveRecording     *self);
const char      *fc_live_recording_get_title     (FcLiveRecording     *self);
const char      *fc_live_recording_get_subtitle  (FcLiveRecording     *self);
FcLiveEdge      *fc_live_recording_get_edge      (FcLiveRecording     *self);

/* starts showing the recording in @session (once); warnings from before are emitted now */
void             fc_live_recording_show_in       (FcLiveRecording     *self,
                                                  FcSession           *session);
/* Releases the target without blocking; @end_program also ends a launched command. */
void             fc_live_recording_stop          (FcLiveRecording     *self,
                                                  gboolean             end_program);
/* the status line: state, time, samples, threads, dropped ticks; and mode and rate */
char            *fc_live_recording_describe      (FcLiveRecording     *self,
                                                  char               **mode_text);

/* the lifecycle: the profiler (manual lifecycle), a transaction */
gboolean         fc_live_recording_is_manual     (FcLiveRecording     *self);
void             fc_live_recording_set_profiling (FcLiveRecording     *self,
                                                  gboolean             profiling);
gboolean         fc_live_recording_get_profiling (FcLiveRecording     *self);
void             fc_live_recording_set_transaction (FcLiveRecording   *self,
                                                    const char        *name);
gboolean         fc_live_recording_has_transaction (FcLiveRecording   *self);

G_END_DECLS
