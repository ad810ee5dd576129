#include "svc-pattern.h"

#include <string.h>

guint
svc_temporal_period (guint n_layers)
{
  return n_layers >= 3 ? 4 : n_layers == 2 ? 2 : 1;
}

void
svc_temporal_frame (guint n_layers, guint64 position, SvcTemporalFrame *f)
{
  static const guint layer_of[3][4] = { {0}, {0, 1}, {0, 2, 1, 2} };
  guint period = svc_temporal_period (n_layers);
  guint phase = (guint) (position % period);

  memset (f, 0, sizeof (*f));
  if (position == 0) {
    f->keyframe = TRUE;
    f->updates = SVC_SLOT_ALL;
    return;
  }
  f->temporal_layer = layer_of[MIN (MAX (n_layers, 1u), 3u) - 1][phase];
  switch (f->temporal_layer) {
    case 0:
      f->refs = SVC_SLOT_LAST;
      f->updates = SVC_SLOT_LAST | SVC_SLOT_GOLDEN;
      f->ref_distance = period;
      break;
    case 1:
      /* with 3 layers TL1 is the GOLDEN source of the TL2 frame after it */
      f->refs = SVC_SLOT_LAST;
      f->updates = n_layers >= 3 ? SVC_SLOT_GOLDEN : 0;
      f->ref_distance = phase;
      f->layer_sync = TRUE;
      break;
    default:
      f->refs = SVC_SLOT_GOLDEN;
      f->ref_distance = 1;
      f->layer_sync = phase == 1;
      break;
  }
}
