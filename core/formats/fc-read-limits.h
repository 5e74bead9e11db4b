/* fc-read-limits.h - the readers' ceilings: what any input may cost them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Every reader checks these while it decodes, never after: the first one
 * passed stops the read with FC_FORMAT_ERROR_TOO_LARGE (FC_FORMAT_ERROR_SYNTAX
 * for the nesting) and a message that names the limit and the place. With
 * them a hostile file costs at most a few hundred MB and a few seconds,
 * whatever its shape (bench/bench-hostile.c prints the figures); README.md
 * (Limits) lists them for people.
 */

/* JSON objects and arrays, and protobuf messages, nested in one another:
 * no reader recurses deeper (Sentry's payloads nest 5 levels, OTLP's 8). */
#define FC_READ_MAX_DEPTH         64
/* Decompressed bytes of a file read as a stream (Sentry chunks, profiles
 * and envelopes: 64 KiB at a time, never held whole). */
#define FC_READ_MAX_SIZE          (G_GUINT64_CONSTANT (1) << 30)
/* Bytes of JSON without a value in them: one string, number or run of
 * white space (Relay takes payloads of 50 MB at most). */
#define FC_READ_MAX_TOKEN         (G_GUINT64_CONSTANT (64) << 20)
/* Decompressed bytes of a file held whole to be decoded: pprof, OTLP
 * (protobuf and JSON), speedscope, folded stacks, perf script. */
#define FC_READ_MAX_WHOLE_SIZE    (G_GUINT64_CONSTANT (256) << 20)
/* Samples in a document, counts and weights expanded: 28 hours of one
 * thread at 100 Hz; about 250 MB in the model. */
#define FC_READ_MAX_SAMPLES       G_GUINT64_CONSTANT (10000000)
/* Frames of a document (pprof and OTLP locations, functions and lines). */
#define FC_READ_MAX_FRAMES        G_GUINT64_CONSTANT (4000000)
/* Stacks of a document as written, and frame references of all of them. */
#define FC_READ_MAX_STACKS        G_GUINT64_CONSTANT (10000000)
#define FC_READ_MAX_STACK_FRAMES  G_GUINT64_CONSTANT (32000000)
/* Frames of one stack (Flamecast records 256 at most; deep recursion rarely
 * passes a few thousand). */
#define FC_READ_MAX_STACK_DEPTH   16384u
/* Distinct stacks (prefixes, as the model keeps them) of a profile: "a;a;a..."
 * a million frames deep is a million of them, from a few bytes of gzip. */
#define FC_READ_MAX_STACK_NODES   G_GUINT64_CONSTANT (4000000)
/* Items of an envelope (Sentry's carry a handful). */
#define FC_READ_MAX_ITEMS         10000u
/* Threads of a document (speedscope profiles, thread ids). */
#define FC_READ_MAX_THREADS       100000u
/* Strings of a string table (pprof, OTLP). */
#define FC_READ_MAX_STRINGS       G_GUINT64_CONSTANT (4000000)
/* JSON values kept as JSON in a document (metadata, transactions, keys the
 * reader does not interpret), each a few hundred bytes in memory. */
#define FC_READ_MAX_JSON_VALUES   G_GUINT64_CONSTANT (1000000)
/* Bytes of uninterpreted sample, frame and thread keys kept as JSON text. */
#define FC_READ_MAX_EXTRA_BYTES   (G_GUINT64_CONSTANT (64) << 20)
/* Bytes a protobuf decoder may allocate for one document's messages. */
#define FC_READ_MAX_DECODED_BYTES (G_GUINT64_CONSTANT (192) << 20)

/* What one document has used so far, for the limits that add up across
 * its parts (the items of an envelope). */
typedef struct {
  guint64 json_values;
  guint64 extra_bytes;
  guint64 samples;
  guint64 held_bytes;    /* envelope items kept as bytes (attachments...): FC_READ_MAX_WHOLE_SIZE */
} FcReadBudget;

G_END_DECLS
