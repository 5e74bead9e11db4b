/* fc-transaction.h - the transaction event that goes with a V1 profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "fc-profile.h"
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

G_END_DECLS
