/* fc-otlp.h - OpenTelemetry profiles (v1development): ProfilesData in protobuf and OTLP/JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/*
 * One ResourceProfiles per profile of the document (its resource carries
 * service.version, deployment.environment.name and the Sentry platform),
 * each with one Profile: sample_type samples/count, period_type
 * wall/nanoseconds, period the median sampling interval, time_unix_nano and
 * duration_nano spanning the samples, and every sample's timestamp. One
 * dictionary for all: strings, functions, locations (inlined frames as extra
 * lines of one location, leaf first), mappings with their GNU build id,
 * stacks (leaf first), links (the transaction's trace and span) and the
 * thread.id / thread.name attributes of samples. Every table starts with its
 * zero entry.
 *
 * ExportProfilesServiceRequest has ProfilesData's fields and numbers, so the
 * same bytes are a request body for /v1development/profiles.
 */

GBytes     *fc_otlp_write           (FcDocument   *document,
                                     GError      **error);
GBytes     *fc_otlp_write_json      (FcDocument   *document,
                                     GError      **error);

/* Each Profile becomes a V2 chunk with its threads, frames (one per line of a
 * location), files, lines, addresses and timestamps; a sample without
 * timestamps becomes values[0] samples spread one period apart. */
FcDocument *fc_otlp_read            (GBytes       *bytes,
                                     GError      **error);
FcDocument *fc_otlp_read_json       (GBytes       *bytes,
                                     GError      **error);

/* TRUE when @bytes decode as a ProfilesData holding a dictionary or a profile */
gboolean    fc_otlp_sniff           (GBytes       *bytes);

/* An ExportProfilesServiceResponse body: rejected_profiles and
 * error_message of its partial_success (0 and NULL when absent). */
gboolean    fc_otlp_parse_response  (GBytes       *body,
                                     gint64       *rejected,
                                     char        **message,
                                     GError      **error);

/* The message of a receiver's error answer: a google.rpc.Status in
 * protobuf or JSON ({"code", "message"}); NULL when the body has none. */
char       *fc_otlp_dup_status_message (GBytes   *body);

G_END_DECLS
