/* svc-encoder: the libvpx side of octopussvcenc — VP8 temporal layers or VP9
 * spatial x temporal SVC in the layer structure of core/svc-pattern.h, one
 * packet per spatial layer.  No GStreamer here, so the benchmark drives the
 * very same encoder. */
#pragma once

#include <glib.h>

#include "core/svc-config.h"

G_BEGIN_DECLS

typedef enum {
  SVC_CODEC_VP8,
  SVC_CODEC_VP9,
} SvcCodec;

typedef struct {
  SvcCodec codec;
  guint width, height;          /* of the top spatial layer */
  guint fps_n, fps_d;
  guint spatial_layers;         /* VP9: 1..3; VP8: 1 */
  guint temporal_layers;        /* 1..3 */
  SvcRatio scaling[SVC_CONFIG_MAX_LAYERS];      /* per spatial layer */
  /* cumulative share of the bitrate per spatial layer (VP9) or per
   * temporal layer (VP8) */
  gdouble fractions[SVC_CONFIG_MAX_LAYERS];
  guint64 bitrate;              /* bits/s, all layers */
  guint gop;                    /* frames from key frame to key frame */
  /* VP9: every @spatial_sync frames after a key frame (TL0 frames only),
   * the layers above 0 reference only the layer below in the same picture,
   * so an upper layer lost since recovers there without a key frame; 0: at
   * key frames only */
  guint spatial_sync;
  /* VP9 with @spatial_sync: a sync picture's layer 0 references no earlier
   * frame either (intra blocks in an inter frame, as error-resilient mode
   * keeps no other state across frames), so the whole picture restarts
   * the stream without a key frame's cost at the upper layers; a decoder
   * must have started at a key frame */
  gboolean intra_base_sync;
  gint speed;                   /* libvpx cpu-used */
  /* a key frame's size cap, in percent of a frame's share of the bitrate
   * (libvpx rc_max_intra_bitrate_pct); 0: no cap */
  guint max_intra_pct;
  /* the rate controller's buffer, ms (libvpx rc_buf_sz, rc_buf_initial_sz,
   * rc_buf_optimal_sz; 0: libvpx's own): the smaller, the sooner the
   * output follows a changed target */
  guint buffer_ms, buffer_initial_ms, buffer_optimal_ms;
  guint threads;
  /* TRUE: plain single-layer libvpx (what vp8enc/vp9enc do), the
   * benchmark's baseline; needs 1 spatial and 1 temporal layer */
  gboolean no_svc;
  /* with no_svc: error-resilient mode as the layered encoder always has it
   * (a baseline equal to it but for the layers) */
  gboolean error_resilient;
} SvcEncoderSettings;

typedef struct {
  GBytes *data;
  guint32 frame_id;             /* consecutive per encoded frame */
  guint spatial_layer, temporal_layer;
  /* no earlier frame referenced: the picture starts a GoP, or (VP9) a
   * layer above 0 of a spatial sync picture, or its layer 0 too with
   * intra_base_sync */
  gboolean keyframe;
  /* layer 0 of an intra base sync: keyframe, yet an inter frame in the
   * bitstream, so not a point where a decoder may start */
  gboolean base_sync;
  gboolean layer_sync;          /* VP8: references TL0 only */
  guint8 tl0_pic_idx;           /* VP8: count of TL0 frames, this one included */
  guint64 cumulative_bps;       /* target of layers 0..spatial_layer */
  guint width, height;
} SvcLayerPacket;

typedef struct _SvcVpxEncoder SvcVpxEncoder;

/* Fills @settings with the defaults for @codec and the layer counts. */
void svc_encoder_settings_init (SvcEncoderSettings *settings, SvcCodec codec,
    guint spatial_layers, guint temporal_layers);

SvcVpxEncoder *svc_vpx_encoder_new (const SvcEncoderSettings *settings,
    GError **error);
void svc_vpx_encoder_free (SvcVpxEncoder *enc);

/* The target bitrate from the next GoP start or spatial sync on. */
void svc_vpx_encoder_request_bitrate (SvcVpxEncoder *enc, guint64 bitrate);

/* The next frame starts a new GoP with a key frame. */
void svc_vpx_encoder_force_keyframe (SvcVpxEncoder *enc);

/* Encodes one I420 frame of the top layer's size; appends its packets
 * (SvcLayerPacket, in increasing spatial layer order) to @packets, which
 * own the data (clear with svc_layer_packet_clear). */
gboolean svc_vpx_encoder_encode (SvcVpxEncoder *enc, guint8 *const planes[3],
    const gint strides[3], GArray *packets, GError **error);

void svc_layer_packet_clear (gpointer packet);

G_END_DECLS
