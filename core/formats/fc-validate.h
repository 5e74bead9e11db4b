/* fc-validate.h - what Relay would reject (errors) or only recommends (warnings)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-document.h"
#include "fc-problem.h"
#include "fc-profile.h"

G_BEGIN_DECLS

/* Relay's limits (its default relay-config): a profile or chunk payload,
 * a transaction or event payload, a whole envelope. The one copy: the
 * validator and the envelope summary (fc-envelope-summary.h) read them here. */
#define FC_VALIDATE_MAX_PAYLOAD_SIZE   (G_GUINT64_CONSTANT (50) * 1024 * 1024)
#define FC_VALIDATE_MAX_EVENT_SIZE     (G_GUINT64_CONSTANT (1) * 1024 * 1024)
#define FC_VALIDATE_MAX_ENVELOPE_SIZE  (G_GUINT64_CONSTANT (100) * 1024 * 1024)
#define FC_VALIDATE_MAX_CHUNK_NS       (G_GINT64_CONSTANT (66) * 1000000000)
#define FC_VALIDATE_MAX_V1_NS          (G_GINT64_CONSTANT (30) * 1000000000)

/* The problems (FcProblem) of one V1 profile or V2 chunk by the rules of its
 * format, errors and warnings in a fixed order; an empty array when Relay
 * would accept it as recommended. */
GPtrArray *fc_validate_profile    (FcProfile  *profile);
typedef enum {
  FC_VALIDATE_FLAGS_NONE = 0,
  /* what the SDK spec marks RECOMMENDED (environment, canonical ids, trace
   * op and status, the envelope's sdk...) is an error too */
  FC_VALIDATE_STRICT     = 1 << 0,
} FcValidateFlags;

/* The reader's problems, each profile's, and the envelope rules (one
 * profile per envelope, a V1 profile's single transaction, the transaction
 * event and its link to the profile, the envelope header). */
GPtrArray *fc_validate_document   (FcDocument *document);
GPtrArray *fc_validate_document_full (FcDocument      *document,
                                      FcValidateFlags  flags);
/* A transaction event as Relay checks it, with @location as prefix. */
void       fc_validate_transaction (JsonObject *event,
                                    const char *location,
                                    GPtrArray  *problems);
gboolean   fc_problems_has_errors (GPtrArray  *problems);
/* Relay drops a thread with fewer than two samples that have a stack, and
 * rejects a chunk where no thread is left: FALSE for such a chunk. */
gboolean   fc_validate_keeps_a_thread (FcProfile *profile);
guint      fc_problems_count      (GPtrArray  *problems,
                                   FcProblemSeverity severity);

G_END_DECLS
