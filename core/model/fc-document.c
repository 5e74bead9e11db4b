/* fc-document.c - the contents of one opened file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-document.h"

struct _FcDocument
{
  GObject         parent_instance;

  FcDocumentKind  kind;
  GPtrArray      *profiles;      /* FcProfile */
  GPtrArray      *transactions;  /* JsonObject */
  JsonObject     *envelope_header;
  GArray         *other_items;   /* FcEnvelopeItem */
  GPtrArray      *problems;      /* FcProblem */
};

G_DEFINE_FINAL_TYPE (FcDocument, fc_document, G_TYPE_OBJECT)

static void
envelope_item_clear (gpointer data)
{
  FcEnvelopeItem *item = data;

  g_clear_pointer (&item->header, json_object_unref);
  g_clear_pointer (&item->payload, g_bytes_unref);
}

static void
fc_document_finalize (GObject *object)
{
  FcDocument *self = (FcDocument *)object;

  g_clear_pointer (&self->profiles, g_ptr_array_unref);
  g_clear_pointer (&self->transactions, g_ptr_array_unref);
  g_clear_pointer (&self->envelope_header, json_object_unref);
  g_clear_pointer (&self->other_items, g_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (fc_document_parent_class)->finalize (object);
}

static void
fc_document_class_init (FcDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_document_finalize;
}

static void
fc_document_init (FcDocument *self)
{
  self->profiles = g_ptr_array_new_with_free_func (g_object_unref);
  self->transactions = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  self->other_items = g_array_new (FALSE, TRUE, sizeof (FcEnvelopeItem));
  g_array_set_clear_func (self->other_items, envelope_item_clear);
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);
}

FcDocument *
fc_document_new (FcDocumentKind kind)
{
  FcDocument *self = g_object_new (FC_TYPE_DOCUMENT, NULL);

  self->kind = kind;
  return self;
}

FcDocumentKind
fc_document_get_kind (FcDocument *self)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), FC_DOCUMENT_V2);
  return self->kind;
}

const char *
fc_document_kind_to_string (FcDocumentKind kind)
{
  switch (kind)
    {
    case FC_DOCUMENT_V1: return "v1";
    case FC_DOCUMENT_V2: return "v2";
    case FC_DOCUMENT_ENVELOPE: return "envelope";
    default: g_return_val_if_reached ("unknown");
    }
}

guint
fc_document_get_n_profiles (FcDocument *self)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), 0);
  return self->profiles->len;
}

FcProfile *
fc_document_get_profile (FcDocument *self,
                         guint       index)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (index < self->profiles->len, NULL);
  return g_ptr_array_index (self->profiles, index);
}

void
fc_document_add_profile (FcDocument *self,
                         FcProfile  *profile)
{
  g_return_if_fail (FC_IS_DOCUMENT (self));
  g_return_if_fail (FC_IS_PROFILE (profile));

  /* a document is read from any thread: its profiles are done growing */
  fc_profile_finish (profile);
  g_ptr_array_add (self->profiles, g_object_ref (profile));
}

guint
fc_document_get_n_transactions (FcDocument *self)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), 0);
  return self->transactions->len;
}

JsonObject *
fc_document_get_transaction (FcDocument *self,
                             guint       index)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (index < self->transactions->len, NULL);
  return g_ptr_array_index (self->transactions, index);
}

void
fc_document_add_transaction (FcDocument *self,
                             JsonObject *event)
{
  g_return_if_fail (FC_IS_DOCUMENT (self));
  g_return_if_fail (event != NULL);
  g_ptr_array_add (self->transactions, json_object_ref (event));
}

JsonObject *
fc_document_get_envelope_header (FcDocument *self)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), NULL);
  return self->envelope_header;
}

void
fc_document_set_envelope_header (FcDocument *self,
                                 JsonObject *header)
{
  g_return_if_fail (FC_IS_DOCUMENT (self));

  if (header != NULL)
    json_object_ref (header);
  g_clear_pointer (&self->envelope_header, json_object_unref);
  self->envelope_header = header;
}

guint
fc_document_get_n_other_items (FcDocument *self)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), 0);
  return self->other_items->len;
}

const FcEnvelopeItem *
fc_document_get_other_item (FcDocument *self,
                            guint       index)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (index < self->other_items->len, NULL);
  return &g_array_index (self->other_items, FcEnvelopeItem, index);
}

void
fc_document_add_other_item (FcDocument *self,
                            JsonObject *header,
                            GBytes     *payload)
{
  FcEnvelopeItem item;

  g_return_if_fail (FC_IS_DOCUMENT (self));
  g_return_if_fail (header != NULL);
  g_return_if_fail (payload != NULL);

  item.header = json_object_ref (header);
  item.payload = g_bytes_ref (payload);
  g_array_append_val (self->other_items, item);
}

GPtrArray *
fc_document_get_problems (FcDocument *self)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (self), NULL);
  return self->problems;
}

void
fc_document_add_problem (FcDocument *self,
                         FcProblem  *problem)
{
  g_return_if_fail (FC_IS_DOCUMENT (self));
  g_return_if_fail (problem != NULL);
  g_ptr_array_add (self->problems, problem);
}

/**
 * fc_document_dup_merged_profile:
 *
 * Views show one timeline even for an envelope that carries several chunks:
 * this merges them (metadata of the first) into one model.
 *
 * Returns: (transfer full): a profile; empty when the document has none
 */
FcProfile *
fc_document_dup_merged_profile (FcDocument *self)
{
  FcProfile *merged;

  g_return_val_if_fail (FC_IS_DOCUMENT (self), NULL);

  if (self->profiles->len == 0)
    return fc_profile_new (FC_FORMAT_V2);

  if (self->profiles->len == 1)
    return g_object_ref (g_ptr_array_index (self->profiles, 0));

  merged = fc_profile_copy_range (g_ptr_array_index (self->profiles, 0), 0, 0);
  for (guint i = 1; i < self->profiles->len; i++)
    {
      FcProfile *profile = g_ptr_array_index (self->profiles, i);

      fc_profile_import (merged, profile, 0, 0);
      /* the transaction may link to a later chunk: its thread is the default one */
      if (fc_profile_get_linked_event (merged) == NULL)
        fc_profile_set_linked_event (merged, fc_profile_get_linked_event (profile));
    }
  fc_profile_finish (merged);

  return merged;
}
