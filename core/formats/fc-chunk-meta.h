/* fc-chunk-meta.h - the model's typed SDK and images, read and written as Sentry's client_sdk and debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model holds a profile's SDK (FcClientSdk) and loaded images
 * (FcDebugImage) typed; this module alone knows how Sentry spells them:
 * client_sdk{name, version, packages[]{name, version}} and
 * debug_meta{images[]{type, code_file, code_id, debug_id, debug_file, arch,
 * image_addr, image_size, image_vmaddr}}. Keys it does not know travel in
 * the typed values' "extra" JSON text, so what a reader typed, the writer
 * writes back equal.
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* Moves the payload's client_sdk and debug_meta out of @profile's "meta"
 * object into its typed SDK and images. What cannot be typed stays in
 * "meta" as it was: a client_sdk that is not an object, a debug_meta that
 * is not an object whose images are objects in an array. */
void          fc_chunk_meta_read             (FcProfile         *profile);
/* The debug_meta that fc_chunk_meta_read() left untyped (not null), or
 * NULL: for the validator to name. */
JsonNode     *fc_chunk_meta_get_untyped_debug_meta (FcProfile   *profile);

/* client_sdk's JSON for @sdk: what the writer prints */
JsonNode     *fc_chunk_meta_sdk_to_json      (const FcClientSdk *sdk);
/* debug_meta's JSON for @profile's images and other debug_meta keys, or
 * NULL when it has neither */
JsonNode     *fc_chunk_meta_debug_meta_to_json (FcProfile       *profile);

/* An ELF image as Flamecast records it, of type symbolic: @build_id_hex
 * (nullable or empty: none) as code_id, and as debug_id
 * (fc_build_id_to_debug_id()). */
FcDebugImage *fc_chunk_meta_new_elf_image    (const char        *code_file,
                                              const char        *build_id_hex,
                                              guint64            image_addr,
                                              guint64            image_size,
                                              guint64            image_vmaddr);
/* what another format names @image's build by: its code_id, else its
 * debug_id (which is not a GNU build id, but the best there is) */
const char   *fc_chunk_meta_image_build_id   (const FcDebugImage *image);

/* the range @image is mapped at, as pprof and OTLP mappings give it: 0
 * where the payload does not say */
void          fc_chunk_meta_image_range      (const FcDebugImage *image,
                                              guint64           *start,
                                              guint64           *limit);

/* A GNU build id (hex, any length) as Sentry's debug_id: its first 16
 * bytes as a little-endian GUID, as symbolic writes it; NULL for NULL or
 * what is not hex. */
char         *fc_build_id_to_debug_id        (const char        *build_id_hex);

G_END_DECLS
