/* svc-encoder core: the temporal layer structure octopussvcenc encodes and
 * octopussvcdec relies on (docs/design.md, framerate preset), restarted at every
 * key frame.
 *
 * Layer patterns: 1 layer: 0; 2 layers: 0,1; 3 layers: 0,2,1,2.  Two
 * reference slots: LAST holds the newest TL0 frame, GOLDEN the newest
 * TL0/TL1 frame.  TL0 references LAST (the previous TL0), TL1 references
 * LAST (the newest TL0), TL2 references GOLDEN (the newest TL0/TL1); no
 * frame but TL0 references a frame of its own layer. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SVC_MAX_TEMPORAL_LAYERS 3
#define SVC_MAX_SPATIAL_LAYERS 3

typedef enum {
  SVC_SLOT_LAST = 1 << 0,
  SVC_SLOT_GOLDEN = 1 << 1,
  SVC_SLOT_ALTREF = 1 << 2,
} SvcSlot;

#define SVC_SLOT_ALL (SVC_SLOT_LAST | SVC_SLOT_GOLDEN | SVC_SLOT_ALTREF)

typedef struct {
  gboolean keyframe;
  guint temporal_layer;
  guint refs;                   /* SvcSlot bits predicted from; 0 for keys */
  guint updates;                /* SvcSlot bits overwritten */
  guint ref_distance;           /* frames back to the referenced frame; 0 for keys */
  gboolean layer_sync;          /* TL > 0 and references TL0 only */
} SvcTemporalFrame;

/* Frames per repetition of the layer pattern (1, 2 or 4). */
guint svc_temporal_period (guint n_layers);

/* The frame @position frames after the last key frame (position 0 = the key
 * frame) in a stream of @n_layers (1..3) temporal layers. */
void svc_temporal_frame (guint n_layers, guint64 position,
    SvcTemporalFrame *frame);

G_END_DECLS
