/* VP9 rate control with temporal layers on real video: 5 s (150 frames) of
 * the shipped clip at 640x360 and 1 Mbit/s reach the target within 25 % in
 * every layered configuration with temporal layers, and each spatial
 * layer's cumulative rate its share within 35 %.  (libvpx applies the SVC
 * quantizer ranges per spatial x temporal layer: a layer left without one
 * was coded at q 0, ten times over the target.) */
#include <gst/check/gstcheck.h>

#include "svc-clip.h"
#include "svc-vpx-encoder.h"

#define W 640
#define H 360
#define N_FRAMES 150
#define FPS 30
#define TARGET 1000000

static void
test_layered_rate_meets_target (gconstpointer data)
{
  guint n_spatial = GPOINTER_TO_UINT (data) / 10;
  guint n_temporal = GPOINTER_TO_UINT (data) % 10;
  SvcEncoderSettings s;
  SvcVpxEncoder *enc;
  SvcClip *clip;
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  GError *error = NULL;
  guint64 bytes[SVC_CONFIG_MAX_LAYERS] = { 0 }, cumulative = 0;
  guint64 target[SVC_CONFIG_MAX_LAYERS];

  g_array_set_clear_func (packets, svc_layer_packet_clear);
  clip = svc_clip_open (g_getenv ("OCTOPUS_CLIP"), W, H, &error);
  g_assert_no_error (error);
  svc_encoder_settings_init (&s, SVC_CODEC_VP9, n_spatial, n_temporal);
  s.width = W;
  s.height = H;
  s.fps_n = FPS;
  s.bitrate = TARGET;
  enc = svc_vpx_encoder_new (&s, &error);
  g_assert_no_error (error);
  for (guint f = 0; f < N_FRAMES; f++) {
    const guint8 *frame = svc_clip_next (clip, &error);
    guint8 *planes[3];
    gint strides[3] = { W, W / 2, W / 2 };

    g_assert_no_error (error);
    planes[0] = (guint8 *) frame;
    planes[1] = planes[0] + W * H;
    planes[2] = planes[1] + W * H / 4;
    g_array_set_size (packets, 0);
    g_assert_true (svc_vpx_encoder_encode (enc, planes, strides, packets,
            &error));
    g_assert_cmpuint (packets->len, ==, n_spatial);
    for (guint i = 0; i < packets->len; i++) {
      const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
      bytes[p->spatial_layer] += g_bytes_get_size (p->data);
      target[p->spatial_layer] = p->cumulative_bps;
    }
  }
  for (guint sl = 0; sl < n_spatial; sl++) {
    gdouble bps;

    cumulative += bytes[sl];
    bps = cumulative * 8.0 * FPS / N_FRAMES;
    g_test_message ("%ux%u: spatial layers 0..%u %.0f bit/s, target %"
        G_GUINT64_FORMAT, n_spatial, n_temporal, sl, bps, target[sl]);
    g_assert_cmpfloat (bps, >=, 0.65 * target[sl]);
    g_assert_cmpfloat (bps, <=, 1.35 * target[sl]);
    if (sl + 1 == n_spatial) {
      g_assert_cmpuint (target[sl], ==, TARGET);
      g_assert_cmpfloat (bps, >=, 0.75 * TARGET);
      g_assert_cmpfloat (bps, <=, 1.25 * TARGET);
    }
  }
  svc_vpx_encoder_free (enc);
  svc_clip_free (clip);
  g_array_unref (packets);
}

int
main (int argc, char **argv)
{
  /* gst-check's init: the in-process scan of the system plugins keeps
   * their globals, which the suppressions know by this frame */
  gst_check_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  for (guint spatial = 1; spatial <= 3; spatial++)
    for (guint temporal = 2; temporal <= 3; temporal++) {
      gchar *path = g_strdup_printf ("/svc/rate/vp9-%usx%ut", spatial,
          temporal);

      g_test_add_data_func (path, GUINT_TO_POINTER (spatial * 10 + temporal),
          test_layered_rate_meets_target);
      g_free (path);
    }
  return g_test_run ();
}
