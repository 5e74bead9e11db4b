/* fuzz-gzip.c - gzip-compressed payloads: well-formed gzip around any content
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Random bytes rarely make a gzip stream the decoder accepts, so this harness
 * compresses its input first, so the reader's gzip path sees a V2, V1 or
 * envelope inside.
 * The first byte picks how many times the input is compressed (1..3): a
 * gzip inside a gzip is decompressed again, up to a limit.
 */

#include "flamecast.h"
#include "fc-fuzz.h"

static GBytes *
gzip (GBytes *bytes)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GInputStream) source = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr(GInputStream) compressed = g_converter_input_stream_new (source, G_CONVERTER (compressor));
  g_autoptr(GOutputStream) sink = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  if (g_output_stream_splice (sink, compressed, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error) < 0)
    g_error ("Cannot gzip the fuzz input: %s", error->message);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (sink));
}

static void
load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);

  FC_FUZZ_CHECK_RESULT (doc != NULL, error, "fc_reader_load_bytes (gzip)");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) raw = NULL;
  g_autoptr(GBytes) packed = NULL;
  guint layers;

  if (size < 1)
    return 0;

  layers = 1 + data[0] % 3;
  raw = g_bytes_new_static (data + 1, size - 1);
  packed = g_bytes_ref (raw);
  for (guint i = 0; i < layers; i++)
    {
      GBytes *next = gzip (packed);
      g_bytes_unref (packed);
      packed = next;
    }

  load (packed);
  /* Raw gzip (broken headers, truncation) is the reader harness's job; only
   * gzip-looking inputs are worth reading twice here. */
  if (size >= 3 && data[1] == 0x1f && data[2] == 0x8b)
    load (raw);
  return 0;
}
