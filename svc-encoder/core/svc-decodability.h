/* svc-encoder core: which layers of an arriving frame the receiver can
 * decode (docs/design.md "Decodable"), for octopussvcdec.
 *
 * A frame's layer k (spatial; one layer for VP8) is decodable when it
 * arrived whole, layers 0..k-1 of the frame are decodable, and, unless the
 * frame is a key frame, layer k of the frame it references (svc-pattern.h:
 * ref_distance frames back, by frame id) was decodable.  Frame ids are
 * consecutive per encoded frame; the temporal position comes from the
 * newest key frame that arrived, and a frame whose layer id contradicts it
 * (its key frame was lost) is not decodable. */
#pragma once

#include "svc-pattern.h"

G_BEGIN_DECLS

/* Frames of history kept: more than the longest reference distance. */
#define SVC_DECODABILITY_HISTORY 16

typedef struct {
  guint n_temporal_layers;
  gboolean learn_temporal;      /* n_temporal_layers is learnt (init with 0) */
  gboolean have_key, have_frame;
  guint32 last_key_id;
  guint32 newest_id;            /* newest frame seen */
  gboolean newest_consistent;   /* its layer id fits the pattern */
  /* decodable layer masks of recent frames, indexed by id % HISTORY */
  guint32 frame_id[SVC_DECODABILITY_HISTORY];
  guint8 layers[SVC_DECODABILITY_HISTORY];
  gboolean known[SVC_DECODABILITY_HISTORY];
} SvcDecodability;

/* @n_temporal_layers 0: learn the count from the stream — it starts at 1
 * and grows to the smallest count whose pattern fits the temporal layer of
 * a frame that does not fit the current one (the position after the key
 * frame tells: 0,1 vs 0,2,1,2).  It never shrinks; a frame judged before
 * the count was learnt (a lost frame hid the pattern) may be wrongly
 * undecodable, never wrongly decodable past its key frame's references. */
void svc_decodability_init (SvcDecodability *d, guint n_temporal_layers);

/* Spatial layer @spatial_layer of frame @frame_id arrived whole; returns
 * whether it is decodable, and remembers the answer for the frames that
 * reference it.  Frames come in increasing id order, the layers of a frame
 * in increasing order (gaps are layers that never arrived); a layer of a
 * frame older than the newest seen is never decodable (it is late). */
gboolean svc_decodability_add_layer (SvcDecodability *d, guint32 frame_id,
    gboolean keyframe, guint temporal_layer, guint spatial_layer);

/* The layers of @frame_id found decodable so far (bit k: layer k). */
guint svc_decodability_layers (const SvcDecodability *d, guint32 frame_id);

G_END_DECLS
