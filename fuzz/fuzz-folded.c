/* fuzz-folded.c - folded stacks, "a;b;c 12" per line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format's reader is called directly, past the content sniffing of
 * fc_reader_load_bytes(), so that every mutation reaches it.
 */

#include "flamecast.h"
#include "fc-fuzz.h"

/* per thread: each thread becomes a root frame, which reads back as a frame */
static GBytes *
write_folded (FcDocument  *document,
              GError     **error)
{
  return fc_folded_write (document, TRUE, error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  fc_fuzz_import (data, size, "fc_folded_read", fc_folded_read, write_folded);
  return 0;
}
