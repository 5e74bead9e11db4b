/* fc-hostile-shapes.c - files made to hurt a reader: deep nesting, amplification, long tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-hostile-shapes.h"

#define SPEEDSCOPE_SCHEMA "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","

static void
put (GOutputStream *out,
     const void    *data,
     gsize          len)
{
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all (out, data, len, NULL, NULL, &error))
    g_error ("writing a hostile shape: %s", error->message);
}

static void
put_s (GOutputStream *out,
       const char    *s)
{
  put (out, s, strlen (s));
}

/* @piece @n times, through a block of about 64 KiB */
static void
put_repeat (GOutputStream *out,
            const char    *piece,
            guint64        n)
{
  gsize len = strlen (piece);
  guint64 per = MAX (1, 65536 / len);
  g_autoptr(GString) block = g_string_new (NULL);

  for (guint64 i = 0; i < per; i++)
    g_string_append (block, piece);
  for (; n >= per; n -= per)
    put (out, block->str, block->len);
  for (; n > 0; n--)
    put (out, piece, len);
}

static void
put_varint (GOutputStream *out,
            guint64        v)
{
  guint8 buf[10];
  gsize n = 0;

  do
    {
      buf[n] = v & 0x7f;
      v >>= 7;
      if (v != 0)
        buf[n] |= 0x80;
      n++;
    }
  while (v != 0);
  put (out, buf, n);
}

static gsize
varint_len (guint64 v)
{
  gsize n = 1;

  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

/* the key and length of a length-delimited field */
static void
put_ld (GOutputStream *out,
        guint          tag,
        guint64        len)
{
  put_varint (out, (guint64) tag << 3 | 2);
  put_varint (out, len);
}

static guint64
ld_len (guint   tag,
        guint64 len)
{
  return varint_len ((guint64) tag << 3 | 2) + varint_len (len) + len;
}

/* ---- nesting ---- */

static void
otlp_json_brackets (GOutputStream *out,
                    guint64        n)
{
  put_s (out, "{\"resourceProfiles\":");
  put_repeat (out, "[", n);
}

static void
otlp_json_unknown_brackets (GOutputStream *out,
                            guint64        n)
{
  put_s (out, "{\"resourceProfiles\":[],\"x\":");
  put_repeat (out, "[", n);
}

static void
otlp_json_anyvalues (GOutputStream *out,
                     guint64        n)
{
  put_s (out, "{\"resourceProfiles\":[{\"resource\":{\"attributes\":[{\"key\":\"k\",\"value\":");
  put_repeat (out, "{\"arrayValue\":{\"values\":[", n);
}

static void
speedscope_brackets (GOutputStream *out,
                     guint64        n)
{
  put_s (out, SPEEDSCOPE_SCHEMA "\"shared\":{\"frames\":");
  put_repeat (out, "[", n);
}

static void
speedscope_unknown_objects (GOutputStream *out,
                            guint64        n)
{
  put_s (out, SPEEDSCOPE_SCHEMA "\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"x\":");
  put_repeat (out, "{\"a\":", n);
}

static void
chunk_brackets (GOutputStream *out,
                guint64        n)
{
  put_s (out, "{\"version\":\"2\",\"platform\":\"native\",\"x\":");
  put_repeat (out, "[", n);
}

static void
chunk_objects (GOutputStream *out,
               guint64        n)
{
  put_s (out, "{\"version\":\"2\",\"platform\":\"native\",\"profile\":{\"x\":");
  put_repeat (out, "{\"a\":", n);
}

static void
envelope_transaction_brackets (GOutputStream *out,
                               guint64        n)
{
  put_s (out, "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n{\"type\":\"transaction\"}\n{\"spans\":");
  put_repeat (out, "[", n);
  put_s (out, "\n");
}

/* ProfilesData.resource_profiles[0].resource.attributes[0].value, then
 * AnyValue.array_value.values[0] @n times: protobuf-c recurses once a level */
static void
otlp_pb_anyvalues (GOutputStream *out,
                   guint64        n)
{
  guint64 *lens = g_new (guint64, n + 1);
  guint64 kv, res, rp;

  /* the innermost AnyValue is empty; each level is array_value (5) {values (1) {inner}} */
  lens[0] = 0;
  for (guint64 i = 1; i <= n; i++)
    lens[i] = ld_len (5, ld_len (1, lens[i - 1]));
  kv = ld_len (2, lens[n]);
  res = ld_len (1, kv);
  rp = ld_len (1, res);
  put_ld (out, 1, rp);
  put_ld (out, 1, res);
  put_ld (out, 1, kv);
  put_ld (out, 2, lens[n]);
  for (guint64 i = n; i > 0; i--)
    {
      put_ld (out, 5, ld_len (1, lens[i - 1]));
      put_ld (out, 1, lens[i - 1]);
    }
  g_free (lens);
}

/* ---- amplification ---- */

static void
otlp_json_empty_samples (GOutputStream *out,
                         guint64        size)
{
  put_s (out, "{\"resourceProfiles\":[{\"scopeProfiles\":[{\"profiles\":[{\"samples\":[");
  put_repeat (out, "{},", size / 3);
  put_s (out, "{}]}]}]}]}");
}

static void
speedscope_empty_profiles (GOutputStream *out,
                           guint64        size)
{
  put_s (out, SPEEDSCOPE_SCHEMA "\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[");
  put_repeat (out, "{},", size / 3);
  put_s (out, "{}]}");
}

static void
speedscope_events (GOutputStream *out,
                   guint64        size)
{
  static const char pair[] = "{\"type\":\"O\",\"frame\":0,\"at\":1},{\"type\":\"C\",\"frame\":0,\"at\":1},";

  put_s (out, SPEEDSCOPE_SCHEMA "\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"type\":\"evented\","
              "\"name\":\"t\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":1,\"events\":[");
  put_repeat (out, pair, size / (sizeof pair - 1));
  put_s (out, "{\"type\":\"O\",\"frame\":0,\"at\":1},{\"type\":\"C\",\"frame\":0,\"at\":1}]}]}");
}

/* a string table ("" first), then samples that are empty messages, 2 bytes each */
static void
pprof_empty_samples (GOutputStream *out,
                     guint64        size)
{
  put (out, "\x32\x00", 2);
  {
    static const guint8 sample[] = { 0x12, 0x00 };
    guint8 block[65536];

    for (gsize i = 0; i < sizeof block; i += 2)
      memcpy (block + i, sample, 2);
    for (guint64 left = size; left > 0; )
      {
        gsize n = MIN (left, sizeof block);

        put (out, block, n);
        left -= n;
      }
  }
}

/* ProfilesData.resource_profiles[0].scope_profiles[0].profiles[0].samples: empty */
static void
otlp_pb_empty_samples (GOutputStream *out,
                       guint64        size)
{
  guint64 samples = size / 2 * 2;
  guint64 sp = ld_len (2, samples);
  guint64 rp = ld_len (2, sp);
  guint8 block[65536];

  put_ld (out, 1, rp);
  put_ld (out, 2, sp);
  put_ld (out, 2, samples);
  for (gsize i = 0; i < sizeof block; i += 2)
    {
      block[i] = 0x12;
      block[i + 1] = 0x00;
    }
  for (guint64 left = samples; left > 0; )
    {
      gsize n = MIN (left, sizeof block);

      put (out, block, n);
      left -= n;
    }
}

static void
chunk_samples (GOutputStream *out,
               guint64        n)
{
  put_s (out, "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\","
              "\"profiler_id\":\"4d229f1d3807421ba62a5f8bc295d836\",\"platform\":\"native\",\"release\":\"1\","
              "\"profile\":{\"frames\":[{\"function\":\"main\"}],\"stacks\":[[0]],\"samples\":[");
  put_repeat (out, "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5},", n);
  put_s (out, "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5}]}}");
}

static void
chunk_unknown_values (GOutputStream *out,
                      guint64        n)
{
  put_s (out, "{\"version\":\"2\",\"platform\":\"native\",\"x\":[");
  put_repeat (out, "0,", n);
  put_s (out, "0]}");
}

static void
chunk_whitespace (GOutputStream *out,
                  guint64        size)
{
  put_s (out, "{\"version\":\"2\"");
  put_repeat (out, " ", size);
  put_s (out, "}");
}

/* what the reader streams without keeping: the gzip ceiling is all that stops it */
static void
envelope_newlines (GOutputStream *out,
                   guint64        size)
{
  put_s (out, "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n{\"type\":\"attachment\",\"length\":1}\n0\n");
  put_repeat (out, "\n", size);
  put_s (out, "{\"type\":\"attachment\",\"length\":1}\n0\n");
}

static void
envelope_items (GOutputStream *out,
                guint64        n)
{
  put_s (out, "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n");
  put_repeat (out, "{\"type\":\"attachment\",\"length\":1}\n0\n", n);
}

static void
folded_deep (GOutputStream *out,
             guint64        n)
{
  put_repeat (out, "a;", n);
  put_s (out, "a 1\n");
}

/* lines that differ at the root, each thousands of frames deep: a new
 * stack for every frame */
static void
folded_wide (GOutputStream *out,
             guint64        n_lines)
{
  for (guint64 i = 0; i < n_lines; i++)
    {
      g_autofree char *root = g_strdup_printf ("root%" G_GUINT64_FORMAT ";", i);

      put_s (out, root);
      put_repeat (out, "a;", 15000);
      put_s (out, "a 1\n");
    }
}

static void
envelope_attachment (GOutputStream *out,
                     guint64        size)
{
  g_autofree char *item = g_strdup_printf ("{\"type\":\"attachment\",\"length\":%" G_GUINT64_FORMAT "}\n", size);

  put_s (out, "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n");
  put_s (out, item);
  put_repeat (out, "0", size);
  put_s (out, "\n");
}

/* ---- long tokens ---- */

void
fc_hostile_write_long_number (GOutputStream *out,
                              guint64        len)
{
  put_s (out, "{\"version\":\"2\",\"platform\":\"native\",\"x\":");
  put_repeat (out, "1", len);
  put_s (out, "}");
}

static void
long_string (GOutputStream *out,
             guint64        len)
{
  put_s (out, "{\"version\":\"2\",\"platform\":\"native\",\"x\":\"");
  put_repeat (out, "a", len);
  put_s (out, "\"}");
}

static const FcHostileShape shapes[] = {
  /* nesting: json-glib and protobuf-c recursed once a level */
  { "otlp-json-brackets.json", "100k '[' in OTLP/JSON", "OTLP/JSON resourceProfiles", FALSE,
    otlp_json_brackets, 100000, 0 },
  { "otlp-json-unknown-brackets.json", "100k '[' under a key OTLP does not know", "nested deeper", FALSE,
    otlp_json_unknown_brackets, 100000, 0 },
  { "otlp-json-anyvalues.json", "20k nested OTLP/JSON AnyValues", "nested deeper", FALSE,
    otlp_json_anyvalues, 20000, 0 },
  { "speedscope-brackets.json", "100k '[' in speedscope", "speedscope shared.frames[0]", FALSE,
    speedscope_brackets, 100000, 0 },
  { "speedscope-objects.json", "100k nested objects in speedscope", "nested deeper", FALSE,
    speedscope_unknown_objects, 100000, 0 },
  { "chunk-brackets.json", "100k '[' in a V2 chunk", "nested deeper", FALSE, chunk_brackets, 100000, 0 },
  { "chunk-objects.json", "100k nested objects in a V2 chunk", "nested deeper", FALSE, chunk_objects, 100000, 0 },
  { "transaction-brackets.envelope", "100k '[' in an envelope's transaction", "nested deeper", FALSE,
    envelope_transaction_brackets, 100000, 0 },
  { "otlp-anyvalues.pb", "20k nested OTLP AnyValues (protobuf)", "nested deeper", FALSE,
    otlp_pb_anyvalues, 20000, 0 },
  /* amplification: a little gzip, a lot of objects */
  { "otlp-json-empty-samples.json.gz", "200 MB of empty samples in OTLP/JSON", "the reader's limit", TRUE,
    otlp_json_empty_samples, 200000000, 20000000 },
  { "otlp-json-empty-samples-900mb.json.gz", "900 MB of empty samples in OTLP/JSON (the issue's 917 KB gzip)",
    "256 MiB", TRUE, otlp_json_empty_samples, 900000000, 300000000 },
  { "speedscope-empty-profiles.json.gz", "200 MB of empty profiles in speedscope", "the reader's limit", TRUE,
    speedscope_empty_profiles, 200000000, 1000000 },
  { "speedscope-events.json.gz", "240 MB of events, all at one time (read: no limit passed)", NULL, TRUE,
    speedscope_events, 240000000, 24000000 },
  { "pprof-empty-samples.pb", "20 MB of empty pprof samples", "Profile.sample", FALSE,
    pprof_empty_samples, 20000000, 0 },
  { "pprof-empty-samples.pb.gz", "200 MB of empty pprof samples, gzip", "Profile.sample", TRUE,
    pprof_empty_samples, 200000000, 20000000 },
  { "otlp-empty-samples.pb.gz", "200 MB of empty OTLP samples, gzip", "Profile.samples", TRUE,
    otlp_pb_empty_samples, 200000000, 20000000 },
  { "chunk-samples.json.gz", "10.5 million samples in a V2 chunk", "10000000 samples", TRUE,
    chunk_samples, 10500000, 0 },
  { "chunk-unknown-values.json.gz", "2 million values under an unknown key of a chunk", "JSON values", TRUE,
    chunk_unknown_values, 2000000, 0 },
  { "chunk-whitespace.json.gz", "100 MB of white space in a chunk", "64 MiB without a JSON value", TRUE,
    chunk_whitespace, 100000000, 70000000 },
  { "envelope-newlines.envelope.gz", "1.1 GB of newlines between envelope items", "1024 MiB", TRUE,
    envelope_newlines, 1100000000, 0 },
  { "envelope-items.envelope.gz", "a million envelope items", "10000 items", TRUE, envelope_items, 1000000, 0 },
  { "folded-deep.txt.gz", "one folded stack 20k frames deep", "16384 frames", TRUE, folded_deep, 20000, 0 },
  { "folded-wide.txt.gz", "300 folded stacks 15k frames deep", "distinct stacks", TRUE, folded_wide, 300, 0 },
  { "attachment.envelope.gz", "an envelope with a 300 MB attachment", "256 MiB", TRUE,
    envelope_attachment, 300000000, 0 },
  /* long tokens: yajl re-read a token cut by a block from its start */
  { "long-number.json", "a 40 MB number", "missing the \"profile\" object", FALSE,
    fc_hostile_write_long_number, 40000000, 0 },
  { "long-number.json.gz", "a 200 MB number (the issue's 200 KB gzip)", "64 MiB without a JSON value", TRUE,
    fc_hostile_write_long_number, 200000000, 70000000 },
  { "long-string.json", "a 40 MB string", "missing the \"profile\" object", FALSE, long_string, 40000000, 0 },
};

const FcHostileShape *
fc_hostile_shapes (guint *n_shapes)
{
  *n_shapes = G_N_ELEMENTS (shapes);
  return shapes;
}

char *
fc_hostile_shape_write (const FcHostileShape *shape,
                        const char           *dir,
                        guint64               size,
                        int                   level)
{
  g_autofree char *path = g_build_filename (dir, shape->name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) raw = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                                                  &error));
  g_autoptr(GOutputStream) out = NULL;

  if (raw == NULL)
    g_error ("%s: %s", path, error->message);
  if (shape->gzip)
    {
      g_autoptr(GZlibCompressor) gz = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, level);

      out = g_converter_output_stream_new (raw, G_CONVERTER (gz));
    }
  else
    out = g_object_ref (raw);

  shape->write (out, size);
  if (!g_output_stream_close (out, NULL, &error))
    g_error ("%s: %s", path, error->message);
  return g_steal_pointer (&path);
}
