/* octo-bench-svc: what real-time SVC costs, on the shipped clip.
 *
 *  1. encode time per frame of VP9 with 3 spatial layers (1/4, 1/2, 1)
 *     against single-layer VP9 at the same top resolution, speed and
 *     threads (libvpx configured as vp9enc does: real-time deadline, CBR),
 *     at 640x360 and 1280x720, with the frame rate that allows; the two
 *     encoders alternate frame by frame and medians are compared;
 *  2. bitrate overhead at equal top-layer SSIM: each encoder runs at several
 *     target rates; the single-layer rate that reaches the SVC stream's
 *     top-layer SSIM is interpolated (log rate vs. SSIM), and the overhead
 *     is the SVC rate over it, for VP8 with 3 temporal layers (all layers
 *     decoded) and VP9 with 3 spatial layers (top layer decoded).
 *
 * Both sides of every ratio are measured in the same run. */
#include <gst/gst.h>
#include <math.h>
#include <stdio.h>

#include "svc-clip.h"
#include "svc-ssim.h"
#include "svc-vpx-decoder.h"
#include "svc-vpx-encoder.h"

static gchar *clip = NULL;
static gint n_frames = 150, speed = 7, threads = 2;
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
  G_OPTION_ENTRY_NULL
};

typedef struct {
  guint width, height, n;
  guint8 **frames;              /* I420, tightly packed */
} Clip;

/* The first @n frames of the clip at @width x @height, looping it. */
static gboolean
load_clip (const gchar *path, guint width, guint height, guint n, Clip *out)
{
  GError *error = NULL;
  SvcClip *source = svc_clip_open (path, width, height, &error);
  gsize frame_size = (gsize) width * height * 3 / 2;

  out->width = width;
  out->height = height;
  out->n = 0;
  out->frames = g_new0 (guint8 *, n);
  while (source && out->n < n) {
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

typedef struct {
  gdouble ms_per_frame;
  gdouble kbps;                 /* all layers */
  gdouble ssim;                 /* of the decoded top layer, linear */
} RunResult;

/* Encodes the clip; with @measure_quality decodes all packets and scores
 * the top spatial layer against the source. */
static gboolean
run_encoder (const Clip *c, SvcCodec codec, guint spatial, guint temporal,
    gboolean single, guint64 bitrate, gboolean measure_quality, RunResult *r)
{
  SvcEncoderSettings s;
  SvcVpxEncoder *enc;
  SvcVpxDecoder *dec = NULL;
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  GError *error = NULL;
  gint64 encode_us = 0;
  guint64 bytes = 0;
  gdouble ssim_sum = 0;

  g_array_set_clear_func (packets, svc_layer_packet_clear);
  svc_encoder_settings_init (&s, codec, spatial, temporal);
  s.width = c->width;
  s.height = c->height;
  s.bitrate = bitrate;
  s.speed = speed;
  s.threads = (guint) threads;
  s.gop = codec == SVC_CODEC_VP8 ? 8 : 10;
  s.no_svc = single;
  enc = svc_vpx_encoder_new (&s, &error);
  if (enc && measure_quality)
    dec = svc_vpx_decoder_new (codec, 2, &error);
  if (!enc || (measure_quality && !dec)) {
    g_printerr ("octo-bench-svc: %s\n", error->message);
    return FALSE;
  }
  for (guint i = 0; i < c->n; i++) {
    guint8 *planes[3];
    gint strides[3];
    gint64 t0;

    planes_of (c, i, planes, strides);
    g_array_set_size (packets, 0);
    t0 = g_get_monotonic_time ();
    if (!svc_vpx_encoder_encode (enc, planes, strides, packets, &error)) {
      g_printerr ("octo-bench-svc: %s\n", error->message);
      return FALSE;
    }
    encode_us += g_get_monotonic_time () - t0;
    for (guint k = 0; k < packets->len; k++) {
      SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, k);
      gsize size;
      const guint8 *data = g_bytes_get_data (p->data, &size);
      const vpx_image_t *img;

      bytes += size;
      if (!dec)
        continue;
      img = svc_vpx_decoder_decode (dec, data, size, &error);
      if (!img) {
        g_printerr ("octo-bench-svc: decoding: %s\n",
            error ? error->message : "no picture");
        return FALSE;
      }
      if (p->spatial_layer + 1 == spatial)
        ssim_sum += svc_ssim_i420 ((const guint8 * const *) planes, strides,
            (const guint8 * const *) img->planes, img->stride, c->width,
            c->height);
    }
  }
  r->ms_per_frame = encode_us / 1000.0 / c->n;
  r->kbps = bytes * 8.0 / (c->n / 30.0) / 1000;
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

/* Both encoders take turns on every frame (alternating who goes first), so
 * a busy machine slows both alike; medians of the per-frame times. */
static void
bench_speed (guint width, guint height)
{
  Clip c;
  SvcVpxEncoder *enc[2];
  GArray *us[2], *packets;
  guint64 bitrate = 2000000 * (guint64) width / 640;
  gdouble ms[2];

  if (!load_clip (clip, width, height, (guint) n_frames, &c))
    exit (1);
  packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  g_array_set_clear_func (packets, svc_layer_packet_clear);
  for (guint e = 0; e < 2; e++) {
    SvcEncoderSettings s;
    GError *error = NULL;

    svc_encoder_settings_init (&s, SVC_CODEC_VP9, e == 0 ? 3 : 1, 1);
    s.width = width;
    s.height = height;
    s.bitrate = bitrate;
    s.speed = speed;
    s.threads = (guint) threads;
    s.no_svc = e == 1;
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
    for (guint turn = 0; turn < 2; turn++) {
      guint e = (i + turn) % 2;
      gint64 t0 = g_get_monotonic_time (), dt;

      g_array_set_size (packets, 0);
      if (!svc_vpx_encoder_encode (enc[e], planes, strides, packets, NULL))
        exit (1);
      dt = g_get_monotonic_time () - t0;
      g_array_append_val (us[e], dt);
    }
  }
  for (guint e = 0; e < 2; e++) {
    ms[e] = median_ms (us[e]);
    g_array_unref (us[e]);
    svc_vpx_encoder_free (enc[e]);
  }
  printf ("encode %ux%u speed %d threads %d (median of %u frames): VP9 3 SL "
      "%.2f ms/frame (%.0f fps), single layer %.2f ms/frame (%.0f fps), "
      "ratio %.2f (goal <= 1.4, >= %d fps)\n", width, height, speed,
      threads, c.n, ms[0], 1000 / ms[0], ms[1], 1000 / ms[1], ms[0] / ms[1],
      width >= 1280 ? 20 : 30);
  g_array_unref (packets);
  clip_free (&c);
}

#define N_RATES 5

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

static void
bench_overhead (const Clip *c, SvcCodec codec, guint spatial,
    guint temporal, const gchar *label)
{
  static const guint64 rates[N_RATES] = { 300000, 600000, 1000000, 1600000,
    2500000
  };
  RunResult single[N_RATES], svc[N_RATES];
  gdouble sum = 0;
  guint counted = 0;

  for (guint i = 0; i < N_RATES; i++)
    if (!run_encoder (c, codec, 1, 1, TRUE, rates[i], TRUE, &single[i])
        || !run_encoder (c, codec, spatial, temporal, FALSE, rates[i], TRUE,
            &svc[i]))
      exit (1);
  for (guint i = 0; i < N_RATES; i++) {
    gdouble base = rate_at_ssim (single, N_RATES, svc[i].ssim);
    printf ("  %s target %4" G_GUINT64_FORMAT " kb/s: SVC %7.1f kb/s SSIM "
        "%.4f | single %7.1f kb/s SSIM %.4f | single at SVC's SSIM ",
        label, rates[i] / 1000, svc[i].kbps, svc[i].ssim, single[i].kbps,
        single[i].ssim);
    if (isnan (base)) {
      printf ("outside the measured range\n");
      continue;
    }
    printf ("%7.1f kb/s, overhead %+.1f %%\n", base,
        100 * (svc[i].kbps / base - 1));
    sum += svc[i].kbps / base - 1;
    counted++;
  }
  if (counted)
    printf ("overhead %s at equal top-layer SSIM: %+.1f %% (mean of %u "
        "points)\n", label, 100 * sum / counted, counted);
  else
    printf ("overhead %s: no SVC point inside the single-layer SSIM range\n",
        label);
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
    if (!load_clip (clip, 640, 360, (guint) n_frames, &c))
      return 1;
    bench_overhead (&c, SVC_CODEC_VP8, 1, 3, "VP8 3 TL");
    bench_overhead (&c, SVC_CODEC_VP9, 3, 1, "VP9 3 SL");
    clip_free (&c);
  }
  g_free (clip);
  g_option_context_free (ctx);
  return 0;
}
