/* fc-document.h - what a file holds: one or more profiles, transactions, other envelope items
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "fc-problem.h"
#include "fc-profile.h"

G_BEGIN_DECLS

typedef enum {
  FC_DOCUMENT_V1,
  FC_DOCUMENT_V2,
  FC_DOCUMENT_ENVELOPE,
} FcDocumentKind;

/* One envelope item that is not a profile: its header and raw payload, kept
 * so that an envelope survives a read -> write round trip. */
typedef struct {
  JsonObject *header;         /* the item header, owned */
  GBytes     *payload;        /* owned */
} FcEnvelopeItem;

#define FC_TYPE_DOCUMENT (fc_document_get_type ())
G_DECLARE_FINAL_TYPE (FcDocument, fc_document, FC, DOCUMENT, GObject)

FcDocument     *fc_document_new                (FcDocumentKind  kind);
FcDocumentKind  fc_document_get_kind           (FcDocument     *self);
const char     *fc_document_kind_to_string     (FcDocumentKind  kind); /* "v1" "v2" "envelope" */

/* profiles (V1 profiles and V2 chunks), in file order */
guint           fc_document_get_n_profiles     (FcDocument     *self);
FcProfile      *fc_document_get_profile        (FcDocument     *self,
                                                guint           index);
void            fc_document_add_profile        (FcDocument     *self,
                                                FcProfile      *profile);

/* transaction events found in an envelope, in file order */
guint           fc_document_get_n_transactions (FcDocument     *self);
JsonObject     *fc_document_get_transaction    (FcDocument     *self,
                                                guint           index);
void            fc_document_add_transaction    (FcDocument     *self,
                                                JsonObject     *event);

/* the envelope header (NULL for a bare payload) and its other items */
JsonObject     *fc_document_get_envelope_header (FcDocument    *self);
void            fc_document_set_envelope_header (FcDocument    *self,
                                                 JsonObject    *header);
guint           fc_document_get_n_other_items   (FcDocument    *self);
const FcEnvelopeItem *fc_document_get_other_item (FcDocument   *self,
                                                  guint         index);
void            fc_document_add_other_item      (FcDocument    *self,
                                                 JsonObject    *header,
                                                 GBytes        *payload);

/* problems the lenient reader found (FcProblem), in file order */
GPtrArray      *fc_document_get_problems        (FcDocument    *self);
void            fc_document_add_problem         (FcDocument    *self,
                                                 FcProblem     *problem);

/* every profile merged into one model (for views of multi-chunk files);
 * for a document with one profile, that profile with a new reference */
FcProfile      *fc_document_dup_merged_profile  (FcDocument    *self);

G_END_DECLS
