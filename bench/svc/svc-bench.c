/* octo-bench-svc: what real-time SVC costs, on the shipped clip.
 *
 *  1. encode time per frame of VP9 with 3 spatial layers (1/4, 1/2, 1), and
 *     with 3 spatial x 3 temporal layers, against single-layer VP9 at the
 *     same top resolution, speed and threads (libvpx configured as vp9enc
 *     does: real-time deadline, CBR), at 640x360 and 1280x720, with the
 *     frame rate that allows; the encoders take turns frame by frame and
 *     medians are compared;
 *  2. bitrate overhead at equal top-layer SSIM: each encoder runs at several
 *     target rates; the single-layer rate that reaches the SVC stream's
 *     top-layer SSIM is interpolated (log rate vs. SSIM), and the overhead
 *     is the SVC rate over it, for VP8 with 3 temporal layers (all layers
 *     decoded: the full frame rate) and VP9 with 3 spatial layers (top layer
 *     decoded).  Both arms have the same speed, deadline, threads, CBR and
 *     key frame at every GoP start; two baselines: as vp8enc/vp9enc
 *     configure libvpx (no error resilience), and with error resilience
 *     like the layered encoder, which isolates the cost of the layers.
 *
 * Both sides of every ratio are measured in the same run. */
#include <gst/gst.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svc-clip.h"
#include "octo-ssim.h"
#include "svc-vpx-decoder.h"
#include "svc-vpx-encoder.h"

static gchar *clip = NULL;
static gchar *overhead_codecs = NULL, *overhead_size = NULL;
static gint n_frames = 150, speed = 7, threads = 2, skip = 0, gop = 0;
static gboolean skip_speed = FALSE, skip_overhead = FALSE;

static GOptionEntry entries[] = {
  {"clip", 0, 0, G_OPTION_ARG_FILENAME, &clip,
      "Video file to encode (looped; default: the shipped bigbuckbunny.mp4)",
      "FILE"},
  {"frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames per encode (150)",
      "N"},
  {"speed", 0, 0, G_OPTION_ARG_INT, &speed, "libvpx cpu-used (7)", "N"},
  {"threads", 0, 0, G_OPTION_ARG_INT, &threads, "Encoder threads (2)", "N"},
  {"no-speed", 0, 0, G_OPTION_ARG_NONE, &skip_speed,
      "Skip the encode-time measurement", NULL},
  {"no-overhead", 0, 0, G_OPTION_ARG_NONE, &skip_overhead,
      "Skip the bitrate-overhead measurement", NULL},
  {"overhead-codecs", 0, 0, G_OPTION_ARG_STRING, &overhead_codecs,
      "Overhead of: vp8, vp9 or vp8,vp9 (default)", "LIST"},
  {"overhead-size", 0, 0, G_OPTION_ARG_STRING, &overhead_size,
      "Frame size of the overhead measurement (640x360; the rates scale "
      "with the pixels)", "WxH"},
  {"gop", 0, 0, G_OPTION_ARG_INT, &gop,
      "GoP of the overhead measurement (default: the presets', 8 for VP8 "
      "and 10 for VP9, and for VP8 also one key frame for all frames)",
      "N"},
  {"skip", 0, 0, G_OPTION_ARG_INT, &skip,
      "Frames of the clip to skip before the overhead measurement (0)", "N"},
  G_OPTION_ENTRY_NULL
};

typedef struct {
  guint width, height, n;
  guint8 **frames;              /* I420, tightly packed */
} Clip;

/* @n frames of the clip at @width x @height from frame @from on, looping
 * it. */
static gboolean
load_clip (const gchar *path, guint width, guint height, guint from, guint n,
    Clip *out)
{
  GError *error = NULL;
  SvcClip *source = svc_clip_open (path, width, height, &error);
  gsize frame_size = (gsize) width * height * 3 / 2;

  out->width = width;
  out->height = height;
  out->n = 0;
  out->frames = g_new0 (guint8 *, n);
  for (guint i = 0; source && i < from; i++)
    if (!svc_clip_next (source, &error))
      break;
  while (source && !error && out->n < n) {
    const guint8 *frame = svc_clip_next (source, &error);
    if (!frame)
      break;
    out->frames[out->n++] = g_memdup2 (frame, frame_size);
  }
  svc_clip_free (source);
  if (out->n < n) {
    g_printerr ("octo-bench-svc: %s\n", error->message);
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

static void
clip_free (Clip *c)
{
  for (guint i = 0; i < c->n; i++)
    g_free (c->frames[i]);
  g_free (c->frames);
}

static void
planes_of (const Clip *c, guint i, guint8 *planes[3], gint strides[3])
{
  guint8 *f = c->frames[i];

  planes[0] = f;
  planes[1] = f + c->width * c->height;
  planes[2] = planes[1] + c->width * c->height / 4;
  strides[0] = (gint) c->width;
  strides[1] = strides[2] = (gint) c->width / 2;
}

static gint
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

typedef enum {
  ARM_LAYERED,
  ARM_SINGLE,                   /* as vp8enc / vp9enc configure libvpx */
  ARM_SINGLE_RESILIENT,         /* the same with error resilience */
} Arm;

typedef struct {
  gdouble kbps;                 /* all layers */
  gdouble tl_kbps[SVC_CONFIG_MAX_LAYERS];       /* per temporal layer */
  gdouble ssim;                 /* of the decoded top layer, linear */
} RunResult;

/* Encodes the clip, decodes all packets and scores the top spatial layer
 * of every frame against the source. */
static gboolean
run_encoder (const Clip *c, SvcCodec codec, guint spatial, guint temporal,
    guint gop_frames, Arm arm, guint64 bitrate, RunResult *r)
{
  SvcEncoderSettings s;
  SvcVpxEncoder *enc;
  SvcVpxDecoder *dec = NULL;
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  GError *error = NULL;
  guint64 bytes[SVC_CONFIG_MAX_LAYERS] = { 0 };
  gdouble ssim_sum = 0, seconds = c->n / 30.0;

  g_array_set_clear_func (packets, svc_layer_packet_clear);
  svc_encoder_settings_init (&s, codec, arm == ARM_LAYERED ? spatial : 1,
      arm == ARM_LAYERED ? temporal : 1);
  s.width = c->width;
  s.height = c->height;
  s.bitrate = bitrate;
  s.speed = speed;
  s.threads = (guint) threads;
  s.gop = gop_frames;
  s.no_svc = arm != ARM_LAYERED;
  s.error_resilient = arm == ARM_SINGLE_RESILIENT;
  enc = svc_vpx_encoder_new (&s, &error);
  if (enc)
    dec = svc_vpx_decoder_new (codec, 2, &error);
  if (!enc || !dec) {
    g_printerr ("octo-bench-svc: %s\n", error->message);
    return FALSE;
  }
  for (guint i = 0; i < c->n; i++) {
    guint8 *planes[3];
    gint strides[3];

    planes_of (c, i, planes, strides);
    g_array_set_size (packets, 0);
    if (!svc_vpx_encoder_encode (enc, planes, strides, packets, &error)) {
      g_printerr ("octo-bench-svc: %s\n", error->message);
      return FALSE;
    }
    for (guint k = 0; k < packets->len; k++) {
      SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, k);
      gsize size;
      const guint8 *data = g_bytes_get_data (p->data, &size);
      const vpx_image_t *img;

      bytes[p->temporal_layer] += size;
      img = svc_vpx_decoder_decode (dec, data, size, &error);
      if (!img) {
        g_printerr ("octo-bench-svc: decoding: %s\n",
            error ? error->message : "no picture");
        return FALSE;
      }
      if (p->spatial_layer + 1 == s.spatial_layers)
        ssim_sum += octo_ssim (planes[0], strides[0], img->planes[0],
            img->stride[0], c->width, c->height);
    }
  }
  r->kbps = 0;
  for (guint t = 0; t < SVC_CONFIG_MAX_LAYERS; t++) {
    r->tl_kbps[t] = bytes[t] * 8.0 / seconds / 1000;
    r->kbps += r->tl_kbps[t];
  }
  r->ssim = ssim_sum / c->n;
  svc_vpx_decoder_free (dec);
  svc_vpx_encoder_free (enc);
  g_array_unref (packets);
  return TRUE;
}

static gdouble
median_ms (GArray *us)
{
  g_array_sort (us, (GCompareFunc) compare_gint64);
  return g_array_index (us, gint64, us->len / 2) / 1000.0;
}

#define N_SPEED_ENCODERS 3

/* VP9 3 SL, VP9 3 SL x 3 TL and single layer take turns on every frame
 * (rotating who goes first), so a busy machine slows all alike; medians of
 * the per-frame times. */
static void
bench_speed (guint width, guint height)
{
  static const guint spatial[N_SPEED_ENCODERS] = { 3, 3, 1 };
  static const guint temporal[N_SPEED_ENCODERS] = { 1, 3, 1 };
  Clip c;
  SvcVpxEncoder *enc[N_SPEED_ENCODERS];
  GArray *us[N_SPEED_ENCODERS], *packets;
  guint64 bitrate = 2000000 * (guint64) width / 640;
  gdouble ms[N_SPEED_ENCODERS];

  if (!load_clip (clip, width, height, 0, (guint) n_frames, &c))
    exit (1);
  packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  g_array_set_clear_func (packets, svc_layer_packet_clear);
  for (guint e = 0; e < N_SPEED_ENCODERS; e++) {
    SvcEncoderSettings s;
    GError *error = NULL;

    svc_encoder_settings_init (&s, SVC_CODEC_VP9, spatial[e], temporal[e]);
    s.width = width;
    s.height = height;
    s.bitrate = bitrate;
    s.speed = speed;
    s.threads = (guint) threads;
    s.no_svc = spatial[e] == 1;
    enc[e] = svc_vpx_encoder_new (&s, &error);
    if (!enc[e]) {
      g_printerr ("octo-bench-svc: %s\n", error->message);
      exit (1);
    }
    us[e] = g_array_new (FALSE, FALSE, sizeof (gint64));
  }
  for (guint i = 0; i < c.n; i++) {
    guint8 *planes[3];
    gint strides[3];

    planes_of (&c, i, planes, strides);
    for (guint turn = 0; turn < N_SPEED_ENCODERS; turn++) {
      guint e = (i + turn) % N_SPEED_ENCODERS;
      gint64 t0 = g_get_monotonic_time (), dt;

      g_array_set_size (packets, 0);
      if (!svc_vpx_encoder_encode (enc[e], planes, strides, packets, NULL))
        exit (1);
      dt = g_get_monotonic_time () - t0;
      g_array_append_val (us[e], dt);
    }
  }
  for (guint e = 0; e < N_SPEED_ENCODERS; e++) {
    ms[e] = median_ms (us[e]);
    g_array_unref (us[e]);
    svc_vpx_encoder_free (enc[e]);
  }
  printf ("encode %ux%u speed %d threads %d (median of %u frames; goal "
      "ratio <= 1.4, >= %d fps):\n", width, height, speed, threads, c.n,
      width >= 1280 ? 20 : 30);
  printf ("  single layer    %6.2f ms/frame (%3.0f fps)\n", ms[2],
      1000 / ms[2]);
  for (guint e = 0; e < 2; e++)
    printf ("  VP9 3 SL x %u TL %6.2f ms/frame (%3.0f fps), ratio %.2f\n",
        temporal[e], ms[e], 1000 / ms[e], ms[e] / ms[2]);
  g_array_unref (packets);
  clip_free (&c);
}

#define N_RATES 6

/* The single-layer rate reaching @ssim, interpolated between the two
 * measured points around it (log rate, linear SSIM); NAN outside. */
static gdouble
rate_at_ssim (const RunResult *curve, guint n, gdouble ssim)
{
  for (guint i = 0; i + 1 < n; i++) {
    const RunResult *a = &curve[i], *b = &curve[i + 1];
    if (ssim >= a->ssim && ssim <= b->ssim && b->ssim > a->ssim) {
      gdouble t = (ssim - a->ssim) / (b->ssim - a->ssim);
      return exp (log (a->kbps) + t * (log (b->kbps) - log (a->kbps)));
    }
  }
  return NAN;
}

/* The mean overhead of @svc over @single at equal SSIM, printing each
 * point; NAN when no point is inside the single-layer curve. */
static gdouble
overhead_against (const RunResult *svc, const RunResult *single,
    const gchar *baseline)
{
  gdouble sum = 0;
  guint counted = 0;

  printf ("    %-22s", baseline);
  for (guint i = 0; i < N_RATES; i++) {
    gdouble base = rate_at_ssim (single, N_RATES, svc[i].ssim);
    if (isnan (base)) {
      printf ("      -");
      continue;
    }
    printf (" %+5.1f%%", 100 * (svc[i].kbps / base - 1));
    sum += svc[i].kbps / base - 1;
    counted++;
  }
  printf ("\n");
  return counted ? sum / counted : NAN;
}

static void
bench_overhead (const Clip *c, SvcCodec codec, guint spatial,
    guint temporal, guint gop_frames, const gchar *label)
{
  static const guint64 rates_360p[N_RATES] = { 200000, 300000, 600000,
    1000000, 1600000, 2500000
  };
  gdouble pixels = (gdouble) c->width * c->height / (640 * 360);
  RunResult single[N_RATES], resilient[N_RATES], svc[N_RATES];
  gdouble vs_single, vs_resilient;

  printf ("%s at %ux%u, frames %d..%d, GoP %u (" OCTO_SSIM_NAME
      " of the top layer):\n", label, c->width, c->height, skip,
      skip + (gint) c->n - 1, gop_frames);
  for (guint i = 0; i < N_RATES; i++) {
    guint64 rate = (guint64) (rates_360p[i] * pixels);

    if (!run_encoder (c, codec, 1, 1, gop_frames, ARM_SINGLE, rate,
            &single[i])
        || !run_encoder (c, codec, 1, 1, gop_frames, ARM_SINGLE_RESILIENT,
            rate, &resilient[i])
        || !run_encoder (c, codec, spatial, temporal, gop_frames,
            ARM_LAYERED, rate, &svc[i]))
      exit (1);
    printf ("  target %5" G_GUINT64_FORMAT " kb/s: layered %7.1f kb/s SSIM "
        "%.4f (TL0 %.0f %%) | single %7.1f kb/s SSIM %.4f | resilient "
        "%7.1f kb/s SSIM %.4f\n", rate / 1000, svc[i].kbps, svc[i].ssim,
        100 * svc[i].tl_kbps[0] / svc[i].kbps, single[i].kbps,
        single[i].ssim, resilient[i].kbps, resilient[i].ssim);
  }
  printf ("  overhead at equal SSIM, per target:\n");
  vs_single = overhead_against (svc, single, "vs. single (vpxenc's)");
  vs_resilient = overhead_against (svc, resilient, "vs. single resilient");
  printf ("overhead %s GoP %u at equal top-layer SSIM: %+.1f %% vs. single "
      "layer as vpxenc configures it, %+.1f %% vs. single layer with error "
      "resilience (means of the points inside the single-layer range)\n",
      label, gop_frames, 100 * vs_single, 100 * vs_resilient);
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- SVC encode cost and "
      "bitrate overhead");
  GError *error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  gst_init (&argc, &argv);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || n_frames < 10) {
    g_printerr ("octo-bench-svc: %s\n", error ? error->message :
        "--frames must be at least 10");
    return 2;
  }
  if (!clip)
    clip = g_strdup (DEFAULT_CLIP);
  if (!skip_speed) {
    bench_speed (640, 360);
    bench_speed (1280, 720);
  }
  if (!skip_overhead) {
    Clip c;
    guint width = 640, height = 360;

    if (overhead_size && (sscanf (overhead_size, "%ux%u", &width, &height)
            != 2 || width < 16 || height < 16 || width % 2 || height % 2)) {
      g_printerr ("octo-bench-svc: --overhead-size: even WxH >= 16, not "
          "\"%s\"\n", overhead_size);
      return 2;
    }
    if (!load_clip (clip, width, height, (guint) MAX (skip, 0),
            (guint) n_frames, &c))
      return 1;
    /* the preset's GoP, and for VP8 also a single key frame: with a key
     * frame every 8 frames the two rate controllers' key-frame budgets
     * decide the comparison, with one the cost of the layer structure */
    if (!overhead_codecs || strstr (overhead_codecs, "vp8")) {
      bench_overhead (&c, SVC_CODEC_VP8, 1, 3, gop > 0 ? (guint) gop : 8,
          "VP8 3 TL");
      if (gop <= 0)
        bench_overhead (&c, SVC_CODEC_VP8, 1, 3, c.n, "VP8 3 TL");
    }
    if (!overhead_codecs || strstr (overhead_codecs, "vp9"))
      bench_overhead (&c, SVC_CODEC_VP9, 3, 1, gop > 0 ? (guint) gop : 10,
          "VP9 3 SL");
    clip_free (&c);
  }
  g_free (clip);
  g_free (overhead_codecs);
  g_free (overhead_size);
  g_option_context_free (ctx);
  return 0;
}
