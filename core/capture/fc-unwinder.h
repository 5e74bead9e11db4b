/* fc-unwinder.h - walks captured stacks with libunwind and DWARF CFI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-proc-maps.h"
#include "fc-sampler.h"

G_BEGIN_DECLS

typedef struct _FcUnwinder FcUnwinder;

FcUnwinder *fc_unwinder_new   (FcProcMaps       *maps);
void        fc_unwinder_free  (FcUnwinder       *self);
/* Fills ips leaf first (ips[0] = the PC, then return addresses). complete is set when the walk
 * reached the outermost frame (CFI says there is no caller) rather than failing or running out
 * of captured stack. Only one thread may use an unwinder. */
guint       fc_unwinder_unwind (FcUnwinder      *self,
                                const FcSnapshot *snapshot,
                                guint64          *ips,
                                guint             max_ips,
                                gboolean         *complete);
/* Forget cached unwind info (after an exec or when modules were unmapped). */
void        fc_unwinder_flush  (FcUnwinder       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcUnwinder, fc_unwinder_free)

G_END_DECLS
