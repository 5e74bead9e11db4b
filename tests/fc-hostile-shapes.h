/* fc-hostile-shapes.h - files made to hurt a reader: deep nesting, amplification, long tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Written by tests/cli/test-hostile.c (which checks that every reader stops
 * each one with a located message) and bench/bench-hostile.c (which prints
 * the time and peak memory each costs). Each is made on the fly, streamed
 * to disk (gzip-compressed where the shape is a compression bomb), so no
 * shape is ever held in memory by its maker.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  const char *name;      /* file name, its extension telling the format */
  const char *what;      /* what it does to a reader, for people */
  const char *expect;    /* a part of the message the CLI must print; NULL: it reads */
  gboolean    gzip;
  /* writes the (uncompressed) content, @size bytes or levels of it */
  void      (*write) (GOutputStream *out,
                      guint64        size);
  guint64     size;      /* bytes or levels: about what the issue measured */
  guint64     test_size; /* the least that still passes the same limit (0: size), for tests */
} FcHostileShape;

/* Every shape; @n_shapes receives how many. */
const FcHostileShape *fc_hostile_shapes (guint *n_shapes);

/* Writes @shape into @dir, @size for its size parameter, gzip at @level
 * (1-9) when the shape is compressed; returns the path. Aborts on I/O errors. */
char *fc_hostile_shape_write (const FcHostileShape *shape,
                              const char           *dir,
                              guint64               size,
                              int                   level);

/* V2 chunk text with one value of @len digits (a long number), for the
 * linearity figures. */
void  fc_hostile_write_long_number (GOutputStream *out,
                                    guint64        len);

G_END_DECLS
