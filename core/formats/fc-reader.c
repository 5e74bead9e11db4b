/* fc-reader.c - read V2 chunks, V1 profiles and envelopes (plain or gzip) into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-envelope.h"
#include "fc-format-error.h"
#include "fc-import.h"
#include "fc-json-stream-private.h"
#include "fc-payload-parser-private.h"
#include "fc-reader.h"
#include "fc-transaction.h"

/*
 * The input is read in 64 KiB blocks and never held whole: a payload's
 * blocks go straight to the yajl push parser (fc-payload-parser.c). The kind
 * of input is told by its content: gzip magic, then an envelope (a first line
 * that is a complete JSON object, followed by more lines) or a bare payload.
 */

#define BLOCK_SIZE (64 * 1024)

static gboolean
sink_parser (gpointer      user_data,
             const guint8 *data,
             gsize         len,
             GError      **error)
{
  return fc_payload_parser_feed (user_data, data, len, error);
}

typedef struct {
  GByteArray *bytes;
  guint64    *held;     /* bytes held so far in the document */
  const char *what;     /* "speedscope", "envelope item 3" */
} Held;

/* What is held whole (formats decoded in one piece, envelope items other
 * than profiles) stops at FC_READ_MAX_WHOLE_SIZE. */
static gboolean
sink_held (gpointer      user_data,
           const guint8 *data,
           gsize         len,
           GError      **error)
{
  Held *held = user_data;

  *held->held += len;
  if (*held->held > FC_READ_MAX_WHOLE_SIZE)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   _("%s: more than %" PRIu64 " MiB (decompressed) to hold whole, the reader's limit; "
                   "reading stopped there"), held->what, FC_READ_MAX_WHOLE_SIZE >> 20);
      return FALSE;
    }
  g_byte_array_append (held->bytes, data, len);
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
          gboolean match = fc_transaction_links_profile (event, profile);

          if (match)
            {
              fc_profile_set_linked_event (profile, event);
              break;
            }
        }
    }
}

static FcDocument *
read_payload (FcEnvelopeInput  *in,
              FcReadFlags       flags,
              GError          **error)
{
  g_autoptr(FcPayloadParser) parser = fc_payload_parser_new (flags, NULL, fc_envelope_input_get_budget (in));
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);
  g_autoptr(FcProfile) profile = NULL;
  g_autoptr(FcDocument) doc = NULL;

  if (!fc_envelope_input_read_to_end (in, sink_parser, parser, error))
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
read_item (FcEnvelopeInput       *in,
           FcEnvelopeItemHeader  *item,
           FcDocument            *doc,
           FcReadFlags            flags,
           GError               **error)
{
  g_autoptr(GError) local_error = NULL;

  if (g_str_equal (item->type, "profile") || g_str_equal (item->type, "profile_chunk"))
    {
      g_autoptr(FcPayloadParser) parser = fc_payload_parser_new (flags, item->where,
                                                                 fc_envelope_input_get_budget (in));
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);
      g_autoptr(FcProfile) profile = NULL;

      if (!fc_envelope_input_read_payload (in, item, sink_parser, parser, error))
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
      g_autoptr(GPtrArray) duplicates = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(JsonObject) event = NULL;
      FcReadBudget *budget = fc_envelope_input_get_budget (in);
      Held held = { payload, &budget->held_bytes, item->what };

      if (!fc_envelope_input_read_payload (in, item, sink_held, &held, error))
        return FALSE;

      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&payload));

      if (g_str_equal (item->type, "transaction"))
        {
          gsize size;
          const char *data = g_bytes_get_data (bytes, &size);

          event = fc_json_stream_parse_object (data, size, budget, duplicates, &local_error);
          for (guint i = 0; i < duplicates->len; i++)
            fc_document_add_problem (doc, fc_problem_new (FC_PROBLEM_ERROR, item->what,
                                                          _("transaction: the key \"%s\" is given twice (Relay "
                                                          "refuses that); the last value is kept"),
                                                          (const char *) g_ptr_array_index (duplicates, i)));
          if (event == NULL && !(flags & FC_READ_LENIENT))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                           _("%sthe transaction is not a JSON object: %s"), item->where, local_error->message);
              return FALSE;
            }
          if (event == NULL)
            fc_document_add_problem (doc, fc_problem_new (FC_PROBLEM_ERROR, item->what,
                                                          _("the transaction is not a JSON object: %s"),
                                                          local_error->message));
        }

      if (event != NULL)
        fc_document_add_transaction (doc, event);
      else
        fc_document_add_other_item (doc, item->header, bytes);
    }

  return TRUE;
}

static FcDocument *
read_envelope (FcEnvelopeInput  *in,
               JsonObject       *header,
               FcReadFlags       flags,
               GError          **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_ENVELOPE);

  fc_document_set_envelope_header (doc, header);

  for (;;)
    {
      g_auto(FcEnvelopeItemHeader) item = { 0 };
      gboolean at_end = FALSE;

      if (!fc_envelope_input_next_item (in, &item, &at_end, error))
        return NULL;
      if (at_end)
        break;
      if (!read_item (in, &item, doc, flags, error))
        return NULL;
    }

  {
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);

    fc_envelope_input_take_problems (in, problems);
    add_problems (doc, problems);
  }
  link_transactions (doc);
  return g_steal_pointer (&doc);
}

/* Broken compressed data is broken input, not an I/O failure. */
static void
propagate_gzip_error (GError  **error,
                      GError   *local_error)
{
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ||
      g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("corrupt or truncated gzip data after 0 uncompressed bytes: %s"), local_error->message);
      g_error_free (local_error);
    }
  else
    g_propagate_error (error, local_error);
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
                propagate_gzip_error (error, g_steal_pointer (&local_error));
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
  g_autoptr(GInputStream) plain = NULL;
  g_autoptr(FcEnvelopeInput) in = NULL;
  g_autoptr(JsonObject) header = NULL;
  const guint8 *head = NULL;
  gsize head_len = 0;
  FcImportKind kind;
  gboolean compressed = FALSE;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  plain = maybe_decompress (stream, &compressed, cancellable, error);
  if (plain == NULL)
    return NULL;
  in = fc_envelope_input_new (plain, compressed, cancellable);

  /* pprof, OTLP, speedscope, folded stacks, perf script (fc-import.c) */
  if (!fc_envelope_input_peek (in, &head, &head_len, error))
    return NULL;
  kind = fc_import_sniff (head, head_len);
  if (kind != FC_IMPORT_NONE)
    {
      g_autoptr(GByteArray) all = g_byte_array_new ();
      g_autoptr(GBytes) bytes = NULL;
      Held held = { all, &fc_envelope_input_get_budget (in)->held_bytes, fc_import_kind_name (kind) };

      if (!fc_envelope_input_read_to_end (in, sink_held, &held, error))
        return NULL;
      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&all));
      return fc_import_load (kind, bytes, error);
    }

  if (!fc_envelope_input_start (in, error))
    return NULL;

  header = fc_envelope_input_sniff_header (in);
  if (header != NULL)
    return read_envelope (in, header, flags, error);
  return read_payload (in, flags, error);
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
                   _("%s: %" PRIu64 " bytes, larger than the reader's limit of %" PRIu64 " MiB"),
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
                   _("%zu bytes, larger than the reader's limit of %" PRIu64 " MiB"),
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
                   _("%zu bytes, larger than the reader's limit of %" PRIu64 " MiB"),
                   len, FC_READER_MAX_SIZE >> 20);
      return NULL;
    }

  parser = fc_payload_parser_new (flags, NULL, NULL);
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
