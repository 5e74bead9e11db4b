/* fc-transaction.h - the transaction event that goes with a V1 profile, ids and RFC 3339 time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "fc-profile.h"

G_BEGIN_DECLS

/* A random UUID v4 as 32 lowercase hex digits (the form Sentry ids take). */
char       *fc_uuid_hex_new                      (void);
/* A random span id: 16 lowercase hex digits. */
char       *fc_span_id_hex_new                   (void);

/* TRUE for 32 hex digits, or a hyphenated 8-4-4-4-12 UUID; @canonical (may be
 * NULL) says whether it is the form the specs ask for: 32 lowercase hex. */
gboolean    fc_uuid_is_valid                     (const char  *str,
                                                  gboolean    *canonical);
/* TRUE for exactly @len lowercase or uppercase hex digits */
gboolean    fc_hex_is_valid                      (const char  *str,
                                                  gsize        len);

/* "2022-09-01T09:45:00.000000Z" (microseconds, or nanoseconds when the
 * instant is not a whole microsecond), always UTC. */
char       *fc_rfc3339_format_ns                 (gint64       unix_ns);
/* Parses an RFC 3339 / ISO 8601 timestamp with an explicit offset, keeping
 * up to nanosecond precision. */
gboolean    fc_rfc3339_parse_ns                  (const char  *str,
                                                  gint64      *unix_ns);

/* The transaction event a V1 profile is sent with: type, event_id,
 * start_timestamp and timestamp (float seconds), transaction name,
 * contexts.trace (trace_id, span_id, op, status, data["thread.id"]),
 * contexts.profile.profile_id, platform, release, environment and sdk.
 * Its ids match the profile's transaction object (id = event_id, trace_id,
 * segment_id = span_id); missing pieces of that object are filled in on
 * the profile so that both agree. */
JsonObject *fc_transaction_event_new_for_profile (FcProfile   *v1);

G_END_DECLS
