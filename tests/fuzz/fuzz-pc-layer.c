/* Fuzzes the receiver's path for a layer message: header parse and Draco
 * decode through the merger.  It must never crash or read out of bounds;
 * every refusal carries a reason; an accepted layer adds exactly the
 * points its payload decodes to. */
#include "pc-draco.h"
#include "pc-layer.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* a heap copy of exactly @size bytes so ASan sees any overread */
  guint8 *copy = g_memdup2 (data, size);
  OctoPcMerger *merger = octo_pc_merger_new ();
  OctoPcMergedFrame *done = NULL;
  GError *error = NULL;
  OctoPcMergeResult res = octo_pc_merger_push (merger, copy, size, &done,
      &error);

  if (done)
    abort ();
  if ((res == OCTO_PC_MERGE_MALFORMED) != (error != NULL))
    abort ();
  if (res == OCTO_PC_MERGE_ADDED) {
    GArray *direct = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
    if (!octo_pc_draco_decode (copy + OCTO_PC_LAYER_HEADER_LEN,
            size - OCTO_PC_LAYER_HEADER_LEN, direct, NULL))
      abort ();
    done = octo_pc_merger_flush (merger);
    if (!done || done->points->len != direct->len)
      abort ();
    octo_pc_merged_frame_free (done);
    g_array_unref (direct);
  }
  g_clear_error (&error);
  octo_pc_merger_free (merger);
  g_free (copy);
  return 0;
}
