/* fc-snapshot.c - snapshots handed from the sampler to the recorder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-snapshot.h"

FcSnapshot *
fc_snapshot_new (FcSnapshotKind kind,
                 int            tid,
                 gsize          stack_len)
{
  FcSnapshot *snap = g_malloc (sizeof (FcSnapshot) + stack_len);

  memset (snap, 0, sizeof *snap);
  snap->kind = kind;
  snap->tid = tid;
  snap->stack_len = stack_len;
  return snap;
}
