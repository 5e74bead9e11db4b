/* fc-payload-parser-private.h - push parser for one V1/V2 JSON payload (yajl events -> FcProfile)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-problem.h"
#include "fc-profile.h"
#include "fc-read-flags.h"
#include "fc-read-limits.h"

G_BEGIN_DECLS

typedef struct _FcPayloadParser FcPayloadParser;

/* @where prefixes every error message and problem location ("envelope item 2: "), may be NULL;
 * @budget: what the document has used of the readers' limits, NULL for this payload alone */
FcPayloadParser *fc_payload_parser_new    (FcReadFlags       flags,
                                           const char       *where,
                                           FcReadBudget     *budget);
/* Feed the payload in pieces of any size; FALSE and @error at the first problem. */
gboolean         fc_payload_parser_feed   (FcPayloadParser  *self,
                                           const guint8     *data,
                                           gsize             len,
                                           GError          **error);
/* Ends the payload, resolves stack and frame references and returns the
 * profile; problems found in lenient mode are appended to @problems. */
FcProfile       *fc_payload_parser_finish (FcPayloadParser  *self,
                                           GPtrArray        *problems,
                                           GError          **error);
void             fc_payload_parser_free   (FcPayloadParser  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcPayloadParser, fc_payload_parser_free)

G_END_DECLS
