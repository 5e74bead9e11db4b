/* fc-reader.c - read V2 chunks, V1 profiles and envelopes (plain or gzip) into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-error.h"
#include "fc-import.h"
#include "fc-json-stream-private.h"
#include "fc-payload-parser-private.h"
#include "fc-reader.h"

/*
 * The input is read in 64 KiB blocks and never held whole: a payload's
 * blocks go straight to the yajl push parser (fc-payload-parser.c). The kind
 * of input is told by its content: gzip magic, then an envelope (a first line
 * that is a complete JSON object, followed by more lines) or a bare payload.
 */

#define BLOCK_SIZE      (64 * 1024)
#define MAX_HEADER_LINE (1024 * 1024)

typedef struct {
  GInputStream *stream;
  GCancellable *cancellable;
  guint8       *buf;
  gsize         pos;
  gsize         end;
  gboolean      eof;
  gboolean      compressed;
  guint64       total;
} Input;

typedef gboolean (*SinkFunc) (gpointer      user_data,
                              const guint8 *data,
                              gsize         len,
                              GError      **error);

static void
input_clear (Input *in)
{
  g_clear_object (&in->stream);
  g_clear_pointer (&in->buf, g_free);
}

/* Broken compressed data is broken input, not an I/O failure. */
static void
propagate_gzip_error (GError  **error,
                      GError   *local_error,
                      guint64   offset)
{
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ||
      g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   "corrupt or truncated gzip data after %" G_GUINT64_FORMAT " uncompressed bytes: %s",
                   offset, local_error->message);
      g_error_free (local_error);
    }
  else
    g_propagate_error (error, local_error);
}

static gboolean
input_read_more (Input   *in,
                 GError **error)
{
  g_autoptr(GError) local_error = NULL;
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
      if (in->compressed)
        propagate_gzip_error (error, g_steal_pointer (&local_error), in->total);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (n == 0)
    {
      in->eof = TRUE;
      return TRUE;
    }

  in->end += n;
  in->total += n;
  if (in->total > FC_READER_MAX_SIZE)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   "the data is larger than %" G_GUINT64_FORMAT " MiB (uncompressed), the reader's limit",
                   FC_READER_MAX_SIZE >> 20);
      return FALSE;
    }

  return TRUE;
}

/* Fills the block as far as the stream allows: a gzip stream hands out small pieces. */
static gboolean
input_fill_block (Input   *in,
                  GError **error)
{
  while (!in->eof && (in->pos > 0 || in->end < BLOCK_SIZE))
    {
      if (!input_read_more (in, error))
        return FALSE;
    }
  return TRUE;
}

/* The rest of the input in memory, for the importers of other formats. */
static GBytes *
input_read_all (Input   *in,
                GError **error)
{
  g_autoptr(GByteArray) all = g_byte_array_new ();

  for (;;)
    {
      g_byte_array_append (all, in->buf + in->pos, in->end - in->pos);
      in->pos = in->end;
      if (in->eof)
        break;
      if (!input_read_more (in, error))
        return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&all));
}

/* Makes at least one byte available; FALSE only on error. At the end, pos == end. */
static gboolean
input_ensure (Input   *in,
              GError **error)
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
input_skip_space (Input     *in,
                  gboolean  *at_end,
                  GError   **error)
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
input_read_line (Input       *in,
                 GByteArray  *line,
                 gsize        max_len,
                 const char  *what,
                 GError     **error)
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
                       "%s: the line is longer than %" G_GSIZE_FORMAT " bytes", what, max_len);
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
input_pump_line (Input     *in,
                 SinkFunc   sink,
                 gpointer   user_data,
                 GError   **error)
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

      if (n > 0 && !sink (user_data, in->buf + in->pos, n, error))
        return FALSE;
      in->pos += n;
      if (nl != NULL)
        {
          in->pos++;
          return TRUE;
        }
    }
}

/* Hands exactly @count bytes to @sink; @count == G_MAXUINT64 means up to the end. */
static gboolean
input_pump_exact (Input       *in,
                  guint64      count,
                  SinkFunc     sink,
                  gpointer     user_data,
                  const char  *where,
                  GError     **error)
{
  guint64 left = count;

  while (left > 0)
    {
      gsize n;

      if (!input_ensure (in, error))
        return FALSE;
      if (in->pos == in->end)
        {
          if (count == G_MAXUINT64)
            return TRUE;
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       "%slength %" G_GUINT64_FORMAT " runs past the end of the data (%" G_GUINT64_FORMAT
                       " bytes missing)", where, count, left);
          return FALSE;
        }

      n = MIN (left, in->end - in->pos);
      if (!sink (user_data, in->buf + in->pos, n, error))
        return FALSE;
      in->pos += n;
      left -= n;
    }

  return TRUE;
}

static gboolean
sink_parser (gpointer      user_data,
             const guint8 *data,
             gsize         len,
             GError      **error)
{
  return fc_payload_parser_feed (user_data, data, len, error);
}

static gboolean
sink_bytes (gpointer      user_data,
            const guint8 *data,
            gsize         len,
            GError      **error)
{
  g_byte_array_append (user_data, data, len);
  return TRUE;
}

/* ---- time ---- */

/**
 * fc_reader_parse_rfc3339:
 * @text: "2025-05-19T13:47:00.482107Z", "2022-09-01T09:45:00+02:00"...
 *
 * Unlike GDateTime, keeps up to nine fractional digits.
 */
gboolean
fc_reader_parse_rfc3339 (const char *text,
                         gint64     *out_ns)
{
  g_autoptr(GTimeZone) utc = NULL;
  g_autoptr(GDateTime) dt = NULL;
  g_autoptr(GString) rest = NULL;
  const char *t;
  const char *dot;
  gint64 frac = 0;
  gint64 unix_s;
  int n_frac = 0;

  g_return_val_if_fail (text != NULL, FALSE);

  t = strpbrk (text, "Tt ");
  if (t == NULL)
    return FALSE;

  rest = g_string_new (NULL);
  dot = strchr (t, '.');
  if (dot != NULL)
    {
      const char *p = dot + 1;

      if (!g_ascii_isdigit (*p))
        return FALSE;
      for (; g_ascii_isdigit (*p); p++)
        {
          if (n_frac < 9)
            {
              frac = frac * 10 + (*p - '0');
              n_frac++;
            }
        }
      for (; n_frac < 9; n_frac++)
        frac *= 10;
      g_string_append_len (rest, text, dot - text);
      g_string_append (rest, p);
    }
  else
    g_string_append (rest, text);

  utc = g_time_zone_new_utc ();
  dt = g_date_time_new_from_iso8601 (rest->str, utc);
  if (dt == NULL)
    return FALSE;

  unix_s = g_date_time_to_unix (dt);
  if (unix_s < 0 || unix_s > G_GINT64_CONSTANT (7258118400))
    return FALSE;

  *out_ns = unix_s * G_GINT64_CONSTANT (1000000000) + frac;
  return TRUE;
}

/* ---- documents ---- */

static FcDocumentKind
kind_for_format (FcFormat format)
{
  return format == FC_FORMAT_V1 ? FC_DOCUMENT_V1 : FC_DOCUMENT_V2;
}

static void
add_problems (FcDocument *doc,
              GPtrArray  *problems)
{
  while (problems->len > 0)
    fc_document_add_problem (doc, g_ptr_array_steal_index (problems, 0));
}

static JsonObject *
parse_object (const char  *data,
              gsize        len,
              GError     **error)
{
  return fc_json_stream_parse_object (data, len, error);
}

/* Sentry writes UUIDs with or without dashes, in either case. */
static gboolean
ids_equal (const char *a,
           const char *b)
{
  if (a == NULL || b == NULL)
    return FALSE;

  for (;;)
    {
      while (*a == '-')
        a++;
      while (*b == '-')
        b++;
      if (*a == '\0' || *b == '\0')
        return *a == *b;
      if (g_ascii_tolower (*a) != g_ascii_tolower (*b))
        return FALSE;
      a++;
      b++;
    }
}

static const char *
get_string_member (JsonObject *object,
                   const char *key)
{
  JsonNode *node = object ? json_object_get_member (object, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static JsonObject *
get_object_member (JsonObject *object,
                   const char *key)
{
  JsonNode *node = object ? json_object_get_member (object, key) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static void
link_transactions (FcDocument *doc)
{
  guint n_tx = fc_document_get_n_transactions (doc);

  for (guint i = 0; i < fc_document_get_n_profiles (doc); i++)
    {
      FcProfile *profile = fc_document_get_profile (doc, i);

      for (guint j = 0; j < n_tx; j++)
        {
          JsonObject *event = fc_document_get_transaction (doc, j);
          const char *event_id = get_string_member (event, "event_id");
          gboolean match = FALSE;

          if (fc_profile_get_format (profile) == FC_FORMAT_V1)
            {
              JsonObject *tx = fc_profile_get_transaction (profile);

              if (tx != NULL)
                match = ids_equal (get_string_member (tx, "id"), event_id);
            }
          else
            {
              JsonObject *prof = get_object_member (get_object_member (event, "contexts"), "profile");

              if (prof != NULL)
                match = ids_equal (get_string_member (prof, "profiler_id"),
                                   fc_profile_get_profiler_id (profile));
            }

          if (match)
            {
              fc_profile_set_linked_event (profile, event);
              break;
            }
        }
    }
}

static FcDocument *
read_payload (Input        *in,
              FcReadFlags   flags,
              GError      **error)
{
  g_autoptr(FcPayloadParser) parser = fc_payload_parser_new (flags, NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);
  g_autoptr(FcProfile) profile = NULL;
  g_autoptr(FcDocument) doc = NULL;

  if (!input_pump_exact (in, G_MAXUINT64, sink_parser, parser, "", error))
    return NULL;

  profile = fc_payload_parser_finish (parser, problems, error);
  if (profile == NULL)
    return NULL;

  doc = fc_document_new (kind_for_format (fc_profile_get_format (profile)));
  fc_document_add_profile (doc, profile);
  add_problems (doc, problems);

  return g_steal_pointer (&doc);
}

static gboolean
read_item (Input       *in,
           FcDocument  *doc,
           guint        item_no,
           FcReadFlags  flags,
           GError     **error)
{
  g_autoptr(GByteArray) line = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autofree char *what = g_strdup_printf ("envelope item %u", item_no);
  g_autofree char *where = NULL;
  const char *type;
  JsonNode *length_node;
  guint64 length = G_MAXUINT64;
  gboolean has_length = FALSE;

  if (!input_read_line (in, line, MAX_HEADER_LINE, what, error))
    return FALSE;

  header = parse_object ((const char *)line->data, line->len, &local_error);
  if (header == NULL)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                   "%s: the item header is not a JSON object: %s", what, local_error->message);
      return FALSE;
    }

  type = get_string_member (header, "type");
  if (type == NULL)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                   "%s: the item header has no \"type\" string", what);
      return FALSE;
    }

  where = g_strdup_printf ("%s (%s): ", what, type);

  length_node = json_object_get_member (header, "length");
  if (length_node != NULL && !JSON_NODE_HOLDS_NULL (length_node))
    {
      if (!JSON_NODE_HOLDS_VALUE (length_node) ||
          json_node_get_value_type (length_node) != G_TYPE_INT64 ||
          json_node_get_int (length_node) < 0)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       "%s\"length\" is not a non-negative integer", where);
          return FALSE;
        }
      length = json_node_get_int (length_node);
      has_length = TRUE;
      if (length > FC_READER_MAX_SIZE)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                       "%slength %" G_GUINT64_FORMAT " is beyond the reader's limit", where, length);
          return FALSE;
        }
    }

  if (g_str_equal (type, "profile") || g_str_equal (type, "profile_chunk"))
    {
      g_autoptr(FcPayloadParser) parser = fc_payload_parser_new (flags, where);
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);
      g_autoptr(FcProfile) profile = NULL;

      if (has_length ? !input_pump_exact (in, length, sink_parser, parser, where, error)
                     : !input_pump_line (in, sink_parser, parser, error))
        return FALSE;

      profile = fc_payload_parser_finish (parser, problems, error);
      if (profile == NULL)
        return FALSE;

      fc_document_add_profile (doc, profile);
      add_problems (doc, problems);
    }
  else
    {
      g_autoptr(GByteArray) payload = g_byte_array_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(JsonObject) event = NULL;

      if (has_length ? !input_pump_exact (in, length, sink_bytes, payload, where, error)
                     : !input_pump_line (in, sink_bytes, payload, error))
        return FALSE;

      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&payload));

      if (g_str_equal (type, "transaction"))
        {
          gsize size;
          const char *data = g_bytes_get_data (bytes, &size);

          g_clear_error (&local_error);
          event = parse_object (data, size, &local_error);
          if (event == NULL && !(flags & FC_READ_LENIENT))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                           "%sthe transaction is not a JSON object: %s", where, local_error->message);
              return FALSE;
            }
          if (event == NULL)
            fc_document_add_problem (doc, fc_problem_new (FC_PROBLEM_ERROR, what,
                                                          "the transaction is not a JSON object: %s",
                                                          local_error->message));
        }

      if (event != NULL)
        fc_document_add_transaction (doc, event);
      else
        fc_document_add_other_item (doc, header, bytes);
    }

  /* With a length, the payload is followed by a newline or the end. */
  if (has_length)
    {
      if (!input_ensure (in, error))
        return FALSE;
      if (in->pos < in->end)
        {
          if (in->buf[in->pos] != '\n')
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                           "%sexpected a newline after the %" G_GUINT64_FORMAT "-byte payload, got 0x%02x",
                           where, length, in->buf[in->pos]);
              return FALSE;
            }
          in->pos++;
        }
    }

  return TRUE;
}

static FcDocument *
read_envelope (Input        *in,
               JsonObject   *header,
               FcReadFlags   flags,
               GError      **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_ENVELOPE);

  fc_document_set_envelope_header (doc, header);

  for (guint item_no = 1; ; item_no++)
    {
      gboolean at_end = FALSE;

      if (!input_skip_space (in, &at_end, error))
        return NULL;
      if (at_end)
        break;
      if (!read_item (in, doc, item_no, flags, error))
        return NULL;
    }

  link_transactions (doc);
  return g_steal_pointer (&doc);
}

/* An envelope starts with a header line that is a whole JSON object, and
 * more follows it; a pretty-printed payload's first line is just "{". */
static JsonObject *
sniff_envelope_header (Input *in)
{
  const guint8 *start = in->buf + in->pos;
  const guint8 *nl = memchr (start, '\n', in->end - in->pos);
  g_autoptr(JsonObject) header = NULL;
  const guint8 *p;

  if (nl == NULL)
    return NULL;

  for (p = nl + 1; p < in->buf + in->end && is_space (*p); p++)
    ;
  if (p == in->buf + in->end)
    return NULL;

  header = parse_object ((const char *)start, nl - start, NULL);
  if (header == NULL)
    return NULL;

  in->pos = nl + 1 - in->buf;
  return g_steal_pointer (&header);
}

static GInputStream *
maybe_decompress (GInputStream  *base,
                  gboolean      *compressed,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(GInputStream) stream = g_object_ref (base);

  /* A gzip inside a gzip is decompressed again, up to a sane depth. */
  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(GInputStream) buffered = g_buffered_input_stream_new_sized (stream, BLOCK_SIZE);
      g_autoptr(GZlibDecompressor) decompressor = NULL;
      const guint8 *head;
      gsize avail = 0;

      while ((avail = g_buffered_input_stream_get_available (G_BUFFERED_INPUT_STREAM (buffered))) < 2)
        {
          g_autoptr(GError) local_error = NULL;
          gssize n = g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (buffered), 2 - avail,
                                                   cancellable, &local_error);

          if (n < 0)
            {
              if (*compressed)
                propagate_gzip_error (error, g_steal_pointer (&local_error), 0);
              else
                g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          if (n == 0)
            break;
        }

      head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &avail);
      if (avail < 2 || head[0] != 0x1f || head[1] != 0x8b)
        return g_steal_pointer (&buffered);

      decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      g_clear_object (&stream);
      stream = g_converter_input_stream_new (buffered, G_CONVERTER (decompressor));
      *compressed = TRUE;
    }

  return g_steal_pointer (&stream);
}

/**
 * fc_reader_load_stream:
 *
 * Reads a V2 chunk, a V1 profile or an envelope, plain or gzip-compressed,
 * telling them apart by content.
 *
 * Returns: (transfer full): the document, or %NULL with @error set
 */
FcDocument *
fc_reader_load_stream (GInputStream  *stream,
                       FcReadFlags    flags,
                       GCancellable  *cancellable,
                       GError       **error)
{
  Input in = { 0 };
  g_autoptr(JsonObject) header = NULL;
  FcDocument *doc = NULL;
  FcImportKind kind;
  gboolean at_end = FALSE;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  in.stream = maybe_decompress (stream, &in.compressed, cancellable, error);
  if (in.stream == NULL)
    return NULL;
  in.cancellable = cancellable;
  in.buf = g_malloc (BLOCK_SIZE);

  if (!input_fill_block (&in, error))
    goto out;

  /* pprof, OTLP, speedscope, folded stacks, perf script (fc-import.c) */
  kind = fc_import_sniff (in.buf + in.pos, in.end - in.pos);
  if (kind != FC_IMPORT_NONE)
    {
      g_autoptr(GBytes) all = input_read_all (&in, error);

      doc = all != NULL ? fc_import_load (kind, all, error) : NULL;
      goto out;
    }

  /* A UTF-8 byte order mark is not JSON, but editors write it. */
  if (in.end - in.pos >= 3 && memcmp (in.buf + in.pos, "\xef\xbb\xbf", 3) == 0)
    in.pos += 3;

  if (!input_skip_space (&in, &at_end, error))
    goto out;
  if (at_end)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, "no data: the input is empty");
      goto out;
    }

  header = sniff_envelope_header (&in);
  if (header != NULL)
    doc = read_envelope (&in, header, flags, error);
  else
    doc = read_payload (&in, flags, error);

out:
  input_clear (&in);
  return doc;
}

/**
 * fc_reader_load_file:
 * @flags: %FC_READ_LENIENT to open slightly broken files, recording FcProblems
 *
 * Reads @file without holding it in memory whole. Blocks: use
 * fc_reader_load_file_async() from the main thread.
 *
 * Returns: (transfer full): the document, or %NULL with @error in
 * %FC_FORMAT_ERROR (or %G_IO_ERROR when the file cannot be read)
 */
FcDocument *
fc_reader_load_file (GFile         *file,
                     FcReadFlags    flags,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stream = g_file_read (file, cancellable, error);
  if (stream == NULL)
    return NULL;

  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
  if (info != NULL && (guint64)g_file_info_get_size (info) > FC_READER_MAX_SIZE)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   "%s: %" G_GUINT64_FORMAT " bytes, larger than the reader's limit of %" G_GUINT64_FORMAT " MiB",
                   name, (guint64)g_file_info_get_size (info), FC_READER_MAX_SIZE >> 20);
      return NULL;
    }

  return fc_reader_load_stream (G_INPUT_STREAM (stream), flags, cancellable, error);
}

/**
 * fc_reader_load_bytes:
 *
 * Like fc_reader_load_file() for data in memory (a received envelope body).
 */
FcDocument *
fc_reader_load_bytes (GBytes       *bytes,
                      FcReadFlags   flags,
                      GError      **error)
{
  g_autoptr(GInputStream) stream = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (g_bytes_get_size (bytes) > FC_READER_MAX_SIZE)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   "%" G_GSIZE_FORMAT " bytes, larger than the reader's limit of %" G_GUINT64_FORMAT " MiB",
                   g_bytes_get_size (bytes), FC_READER_MAX_SIZE >> 20);
      return NULL;
    }

  stream = g_memory_input_stream_new_from_bytes (bytes);
  return fc_reader_load_stream (stream, flags, NULL, error);
}

/**
 * fc_reader_parse_payload:
 * @problems: (element-type FcProblem) (nullable): receives lenient-mode problems
 *
 * Parses one V1 profile or V2 chunk payload, such as an envelope item.
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
FcProfile *
fc_reader_parse_payload (const char   *data,
                         gsize         len,
                         FcReadFlags   flags,
                         GPtrArray    *problems,
                         GError      **error)
{
  g_autoptr(FcPayloadParser) parser = NULL;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (len > FC_READER_MAX_SIZE)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   "%" G_GSIZE_FORMAT " bytes, larger than the reader's limit of %" G_GUINT64_FORMAT " MiB",
                   len, FC_READER_MAX_SIZE >> 20);
      return NULL;
    }

  parser = fc_payload_parser_new (flags, NULL);
  if (!fc_payload_parser_feed (parser, (const guint8 *)data, len, error))
    return NULL;
  return fc_payload_parser_finish (parser, problems, error);
}

/* ---- async ---- */

static void
load_file_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GFile *file = task_data;
  FcReadFlags flags = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "fc-read-flags"));
  GError *error = NULL;
  FcDocument *doc;

  doc = fc_reader_load_file (file, flags, cancellable, &error);
  if (doc == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, doc, g_object_unref);
}

/**
 * fc_reader_load_file_async:
 *
 * Loads @file in a worker thread; the main loop never parses.
 */
void
fc_reader_load_file_async (GFile               *file,
                           FcReadFlags          flags,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_reader_load_file_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_object_set_data (G_OBJECT (task), "fc-read-flags", GUINT_TO_POINTER (flags));
  g_task_run_in_thread (task, load_file_thread);
}

FcDocument *
fc_reader_load_file_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == fc_reader_load_file_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
