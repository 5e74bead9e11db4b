/* fc-envelope.c - Sentry envelopes: framing, checking and writing, for every reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The reader (files, received bodies), the transport (what is in an outbox
 * envelope), the writer and the sender all frame envelopes here, so a file
 * the transport would send is one the reader opens, byte for byte.
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-envelope.h"
#include "fc-format-error.h"
#include "fc-json-stream-private.h"
#include "fc-json-util.h"
#include "fc-problem.h"
#include "fc-time.h"
#include "fc-writer.h"

#define BLOCK_SIZE (64 * 1024)

struct _FcEnvelopeInput
{
  GInputStream *stream;
  GCancellable *cancellable;
  guint8       *buf;
  gsize         pos;
  gsize         end;
  gboolean      eof;
  gboolean      compressed;
  guint64       total;
  guint         n_items;
  FcReadBudget  budget;
  GPtrArray    *problems;    /* FcProblem: keys given twice in headers */
};

FcEnvelopeInput *
fc_envelope_input_new (GInputStream *stream,
                       gboolean      compressed,
                       GCancellable *cancellable)
{
  FcEnvelopeInput *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  self = g_new0 (FcEnvelopeInput, 1);
  self->stream = g_object_ref (stream);
  self->compressed = compressed;
  self->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  self->buf = g_malloc (BLOCK_SIZE);
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
  return self;
}

FcEnvelopeInput *
fc_envelope_input_new_for_bytes (GBytes *bytes)
{
  g_autoptr(GInputStream) stream = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);

  stream = g_memory_input_stream_new_from_bytes (bytes);
  return fc_envelope_input_new (stream, FALSE, NULL);
}

void
fc_envelope_input_free (FcEnvelopeInput *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->stream);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->buf, g_free);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_free (self);
}

FcReadBudget *
fc_envelope_input_get_budget (FcEnvelopeInput *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->budget;
}

void
fc_envelope_input_take_problems (FcEnvelopeInput *self,
                                 GPtrArray       *problems)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (problems != NULL);

  while (self->problems->len > 0)
    g_ptr_array_add (problems, g_ptr_array_steal_index (self->problems, 0));
}

/* A header with a key given twice: Relay refuses it; the reader keeps the last value. */
static void
note_duplicates (FcEnvelopeInput *self,
                 const char      *what,
                 GPtrArray       *duplicates)
{
  for (guint i = 0; i < duplicates->len; i++)
    g_ptr_array_add (self->problems,
                     fc_problem_new (FC_PROBLEM_ERROR, what, _("the key \"%s\" is given twice (Relay refuses that); "
                                     "the last value is kept"), (const char *) g_ptr_array_index (duplicates, i)));
}

void
fc_envelope_item_header_clear (FcEnvelopeItemHeader *item)
{
  g_clear_pointer (&item->header, json_object_unref);
  g_clear_pointer (&item->what, g_free);
  g_clear_pointer (&item->where, g_free);
  item->type = NULL;
}

/* ---- reading blocks ---- */

/* Broken compressed data is broken input, not an I/O failure. */
static void
propagate_read_error (FcEnvelopeInput  *self,
                      GError          **error,
                      GError           *local_error)
{
  if (self->compressed &&
      (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ||
       g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA)))
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("corrupt or truncated gzip data after %" PRIu64 " uncompressed bytes: %s"),
                   self->total, local_error->message);
      g_error_free (local_error);
    }
  else
    g_propagate_error (error, local_error);
}

static gboolean
input_read_more (FcEnvelopeInput  *in,
                 GError          **error)
{
  GError *local_error = NULL;
  gssize n;

  if (in->eof)
    return TRUE;

  if (in->pos > 0)
    {
      memmove (in->buf, in->buf + in->pos, in->end - in->pos);
      in->end -= in->pos;
      in->pos = 0;
    }

  if (in->end == BLOCK_SIZE)
    return TRUE;

  n = g_input_stream_read (in->stream, in->buf + in->end, BLOCK_SIZE - in->end, in->cancellable, &local_error);
  if (n < 0)
    {
      propagate_read_error (in, error, local_error);
      return FALSE;
    }
  if (n == 0)
    {
      in->eof = TRUE;
      return TRUE;
    }

  in->end += n;
  in->total += n;
  if (in->total > FC_READ_MAX_SIZE)
    {
      if (in->compressed)
        g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                     _("the gzip data decompresses to more than %" PRIu64 " MiB, the reader's limit; "
                     "reading stopped there"), FC_READ_MAX_SIZE >> 20);
      else
        g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                     _("the data is larger than %" PRIu64 " MiB, the reader's limit; reading stopped there"),
                     FC_READ_MAX_SIZE >> 20);
      return FALSE;
    }

  return TRUE;
}

/* Makes at least one byte available; FALSE only on error. At the end, pos == end. */
static gboolean
input_ensure (FcEnvelopeInput  *in,
              GError          **error)
{
  while (in->pos == in->end && !in->eof)
    {
      if (!input_read_more (in, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
is_space (guint8 c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skips whitespace; *at_end tells whether nothing else follows. */
static gboolean
input_skip_space (FcEnvelopeInput  *in,
                  gboolean         *at_end,
                  GError          **error)
{
  for (;;)
    {
      if (!input_ensure (in, error))
        return FALSE;
      if (in->pos == in->end)
        {
          *at_end = TRUE;
          return TRUE;
        }
      while (in->pos < in->end && is_space (in->buf[in->pos]))
        in->pos++;
      if (in->pos < in->end)
        {
          *at_end = FALSE;
          return TRUE;
        }
    }
}

/* Reads up to a newline (consumed, not stored) or the end. */
static gboolean
input_read_line (FcEnvelopeInput  *in,
                 GByteArray       *line,
                 gsize             max_len,
                 const char       *what,
                 GError          **error)
{
  for (;;)
    {
      const guint8 *nl;
      gsize n;

      if (!input_ensure (in, error))
        return FALSE;
      if (in->pos == in->end)
        return TRUE;

      nl = memchr (in->buf + in->pos, '\n', in->end - in->pos);
      n = nl ? (gsize)(nl - (in->buf + in->pos)) : in->end - in->pos;

      if (line->len + n > max_len)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       _("%s: the line is longer than %zu bytes"), what, max_len);
          return FALSE;
        }

      g_byte_array_append (line, in->buf + in->pos, n);
      in->pos += n;
      if (nl != NULL)
        {
          in->pos++;
          return TRUE;
        }
    }
}

/* Hands the bytes up to a newline (consumed) or the end to @sink. */
static gboolean
input_pump_line (FcEnvelopeInput  *in,
                 FcEnvelopeSink    sink,
                 gpointer          user_data,
                 GError          **error)
{
  for (;;)
    {
      const guint8 *nl;
      gsize n;

      if (!input_ensure (in, error))
        return FALSE;
      if (in->pos == in->end)
        return TRUE;

      nl = memchr (in->buf + in->pos, '\n', in->end - in->pos);
      n = nl ? (gsize)(nl - (in->buf + in->pos)) : in->end - in->pos;

      if (n > 0 && sink != NULL && !sink (user_data, in->buf + in->pos, n, error))
        return FALSE;
      in->pos += n;
      if (nl != NULL)
        {
          in->pos++;
          return TRUE;
        }
    }
}

/* Hands exactly @count bytes to @sink; @count == FC_ENVELOPE_NO_LENGTH means up to the end. */
static gboolean
input_pump_exact (FcEnvelopeInput  *in,
                  guint64           count,
                  FcEnvelopeSink    sink,
                  gpointer          user_data,
                  const char       *where,
                  GError          **error)
{
  guint64 left = count;

  while (left > 0)
    {
      gsize n;

      if (!input_ensure (in, error))
        return FALSE;
      if (in->pos == in->end)
        {
          if (count == FC_ENVELOPE_NO_LENGTH)
            return TRUE;
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       _("%slength %" PRIu64 " runs past the end of the data (%" PRIu64
                       " bytes missing)"), where, count, left);
          return FALSE;
        }

      n = MIN (left, in->end - in->pos);
      if (sink != NULL && !sink (user_data, in->buf + in->pos, n, error))
        return FALSE;
      in->pos += n;
      left -= n;
    }

  return TRUE;
}

/* ---- framing ---- */

/* Fills the block as far as the stream allows: a gzip stream hands out small pieces. */
static gboolean
input_fill_block (FcEnvelopeInput  *in,
                  GError          **error)
{
  while (!in->eof && (in->pos > 0 || in->end < BLOCK_SIZE))
    {
      if (!input_read_more (in, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
fc_envelope_input_peek (FcEnvelopeInput  *self,
                        const guint8    **data,
                        gsize            *len,
                        GError          **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!input_fill_block (self, error))
    return FALSE;
  *data = self->buf + self->pos;
  *len = self->end - self->pos;
  return TRUE;
}

gboolean
fc_envelope_input_start (FcEnvelopeInput  *self,
                         GError          **error)
{
  gboolean at_end = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);

  /* a whole block, so that fc_envelope_input_sniff_header() sees a first
   * line even from a gzip stream that hands out small pieces */
  if (!input_fill_block (self, error))
    return FALSE;

  /* A UTF-8 byte order mark is not JSON, but editors write it. */
  if (self->end - self->pos >= 3 && memcmp (self->buf + self->pos, "\xef\xbb\xbf", 3) == 0)
    self->pos += 3;

  if (!input_skip_space (self, &at_end, error))
    return FALSE;
  if (at_end)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("no data: the input is empty"));
      return FALSE;
    }
  return TRUE;
}

JsonObject *
fc_envelope_input_read_header (FcEnvelopeInput  *self,
                               GError          **error)
{
  g_autoptr(GByteArray) line = g_byte_array_new ();
  g_autoptr(GPtrArray) duplicates = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) local_error = NULL;
  JsonObject *header;

  g_return_val_if_fail (self != NULL, NULL);

  if (!input_read_line (self, line, FC_ENVELOPE_MAX_HEADER, "the envelope header", error))
    return NULL;

  header = fc_json_stream_parse_object ((const char *) line->data, line->len, &self->budget, duplicates,
                                        &local_error);
  if (header == NULL)
    g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                 _("the envelope header is not a JSON object: %s"), local_error->message);
  else
    note_duplicates (self, "envelope header", duplicates);
  return header;
}

JsonObject *
fc_envelope_input_sniff_header (FcEnvelopeInput *self)
{
  const guint8 *start = self->buf + self->pos;
  const guint8 *nl = memchr (start, '\n', self->end - self->pos);
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(GPtrArray) duplicates = g_ptr_array_new_with_free_func (g_free);
  FcReadBudget budget = self->budget;
  const guint8 *p;

  if (nl == NULL)
    return NULL;

  for (p = nl + 1; p < self->buf + self->end && is_space (*p); p++)
    ;
  if (p == self->buf + self->end)
    return NULL;

  header = fc_json_stream_parse_object ((const char *) start, nl - start, &budget, duplicates, NULL);
  if (header == NULL)
    return NULL;
  self->budget = budget;
  note_duplicates (self, "envelope header", duplicates);

  self->pos = nl + 1 - self->buf;
  return g_steal_pointer (&header);
}

gboolean
fc_envelope_input_next_item (FcEnvelopeInput       *self,
                             FcEnvelopeItemHeader  *item,
                             gboolean              *at_end,
                             GError               **error)
{
  g_autoptr(GByteArray) line = g_byte_array_new ();
  g_autoptr(GPtrArray) duplicates = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) local_error = NULL;
  JsonNode *length_node;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (item != NULL && item->header == NULL, FALSE);

  if (!input_skip_space (self, at_end, error))
    return FALSE;
  if (*at_end)
    return TRUE;

  if (self->n_items >= FC_READ_MAX_ITEMS)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   _("envelope item %u: more than %u items, the reader's limit"), self->n_items + 1, FC_READ_MAX_ITEMS);
      return FALSE;
    }
  item->index = ++self->n_items;
  item->what = g_strdup_printf ("envelope item %u", item->index);
  item->length = FC_ENVELOPE_NO_LENGTH;

  if (!input_read_line (self, line, FC_ENVELOPE_MAX_HEADER, item->what, error))
    return FALSE;

  item->header = fc_json_stream_parse_object ((const char *) line->data, line->len, &self->budget, duplicates,
                                              &local_error);
  if (item->header == NULL)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                   _("%s: the item header is not a JSON object: %s"), item->what, local_error->message);
      return FALSE;
    }
  note_duplicates (self, item->what, duplicates);

  item->type = fc_json_get_string (item->header, "type");
  if (item->type == NULL || *item->type == '\0')
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                   _("%s: the item header has no \"type\" string"), item->what);
      return FALSE;
    }

  item->where = g_strdup_printf ("%s (%s): ", item->what, item->type);

  length_node = json_object_get_member (item->header, "length");
  if (length_node != NULL && !JSON_NODE_HOLDS_NULL (length_node))
    {
      if (!JSON_NODE_HOLDS_VALUE (length_node) ||
          json_node_get_value_type (length_node) != G_TYPE_INT64 ||
          json_node_get_int (length_node) < 0)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       _("%s\"length\" is not a non-negative integer"), item->where);
          return FALSE;
        }
      item->length = json_node_get_int (length_node);
      if (item->length > FC_READ_MAX_SIZE)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                       _("%slength %" PRIu64 " is beyond the reader's limit"), item->where, item->length);
          return FALSE;
        }
    }

  return TRUE;
}

gboolean
fc_envelope_input_read_payload (FcEnvelopeInput       *self,
                                FcEnvelopeItemHeader  *item,
                                FcEnvelopeSink         sink,
                                gpointer               user_data,
                                GError               **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (item != NULL && item->header != NULL, FALSE);

  if (item->length == FC_ENVELOPE_NO_LENGTH)
    return input_pump_line (self, sink, user_data, error);

  if (!input_pump_exact (self, item->length, sink, user_data, item->where, error))
    return FALSE;

  /* With a length, the payload is followed by a newline or the end. */
  if (!input_ensure (self, error))
    return FALSE;
  if (self->pos < self->end)
    {
      if (self->buf[self->pos] != '\n')
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       _("%sexpected a newline after the %" PRIu64 "-byte payload, got 0x%02x"),
                       item->where, item->length, self->buf[self->pos]);
          return FALSE;
        }
      self->pos++;
    }
  return TRUE;
}

gboolean
fc_envelope_input_read_to_end (FcEnvelopeInput  *self,
                               FcEnvelopeSink    sink,
                               gpointer          user_data,
                               GError          **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return input_pump_exact (self, FC_ENVELOPE_NO_LENGTH, sink, user_data, "", error);
}

/* ---- writing ---- */

static JsonObject *
sdk_object (void)
{
  JsonObject *sdk = json_object_new ();

  json_object_set_string_member (sdk, "name", "flamecast");
  json_object_set_string_member (sdk, "version", FC_VERSION);
  return sdk;
}

JsonObject *
fc_envelope_header_new (JsonObject *existing,
                        const char *event_id,
                        gint64      sent_at_ns)
{
  JsonObject *header = json_object_new ();

  if (existing != NULL)
    {
      GList *members = json_object_get_members (existing);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (header, l->data, json_node_ref (json_object_get_member (existing, l->data)));
      g_list_free (members);
    }

  /* the official SDKs put an event_id on every envelope, chunks included */
  if (!json_object_has_member (header, "event_id"))
    {
      g_autofree char *fresh = event_id == NULL ? fc_uuid_hex_new () : NULL;

      json_object_set_string_member (header, "event_id", event_id != NULL ? event_id : fresh);
    }
  if (!json_object_has_member (header, "sent_at"))
    {
      g_autofree char *sent_at = fc_time_format_rfc3339 (sent_at_ns != 0 ? sent_at_ns
                                                         : g_get_real_time () * 1000);

      json_object_set_string_member (header, "sent_at", sent_at);
    }
  if (!json_object_has_member (header, "sdk"))
    json_object_set_object_member (header, "sdk", sdk_object ());

  return header;
}

void
fc_envelope_append_header (GByteArray *buf,
                           JsonObject *header)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, header);
  text = fc_writer_json_to_string (node);
  g_byte_array_append (buf, (const guint8 *) text, strlen (text));
  g_byte_array_append (buf, (const guint8 *) "\n", 1);
}

void
fc_envelope_append_item (GByteArray   *buf,
                         JsonObject   *item_header,
                         const guint8 *payload,
                         gsize         len)
{
  g_autoptr(JsonObject) h = json_object_new ();
  GList *members = json_object_get_members (item_header);

  /* a copy, so that the caller's header keeps its own length */
  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (h, l->data, json_node_ref (json_object_get_member (item_header, l->data)));
  g_list_free (members);
  json_object_set_int_member (h, "length", len);

  fc_envelope_append_header (buf, h);
  g_byte_array_append (buf, payload, len);
  g_byte_array_append (buf, (const guint8 *) "\n", 1);
}

/* ---- checking ---- */

void
fc_envelope_check (FcDocument *document,
                   gboolean    strict,
                   GPtrArray  *problems)
{
  JsonObject *header;
  guint n_profiles;
  guint n_transactions;
  gboolean has_v1 = FALSE;
  const char *sent_at;
  gint64 ns;

  g_return_if_fail (FC_IS_DOCUMENT (document));
  g_return_if_fail (problems != NULL);

  header = fc_document_get_envelope_header (document);
  n_profiles = fc_document_get_n_profiles (document);
  n_transactions = fc_document_get_n_transactions (document);

  if (header != NULL)
    {
      sent_at = fc_json_get_string (header, "sent_at");
      if (json_object_has_member (header, "sent_at") &&
          (sent_at == NULL || !fc_time_parse_rfc3339 (sent_at, &ns)))
        g_ptr_array_add (problems, fc_problem_new (FC_PROBLEM_WARNING, "envelope header.sent_at",
                                                   _("not an RFC 3339 timestamp")));
      if (!json_object_has_member (header, "sdk"))
        g_ptr_array_add (problems, fc_problem_new (strict ? FC_PROBLEM_ERROR : FC_PROBLEM_WARNING,
                                                   "envelope header.sdk", _("missing; recommended")));
      if (json_object_has_member (header, "event_id") &&
          !fc_uuid_is_valid (fc_json_get_string (header, "event_id"), NULL))
        g_ptr_array_add (problems, fc_problem_new (FC_PROBLEM_ERROR, "envelope header.event_id",
                                                   _("not a UUID")));
    }

  if (n_profiles > 1)
    g_ptr_array_add (problems, fc_problem_new (FC_PROBLEM_ERROR, "envelope",
                                               _("%u profile/profile_chunk items; Relay accepts at most one "
                                               "per envelope and answers 413"), n_profiles));

  for (guint i = 0; i < n_profiles; i++)
    {
      if (fc_profile_get_format (fc_document_get_profile (document, i)) == FC_FORMAT_V1)
        has_v1 = TRUE;
    }
  if (has_v1 && n_transactions != 1)
    g_ptr_array_add (problems, fc_problem_new (FC_PROBLEM_ERROR, "envelope",
                                               _("%u transaction items; a profile item needs exactly one"),
                                               n_transactions));
}

static gboolean
append_sink (gpointer       user_data,
             const guint8  *data,
             gsize          len,
             GError       **error)
{
  g_byte_array_append (user_data, data, len);
  return TRUE;
}

gboolean
fc_envelope_input_next_payload (FcEnvelopeInput       *self,
                                FcEnvelopeItemHeader  *item,
                                GByteArray           **payload,
                                GError               **error)
{
  gboolean at_end = FALSE;

  g_return_val_if_fail (payload != NULL && *payload == NULL, FALSE);

  if (!fc_envelope_input_next_item (self, item, &at_end, error) || at_end)
    return FALSE;
  *payload = g_byte_array_new ();
  if (!fc_envelope_input_read_payload (self, item, append_sink, *payload, error))
    {
      g_clear_pointer (payload, g_byte_array_unref);
      return FALSE;
    }
  return TRUE;
}

gboolean
fc_envelope_item_is_json (const char *type)
{
  return g_strcmp0 (type, "profile") == 0 || g_strcmp0 (type, "profile_chunk") == 0 ||
         g_strcmp0 (type, "transaction") == 0 || g_strcmp0 (type, "event") == 0;
}
