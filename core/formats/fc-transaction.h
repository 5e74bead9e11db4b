/* fc-transaction.h - the transaction event that goes with a V1 profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "fc-document.h"
#include "fc-profile.h"
#include "fc-span.h"
#include "fc-time.h"

G_BEGIN_DECLS

/* The transaction event a V1 profile is sent with: type, event_id,
 * start_timestamp and timestamp (float seconds), transaction name,
 * contexts.trace (trace_id, span_id, op, status, data["thread.id"]),
 * contexts.profile.profile_id, platform, release, environment and sdk.
 * Its ids match the profile's transaction object (id = event_id, trace_id,
 * segment_id = span_id); missing pieces of that object are filled in on
 * the profile so that both agree. */
JsonObject *fc_transaction_event_new_for_profile (FcProfile   *v1);

/* TRUE when @event goes with @profile: a V1 profile's transaction.id is the
 * event's event_id; a V2 chunk's profiler_id is the event's
 * contexts.profile.profiler_id (Sentry writes both ids with or without
 * dashes, in either case). */
gboolean    fc_transaction_links_profile (JsonObject  *event,
                                          FcProfile   *profile);

/* The transaction @event as spans (FcSpan): its root span (from
 * contexts.trace, named by "transaction", start_timestamp to timestamp)
 * then each of "spans". Timestamps may be float seconds or RFC 3339; a span
 * without a valid start is left out, one without an end ends where it starts. */
void        fc_transaction_add_spans     (JsonObject  *event,
                                          GPtrArray   *spans);

/* Every transaction of @document that goes with one of its profiles, as
 * arranged spans (fc_spans_arrange ()); an empty array when there is none. */
GPtrArray  *fc_transaction_spans_for_document (FcDocument *document);

G_END_DECLS
