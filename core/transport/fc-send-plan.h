/* fc-send-plan.h - what `send` and the app's send dialog will send: envelopes, their summaries, the verdict
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"
#include "fc-envelope-summary.h"
#include "fc-transport.h"

G_BEGIN_DECLS

typedef struct
{
  GPtrArray *envelopes;   /* GBytes*: exactly the bytes that go, home stripped when asked */
  GPtrArray *summaries;   /* FcEnvelopeSummary*, one per envelope */
  GPtrArray *warnings;    /* FcProblem*: what Relay accepts but recommends otherwise */
  char      *invalid;     /* why nothing can be sent (a validator error, broken framing,
                           * a size above Relay's limit), or NULL */
} FcSendPlan;

/* The plan for sending @document (see fc_sender_envelopes_for_document();
 * @original: its file's bytes, or NULL), with every path under @home
 * written "~/..." (fc-strip-home.h) when @home is not NULL. Blocking: run it
 * on a worker. A plan that cannot be sent says why in ->invalid and has no
 * envelopes; NULL only when @cancellable was cancelled. */
FcSendPlan *fc_send_plan_new      (FcDocument    *document,
                                   GBytes        *original,
                                   const char    *home,
                                   GCancellable  *cancellable,
                                   GError       **error);
void        fc_send_plan_free     (FcSendPlan    *plan);

/* Puts the plan's envelopes into @transport's outbox, oldest first, and
 * returns their outbox IDs (char*), to look up in the flush report
 * (fc_flush_report_find_outcome()). Fails with FC_TRANSPORT_ERROR_INVALID
 * for a plan that cannot be sent. */
GPtrArray  *fc_send_plan_enqueue  (FcSendPlan    *plan,
                                   FcTransport   *transport,
                                   GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcSendPlan, fc_send_plan_free)

G_END_DECLS
