/* fuzz-envelope.c - envelopes (and anything else) read from a stream that trickles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A socket or a gzip stream hands out a few bytes at a time, so the reader's
 * block refills land inside item headers, lengths and payloads. The first
 * input byte picks the largest read (1..16 bytes); the rest is the stream.
 */

#include "flamecast.h"
#include "fc-fuzz.h"

#define FC_TYPE_TRICKLE_STREAM (fc_trickle_stream_get_type ())
G_DECLARE_FINAL_TYPE (FcTrickleStream, fc_trickle_stream, FC, TRICKLE_STREAM, GInputStream)

struct _FcTrickleStream
{
  GInputStream   parent_instance;
  const guint8  *data;
  gsize          len;
  gsize          pos;
  gsize          step;
  guint          calls;
};

G_DEFINE_FINAL_TYPE (FcTrickleStream, fc_trickle_stream, G_TYPE_INPUT_STREAM)

static gssize
fc_trickle_stream_read (GInputStream  *stream,
                        void          *buffer,
                        gsize          count,
                        GCancellable  *cancellable,
                        GError       **error)
{
  FcTrickleStream *self = FC_TRICKLE_STREAM (stream);
  /* Vary the piece size so refills do not fall on a fixed stride. */
  gsize piece = 1 + (self->calls++ * 7) % self->step;
  gsize n = MIN (MIN (count, self->len - self->pos), piece);

  memcpy (buffer, self->data + self->pos, n);
  self->pos += n;
  return n;
}

static gboolean
fc_trickle_stream_close (GInputStream  *stream,
                         GCancellable  *cancellable,
                         GError       **error)
{
  return TRUE;
}

static void
fc_trickle_stream_class_init (FcTrickleStreamClass *klass)
{
  G_INPUT_STREAM_CLASS (klass)->read_fn = fc_trickle_stream_read;
  G_INPUT_STREAM_CLASS (klass)->close_fn = fc_trickle_stream_close;
}

static void
fc_trickle_stream_init (FcTrickleStream *self)
{
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(FcTrickleStream) stream = NULL;
  g_autoptr(FcDocument) doc = NULL;
  g_autoptr(GError) error = NULL;

  if (size < 1)
    return 0;

  stream = g_object_new (FC_TYPE_TRICKLE_STREAM, NULL);
  stream->step = 1 + data[0] % 16;
  stream->data = data + 1;
  stream->len = size - 1;

  doc = fc_reader_load_stream (G_INPUT_STREAM (stream), FC_READ_LENIENT, NULL, &error);
  FC_FUZZ_CHECK_RESULT (doc != NULL, error, "fc_reader_load_stream");
  if (doc != NULL)
    {
      g_autoptr(GPtrArray) problems = fc_validate_document (doc);

      g_assert (problems != NULL);
    }
  return 0;
}
