#include "svc-vpx-encoder.h"

#include <string.h>
#include <vpx/vp8cx.h>
#include <vpx/vpx_encoder.h>

#include "core/svc-pattern.h"

#define SVC_ENCODER_ERROR g_quark_from_static_string ("svc-encoder-error")

/* VP9 reference slots (8): per spatial layer s, the newest TL0 frame in
 * slot s (the pattern's LAST), the newest TL0/TL1 frame in slot 3 + s (its
 * GOLDEN), and every frame's layer s < 2 in slot 6 + s for inter-layer
 * prediction by layer s + 1 of the same frame. */
#define SLOT_TL0(s) (s)
#define SLOT_TL01(s) (3 + (s))
#define SLOT_INTER(s) (6 + (s))

/* libvpx VP9's fastest cpu-used */
#define SVC_VP9_MAX_SPEED 9

struct _SvcVpxEncoder {
  SvcEncoderSettings s;
  /* libvpx's VP9 SVC mode: more than one layer (with one, its rate
   * control ignores the target, so a plain encoder is used) */
  gboolean vp9_svc;
  vpx_codec_ctx_t codec;
  vpx_codec_enc_cfg_t cfg;
  vpx_image_t image;
  SvcRatePlan rate;
  guint64 frames;               /* encoded so far */
  guint64 position;             /* frames since the last key frame */
  gboolean force_key;
  guint8 tl0_pic_idx;
  GArray *pending;              /* packets of the frame being encoded */
  SvcTemporalFrame frame;       /* its pattern entry */
};

void
svc_encoder_settings_init (SvcEncoderSettings *s, SvcCodec codec,
    guint spatial_layers, guint temporal_layers)
{
  memset (s, 0, sizeof (*s));
  s->codec = codec;
  s->width = 640;
  s->height = 360;
  s->fps_n = 30;
  s->fps_d = 1;
  s->spatial_layers = spatial_layers;
  s->temporal_layers = temporal_layers;
  svc_config_default_scaling (spatial_layers, s->scaling);
  if (codec == SVC_CODEC_VP9)
    svc_config_default_spatial_fractions (spatial_layers, s->fractions);
  else
    svc_config_default_temporal_fractions (temporal_layers, s->fractions);
  s->bitrate = 2000000;
  s->gop = 10;
  s->speed = codec == SVC_CODEC_VP9 ? 7 : 8;
  s->threads = 2;
}

void
svc_layer_packet_clear (gpointer data)
{
  SvcLayerPacket *p = data;

  g_clear_pointer (&p->data, g_bytes_unref);
}

static guint
kbps (guint64 bps)
{
  return (guint) MAX ((bps + 500) / 1000, 1u);
}

/* Spatial layer @sl's own rate, shared among its temporal layers by the
 * default temporal fractions (cumulative, as libvpx wants them). */
static void
set_layer_bitrates (SvcVpxEncoder *enc)
{
  const SvcEncoderSettings *s = &enc->s;
  guint64 cum[SVC_CONFIG_MAX_LAYERS];
  gdouble tfrac[SVC_CONFIG_MAX_LAYERS];

  enc->cfg.rc_target_bitrate = kbps (enc->rate.current);
  if (s->no_svc || (s->codec == SVC_CODEC_VP9 && !enc->vp9_svc))
    return;
  if (s->codec == SVC_CODEC_VP8) {
    svc_config_layer_bitrates (enc->rate.current, s->fractions,
        s->temporal_layers, cum);
    for (guint t = 0; t < s->temporal_layers; t++)
      enc->cfg.ts_target_bitrate[t] = kbps (cum[t]);
    return;
  }
  svc_config_layer_bitrates (enc->rate.current, s->fractions,
      s->spatial_layers, cum);
  svc_config_default_temporal_fractions (s->temporal_layers, tfrac);
  for (guint sl = 0; sl < s->spatial_layers; sl++) {
    guint64 own = cum[sl] - (sl > 0 ? cum[sl - 1] : 0);
    for (guint t = 0; t < s->temporal_layers; t++)
      enc->cfg.layer_target_bitrate[sl * s->temporal_layers + t] =
          kbps ((guint64) (own * tfrac[t] + 0.5));
  }
}

static void
set_temporal_pattern (SvcVpxEncoder *enc)
{
  guint period = svc_temporal_period (enc->s.temporal_layers);

  enc->cfg.ts_number_layers = enc->s.temporal_layers;
  enc->cfg.ts_periodicity = enc->s.temporal_layers > 1 ? period : 0;
  for (guint i = 0; i < period; i++) {
    SvcTemporalFrame f;
    /* positions 1..period: the same phases, none a key frame */
    svc_temporal_frame (enc->s.temporal_layers, i + period, &f);
    enc->cfg.ts_layer_id[i] = f.temporal_layer;
  }
  for (guint t = 0; t < enc->s.temporal_layers; t++)
    enc->cfg.ts_rate_decimator[t] =
        1u << (enc->s.temporal_layers - 1 - t);
}

static void
on_layer_packet (vpx_codec_cx_pkt_t *pkt, void *user_data)
{
  SvcVpxEncoder *enc = user_data;
  vpx_svc_layer_id_t id = { 0 };
  SvcLayerPacket p = { 0 };

  if (pkt->kind != VPX_CODEC_CX_FRAME_PKT)
    return;
  vpx_codec_control (&enc->codec, VP9E_GET_SVC_LAYER_ID, &id);
  p.data = g_bytes_new (pkt->data.frame.buf, pkt->data.frame.sz);
  p.spatial_layer = (guint) id.spatial_layer_id;
  p.width = pkt->data.frame.width[p.spatial_layer];
  p.height = pkt->data.frame.height[p.spatial_layer];
  g_array_append_val (enc->pending, p);
}

static gboolean
codec_failed (SvcVpxEncoder *enc, const gchar *what, GError **error)
{
  g_set_error (error, SVC_ENCODER_ERROR, 0, "%s: %s (%s)", what,
      vpx_codec_error (&enc->codec),
      vpx_codec_error_detail (&enc->codec) ?
      vpx_codec_error_detail (&enc->codec) : "no detail");
  return FALSE;
}

static gboolean
settings_valid (const SvcEncoderSettings *s, GError **error)
{
  const gchar *why = NULL;

  if (s->width < 16 || s->height < 16 || s->width % 2 || s->height % 2)
    why = "width and height must be even and at least 16";
  else if (s->spatial_layers < 1 || s->spatial_layers > 3
      || s->temporal_layers < 1 || s->temporal_layers > 3)
    why = "1..3 spatial and 1..3 temporal layers";
  else if (s->codec == SVC_CODEC_VP8 && s->spatial_layers != 1)
    why = "VP8 has no spatial layers";
  else if (s->no_svc && (s->spatial_layers != 1 || s->temporal_layers != 1))
    why = "a single-layer encoder has one layer";
  else if (s->fps_n == 0 || s->fps_d == 0 || s->gop == 0 || s->bitrate == 0)
    why = "frame rate, GoP and bitrate must be positive";
  else if (s->intra_base_sync && (s->codec != SVC_CODEC_VP9 || s->no_svc
          || s->spatial_sync == 0))
    why = "an intra base sync needs VP9 SVC with spatial syncs";
  if (why)
    g_set_error (error, SVC_ENCODER_ERROR, 0, "invalid settings: %s", why);
  return why == NULL;
}

static gboolean
init_vp9_svc (SvcVpxEncoder *enc, GError **error)
{
  vpx_svc_extra_cfg_t params;
  vpx_codec_priv_output_cx_pkt_cb_pair_t cb = { on_layer_packet, enc };

  memset (&params, 0, sizeof (params));
  /* the quantizer ranges are per layer (sl * temporal layers + tl), the
   * rest per spatial layer: a range left at 0 codes that layer at q 0 */
  for (guint layer = 0;
      layer < enc->s.spatial_layers * enc->s.temporal_layers; layer++) {
    params.max_quantizers[layer] = (gint) enc->cfg.rc_max_quantizer;
    params.min_quantizers[layer] = (gint) enc->cfg.rc_min_quantizer;
  }
  for (guint sl = 0; sl < enc->s.spatial_layers; sl++) {
    params.scaling_factor_num[sl] = (gint) enc->s.scaling[sl].num;
    params.scaling_factor_den[sl] = (gint) enc->s.scaling[sl].den;
    /* Lower layers one step faster: they are small, so tiles cannot split
     * them over the threads, and they cost 1.44x -> 1.31x single-layer time
     * at 640x360 at no loss of top-layer SSIM per bit (bench/svc). */
    params.speed_per_layer[sl] = sl + 1 < enc->s.spatial_layers
        ? MIN (enc->s.speed + 1, SVC_VP9_MAX_SPEED) : enc->s.speed;
  }
  params.temporal_layering_mode = VP9E_TEMPORAL_LAYERING_MODE_BYPASS;
  if (vpx_codec_control (&enc->codec, VP9E_SET_SVC, 1)
      || vpx_codec_control (&enc->codec, VP9E_SET_SVC_PARAMETERS, &params)
      || vpx_codec_control (&enc->codec, VP9E_REGISTER_CX_CALLBACK, &cb))
    return codec_failed (enc, "configuring VP9 SVC", error);
  return TRUE;
}

SvcVpxEncoder *
svc_vpx_encoder_new (const SvcEncoderSettings *settings, GError **error)
{
  SvcVpxEncoder *enc;
  vpx_codec_iface_t *iface;
  gboolean vp9 = settings->codec == SVC_CODEC_VP9;

  if (!settings_valid (settings, error))
    return NULL;
  enc = g_new0 (SvcVpxEncoder, 1);
  enc->s = *settings;
  enc->vp9_svc = vp9 && !settings->no_svc
      && settings->spatial_layers * settings->temporal_layers > 1;
  enc->pending = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  g_array_set_clear_func (enc->pending, svc_layer_packet_clear);
  svc_rate_plan_init (&enc->rate, settings->bitrate);
  iface = vp9 ? vpx_codec_vp9_cx () : vpx_codec_vp8_cx ();
  vpx_codec_enc_config_default (iface, &enc->cfg, 0);
  enc->cfg.g_w = settings->width;
  enc->cfg.g_h = settings->height;
  enc->cfg.g_timebase.num = (gint) settings->fps_d;
  enc->cfg.g_timebase.den = (gint) settings->fps_n;
  enc->cfg.g_threads = settings->threads;
  enc->cfg.g_lag_in_frames = 0;
  enc->cfg.rc_end_usage = VPX_CBR;
  /* no frame dropping: frame ids stay consecutive for octopussvcdec */
  enc->cfg.rc_dropframe_thresh = 0;
  enc->cfg.rc_min_quantizer = 2;
  enc->cfg.rc_max_quantizer = 56;
  if (settings->buffer_ms > 0)
    enc->cfg.rc_buf_sz = settings->buffer_ms;
  if (settings->buffer_initial_ms > 0)
    enc->cfg.rc_buf_initial_sz = settings->buffer_initial_ms;
  if (settings->buffer_optimal_ms > 0)
    enc->cfg.rc_buf_optimal_sz = settings->buffer_optimal_ms;
  enc->cfg.kf_mode = VPX_KF_DISABLED;
  /* Lower layers must decode without the upper ones: no state carried
   * across frames beyond the references (VP9: no previous-frame MVs). */
  if (!settings->no_svc || settings->error_resilient)
    enc->cfg.g_error_resilient = VPX_ERROR_RESILIENT_DEFAULT;
  if (enc->vp9_svc || (!vp9 && !settings->no_svc)) {
    set_temporal_pattern (enc);
    if (vp9) {
      enc->cfg.ss_number_layers = settings->spatial_layers;
      enc->cfg.temporal_layering_mode = VP9E_TEMPORAL_LAYERING_MODE_BYPASS;
    }
  }
  set_layer_bitrates (enc);

  if (vpx_codec_enc_init (&enc->codec, iface, &enc->cfg, 0)) {
    g_set_error (error, SVC_ENCODER_ERROR, 0, "libvpx encoder init: %s (%s)",
        vpx_codec_error (&enc->codec), vpx_codec_error_detail (&enc->codec) ?
        vpx_codec_error_detail (&enc->codec) : "no detail");
    g_array_unref (enc->pending);
    g_free (enc);
    return NULL;
  }
  /* VP8's real-time mode takes a positive cpu-used as a CPU budget and
   * picks its speed per frame from the measured encode time (output then
   * depends on the load and on the layer's frame rate); negative fixes it */
  if (vpx_codec_control (&enc->codec, VP8E_SET_CPUUSED,
          vp9 ? settings->speed : -settings->speed)
      || vpx_codec_control (&enc->codec, VP8E_SET_MAX_INTRA_BITRATE_PCT,
          settings->max_intra_pct))
    goto failed;
  if (vp9) {
    if (vpx_codec_control (&enc->codec, VP9E_SET_ROW_MT, 1)
        || vpx_codec_control (&enc->codec, VP9E_SET_TILE_COLUMNS,
            settings->threads > 1 ? 1 : 0))
      goto failed;
    if (enc->vp9_svc && !init_vp9_svc (enc, error))
      goto failed_set;
  } else if (vpx_codec_control (&enc->codec, VP8E_SET_TOKEN_PARTITIONS,
          settings->threads > 1 ? 1 : 0)) {
    goto failed;
  }
  return enc;

failed:
  codec_failed (enc, "configuring libvpx", error);
failed_set:
  svc_vpx_encoder_free (enc);
  return NULL;
}

void
svc_vpx_encoder_free (SvcVpxEncoder *enc)
{
  if (!enc)
    return;
  vpx_codec_destroy (&enc->codec);
  g_array_unref (enc->pending);
  g_free (enc);
}

void
svc_vpx_encoder_request_bitrate (SvcVpxEncoder *enc, guint64 bitrate)
{
  if (bitrate > 0)
    svc_rate_plan_request (&enc->rate, bitrate);
}

void
svc_vpx_encoder_force_keyframe (SvcVpxEncoder *enc)
{
  enc->force_key = TRUE;
}

static vpx_enc_frame_flags_t
vp8_flags (const SvcTemporalFrame *f)
{
  vpx_enc_frame_flags_t flags = VP8_EFLAG_NO_REF_ARF | VP8_EFLAG_NO_UPD_ARF;

  if (f->keyframe)
    return VPX_EFLAG_FORCE_KF;
  if (!(f->refs & SVC_SLOT_LAST))
    flags |= VP8_EFLAG_NO_REF_LAST;
  if (!(f->refs & SVC_SLOT_GOLDEN))
    flags |= VP8_EFLAG_NO_REF_GF;
  if (!(f->updates & SVC_SLOT_LAST))
    flags |= VP8_EFLAG_NO_UPD_LAST;
  if (!(f->updates & SVC_SLOT_GOLDEN))
    flags |= VP8_EFLAG_NO_UPD_GF;
  if (f->temporal_layer > 0)
    flags |= VP8_EFLAG_NO_UPD_ENTROPY;
  return flags;
}

static gboolean
set_vp9_layer_structure (SvcVpxEncoder *enc, const SvcTemporalFrame *f,
    gboolean spatial_sync)
{
  vpx_svc_layer_id_t id;
  vpx_svc_ref_frame_config_t refs;
  guint n = enc->s.spatial_layers;

  memset (&id, 0, sizeof (id));
  memset (&refs, 0, sizeof (refs));
  id.temporal_layer_id = (gint) f->temporal_layer;
  for (guint sl = 0; sl < n; sl++) {
    gint temporal_slot = (gint) (f->refs & SVC_SLOT_GOLDEN ? SLOT_TL01 (sl) :
        SLOT_TL0 (sl));
    guint updates = 0;

    id.temporal_layer_id_per_spatial[sl] = (gint) f->temporal_layer;
    refs.lst_fb_idx[sl] = temporal_slot;
    refs.gld_fb_idx[sl] = sl > 0 ? (gint) SLOT_INTER (sl - 1) : temporal_slot;
    refs.alt_fb_idx[sl] = (gint) SLOT_TL01 (sl);
    refs.reference_last[sl] = !f->keyframe && !(spatial_sync
        && (sl > 0 || enc->s.intra_base_sync));
    refs.reference_golden[sl] = sl > 0;
    if (f->updates & SVC_SLOT_LAST)
      updates |= 1u << SLOT_TL0 (sl);
    if (f->updates & SVC_SLOT_GOLDEN)
      updates |= 1u << SLOT_TL01 (sl);
    if (sl + 1 < n)
      updates |= 1u << SLOT_INTER (sl);
    refs.update_buffer_slot[sl] = (gint) updates;
    /* one frame interval (timebase units): libvpx's per-layer frame rate */
    refs.duration[sl] = 1;
  }
  return vpx_codec_control (&enc->codec, VP9E_SET_SVC_LAYER_ID, &id) == 0
      && vpx_codec_control (&enc->codec, VP9E_SET_SVC_REF_FRAME_CONFIG,
      &refs) == 0;
}

static void
collect_list_packets (SvcVpxEncoder *enc)
{
  vpx_codec_iter_t iter = NULL;
  const vpx_codec_cx_pkt_t *pkt;

  while ((pkt = vpx_codec_get_cx_data (&enc->codec, &iter))) {
    SvcLayerPacket p = { 0 };

    if (pkt->kind != VPX_CODEC_CX_FRAME_PKT)
      continue;
    p.data = g_bytes_new (pkt->data.frame.buf, pkt->data.frame.sz);
    p.width = enc->s.width;
    p.height = enc->s.height;
    g_array_append_val (enc->pending, p);
  }
}

gboolean
svc_vpx_encoder_encode (SvcVpxEncoder *enc, guint8 *const planes[3],
    const gint strides[3], GArray *packets, GError **error)
{
  SvcTemporalFrame *f = &enc->frame;
  guint64 cum[SVC_CONFIG_MAX_LAYERS];
  vpx_enc_frame_flags_t flags = 0;
  gboolean vp9 = enc->s.codec == SVC_CODEC_VP9;
  guint n_rate_layers = vp9 ? enc->s.spatial_layers : enc->s.temporal_layers;
  gboolean spatial_sync;

  if (enc->force_key || enc->position % enc->s.gop == 0)
    enc->position = 0;
  enc->force_key = FALSE;
  svc_temporal_frame (enc->s.temporal_layers, enc->position, f);
  spatial_sync = enc->vp9_svc && !f->keyframe && enc->s.spatial_sync > 0
      && f->temporal_layer == 0 && enc->position % enc->s.spatial_sync == 0;
  /* every layer starts afresh here, so it may start at a new rate */
  if (svc_rate_plan_frame (&enc->rate, f->keyframe || spatial_sync)) {
    set_layer_bitrates (enc);
    if (vpx_codec_enc_config_set (&enc->codec, &enc->cfg))
      return codec_failed (enc, "changing the bitrate", error);
  }
  if (f->temporal_layer == 0)
    enc->tl0_pic_idx++;

  if (enc->s.no_svc || vp9) {
    flags = f->keyframe ? VPX_EFLAG_FORCE_KF : 0;
    if (enc->vp9_svc && !set_vp9_layer_structure (enc, f, spatial_sync))
      return codec_failed (enc, "setting the VP9 layer structure", error);
  } else {
    flags = vp8_flags (f);
    if (enc->s.temporal_layers > 1 && vpx_codec_control (&enc->codec,
            VP8E_SET_TEMPORAL_LAYER_ID, (gint) f->temporal_layer))
      return codec_failed (enc, "setting the temporal layer", error);
  }

  /* with a data pointer vpx_img_wrap allocates nothing; the planes and
   * strides are the caller's */
  vpx_img_wrap (&enc->image, VPX_IMG_FMT_I420, enc->s.width, enc->s.height, 1,
      planes[0]);
  for (guint i = 0; i < 3; i++) {
    enc->image.planes[i] = planes[i];
    enc->image.stride[i] = strides[i];
  }
  g_array_set_size (enc->pending, 0);
  if (vpx_codec_encode (&enc->codec, &enc->image, (vpx_codec_pts_t)
          enc->frames, 1, flags, VPX_DL_REALTIME))
    return codec_failed (enc, "encoding", error);
  collect_list_packets (enc);

  svc_config_layer_bitrates (enc->rate.current, enc->s.fractions,
      n_rate_layers, cum);
  for (guint i = 0; i < enc->pending->len; i++) {
    SvcLayerPacket *p = &g_array_index (enc->pending, SvcLayerPacket, i);

    p->frame_id = (guint32) enc->frames;
    p->temporal_layer = f->temporal_layer;
    p->base_sync = spatial_sync && enc->s.intra_base_sync
        && p->spatial_layer == 0;
    p->keyframe = f->keyframe || p->base_sync
        || (spatial_sync && p->spatial_layer > 0);
    p->layer_sync = f->layer_sync;
    p->tl0_pic_idx = enc->tl0_pic_idx;
    p->cumulative_bps = enc->s.no_svc ? enc->rate.current :
        cum[vp9 ? MIN (p->spatial_layer, n_rate_layers - 1) :
        f->temporal_layer];
    g_array_append_val (packets, *p);
    p->data = NULL;             /* moved to @packets */
  }
  g_array_set_size (enc->pending, 0);
  enc->frames++;
  enc->position++;
  return TRUE;
}
