/* The libvpx side of svcenc/svcdec on synthetic moving video: every subset
 * of layers a receiver can get decodes, bit-exactly as in the full stream,
 * at the layer's size; VP8 without TL2 (and TL1) decodes; the bitstream's
 * references are the pattern's; bitrate changes wait for the GoP start. */
#include <math.h>
#include <string.h>

#include "svc-decodability.h"
#include "svc-ssim.h"
#include "svc-vpx-decoder.h"
#include "svc-vpx-encoder.h"

#define W 320
#define H 180
#define N_FRAMES 40

typedef struct {
  SvcLayerPacket *packets;
  guint n;
} EncodedStream;

static void
synth_frame (guint f, guint8 *buf)
{
  guint8 *y = buf, *u = buf + W * H, *v = u + W * H / 4;

  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++) {
      gdouble t = 128 + 60 * sin ((i + 2.0 * f) / 9.0) *
          cos ((j + 1.0 * f) / 13.0);
      gboolean square = (i + 400 - 4 * f % 400) % 400 < 40
          && (j + 200 - 2 * f % 200) % 200 < 40;
      y[j * W + i] = (guint8) (square ? 235 : t);
    }
  for (guint j = 0; j < H / 2; j++)
    for (guint i = 0; i < W / 2; i++) {
      u[j * W / 2 + i] = (guint8) (128 + (i + f) % 32);
      v[j * W / 2 + i] = (guint8) (128 - (j + f) % 32);
    }
}

static void
planes_of (guint8 *buf, guint8 *planes[3], gint strides[3])
{
  planes[0] = buf;
  planes[1] = buf + W * H;
  planes[2] = buf + W * H * 5 / 4;
  strides[0] = W;
  strides[1] = strides[2] = W / 2;
}

static GArray *
encode_stream (SvcCodec codec, guint spatial, guint temporal, guint gop,
    guint change_bitrate_at)
{
  SvcEncoderSettings s;
  SvcVpxEncoder *enc;
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  guint8 *buf = g_malloc (W * H * 3 / 2);
  guint8 *planes[3];
  gint strides[3];

  g_array_set_clear_func (packets, svc_layer_packet_clear);
  svc_encoder_settings_init (&s, codec, spatial, temporal);
  s.width = W;
  s.height = H;
  s.gop = gop;
  s.bitrate = 800000;
  s.speed = 8;
  enc = svc_vpx_encoder_new (&s, NULL);
  g_assert_nonnull (enc);
  planes_of (buf, planes, strides);
  for (guint f = 0; f < N_FRAMES; f++) {
    if (f == change_bitrate_at)
      svc_vpx_encoder_request_bitrate (enc, 1200000);
    synth_frame (f, buf);
    g_assert_true (svc_vpx_encoder_encode (enc, planes, strides, packets,
            NULL));
  }
  svc_vpx_encoder_free (enc);
  g_free (buf);
  return packets;
}

static gchar *
picture_checksum (const vpx_image_t *img)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA1);
  gchar *hex;

  for (guint p = 0; p < 3; p++) {
    guint w = p ? (img->d_w + 1) / 2 : img->d_w;
    guint h = p ? (img->d_h + 1) / 2 : img->d_h;
    for (guint row = 0; row < h; row++)
      g_checksum_update (sum, img->planes[p] + (gsize) row * img->stride[p],
          w);
  }
  hex = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return hex;
}

/* Decodes the packets @keep allows and svc-decodability accepts; returns
 * the checksum of every picture, keyed "frame/layer", and counts. */
static GHashTable *
decode_stream (SvcCodec codec, guint temporal, GArray *packets,
    gboolean (*keep) (const SvcLayerPacket *p, gpointer data), gpointer data,
    guint *n_decoded, guint *n_refused)
{
  SvcVpxDecoder *dec = svc_vpx_decoder_new (codec, 1, NULL);
  SvcDecodability d;
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);

  *n_decoded = *n_refused = 0;
  svc_decodability_init (&d, temporal);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    const vpx_image_t *img;
    gsize size;
    const guint8 *bytes = g_bytes_get_data (p->data, &size);
    GError *error = NULL;

    if (keep && !keep (p, data))
      continue;
    if (!svc_decodability_add_layer (&d, p->frame_id, p->keyframe,
            p->temporal_layer, p->spatial_layer)) {
      (*n_refused)++;
      continue;
    }
    img = svc_vpx_decoder_decode (dec, bytes, size, &error);
    g_assert_no_error (error);
    g_assert_nonnull (img);
    /* the layer's own size: valid output at the right resolution */
    g_assert_cmpuint (img->d_w, ==, p->width);
    g_assert_cmpuint (img->d_h, ==, p->height);
    g_hash_table_insert (sums, g_strdup_printf ("%u/%u", p->frame_id,
            p->spatial_layer), picture_checksum (img));
    (*n_decoded)++;
  }
  svc_vpx_decoder_free (dec);
  return sums;
}

static void
assert_same_pictures (GHashTable *full, GHashTable *subset)
{
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, subset);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_assert_cmpstr (value, ==, g_hash_table_lookup (full, key));
}

static gboolean
keep_up_to_layer (const SvcLayerPacket *p, gpointer data)
{
  return p->spatial_layer <= GPOINTER_TO_UINT (data);
}

/* Per frame a random number of its layers (a prefix, possibly none), as a
 * queue that drops the upper layers first would leave. */
static gboolean
keep_random_prefix (const SvcLayerPacket *p, gpointer data)
{
  static guint32 frame = G_MAXUINT32;
  static guint top;
  GRand *rand = data;

  if (p->frame_id != frame) {
    frame = p->frame_id;
    /* nothing 1/8, layer 0 only 3/8, up to layer 1 3/8, all 1/8 */
    top = (guint) ((g_rand_int_range (rand, 0, 8) + 2) / 3);
  }
  return p->spatial_layer < top;
}

static void
test_vp9_every_layer_subset_decodes_as_in_full_stream (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP9, 3, 1, 10, G_MAXUINT);
  guint decoded, refused;
  GHashTable *full = decode_stream (SVC_CODEC_VP9, 1, packets, NULL, NULL,
      &decoded, &refused);
  GRand *rand = g_rand_new_with_seed (42);

  g_assert_cmpuint (packets->len, ==, 3 * N_FRAMES);
  g_assert_cmpuint (decoded, ==, 3 * N_FRAMES);
  g_assert_cmpuint (refused, ==, 0);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    g_assert_cmpuint (p->spatial_layer, ==, i % 3);
    g_assert_cmpuint (p->frame_id, ==, i / 3);
    g_assert_cmpuint (p->width, ==, W >> (2 - p->spatial_layer));
    g_assert_cmpint (p->keyframe, ==, p->frame_id % 10 == 0);
  }
  for (guint top = 0; top < 3; top++) {
    GHashTable *sub = decode_stream (SVC_CODEC_VP9, 1, packets,
        keep_up_to_layer, GUINT_TO_POINTER (top), &decoded, &refused);
    g_assert_cmpuint (decoded, ==, (top + 1) * N_FRAMES);
    g_assert_cmpuint (refused, ==, 0);
    assert_same_pictures (full, sub);
    g_hash_table_unref (sub);
  }
  {
    GHashTable *sub = decode_stream (SVC_CODEC_VP9, 1, packets,
        keep_random_prefix, rand, &decoded, &refused);
    /* some layers lost their references, the rest decode exactly */
    assert_same_pictures (full, sub);
    g_assert_cmpuint (refused, >, 0);
    g_assert_cmpuint (decoded, >, N_FRAMES / 2);
    g_hash_table_unref (sub);
  }
  g_rand_free (rand);
  g_hash_table_unref (full);
  g_array_unref (packets);
}

static gboolean
keep_below_temporal (const SvcLayerPacket *p, gpointer data)
{
  return p->temporal_layer < GPOINTER_TO_UINT (data);
}

static void
test_vp8_without_tl2_or_tl1_decodes_as_in_full_stream (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP8, 1, 3, 8, G_MAXUINT);
  guint decoded, refused;
  GHashTable *full = decode_stream (SVC_CODEC_VP8, 3, packets, NULL, NULL,
      &decoded, &refused);

  g_assert_cmpuint (decoded, ==, N_FRAMES);
  for (guint drop_from = 1; drop_from <= 2; drop_from++) {
    GHashTable *sub = decode_stream (SVC_CODEC_VP8, 3, packets,
        keep_below_temporal, GUINT_TO_POINTER (drop_from), &decoded,
        &refused);
    /* TL0 is every 4th frame, TL1 every 4th from 2 */
    g_assert_cmpuint (decoded, ==, N_FRAMES / 4 * drop_from);
    g_assert_cmpuint (refused, ==, 0);
    assert_same_pictures (full, sub);
    g_hash_table_unref (sub);
  }
  g_hash_table_unref (full);
  g_array_unref (packets);
}

static void
test_vp8_bitstream_references_are_the_pattern (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP8, 1, 3, 8, G_MAXUINT);
  SvcVpxDecoder *dec = svc_vpx_decoder_new (SVC_CODEC_VP8, 1, NULL);

  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    SvcTemporalFrame f;
    gsize size;
    const guint8 *bytes = g_bytes_get_data (p->data, &size);
    guint used, updated;

    svc_temporal_frame (3, i % 8, &f);
    g_assert_cmpuint (p->frame_id, ==, i);
    g_assert_cmpuint (p->temporal_layer, ==, f.temporal_layer);
    g_assert_cmpint (p->keyframe, ==, f.keyframe);
    g_assert_nonnull (svc_vpx_decoder_decode (dec, bytes, size, NULL));
    g_assert_true (svc_vpx_decoder_vp8_references (dec, &used, &updated));
    g_assert_cmpuint (updated, ==, f.updates);
    /* inter macroblocks read only the allowed slot */
    g_assert_cmpuint (used & ~f.refs, ==, f.keyframe ? used : 0);
  }
  svc_vpx_decoder_free (dec);
  g_array_unref (packets);
}

static void
test_bitrate_change_waits_for_gop_start (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP9, 3, 1, 10, 13);

  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    guint64 total = p->frame_id < 20 ? 800000 : 1200000;
    static const gdouble share[3] = { 0.2, 0.5, 1.0 };

    g_assert_cmpuint (p->cumulative_bps, ==,
        (guint64) (total * share[p->spatial_layer] + 0.5));
  }
  g_array_unref (packets);
}

static void
test_top_layer_quality_is_real (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP9, 3, 1, 10, G_MAXUINT);
  SvcVpxDecoder *dec = svc_vpx_decoder_new (SVC_CODEC_VP9, 1, NULL);
  guint8 *buf = g_malloc (W * H * 3 / 2);
  guint8 *planes[3];
  gint strides[3];
  gdouble sum = 0;

  planes_of (buf, planes, strides);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    gsize size;
    const guint8 *bytes = g_bytes_get_data (p->data, &size);
    const vpx_image_t *img = svc_vpx_decoder_decode (dec, bytes, size, NULL);

    g_assert_nonnull (img);
    if (p->spatial_layer == 2) {
      synth_frame (p->frame_id, buf);
      sum += svc_ssim_i420 ((const guint8 * const *) planes, strides,
          (const guint8 * const *) img->planes, img->stride, W, H);
    }
  }
  /* 800 kbit/s at 320x180 is plenty for this content */
  g_assert_cmpfloat (sum / N_FRAMES, >, 0.9);
  g_free (buf);
  svc_vpx_decoder_free (dec);
  g_array_unref (packets);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/svc/codec/vp9-layer-subsets",
      test_vp9_every_layer_subset_decodes_as_in_full_stream);
  g_test_add_func ("/svc/codec/vp8-without-enhancement",
      test_vp8_without_tl2_or_tl1_decodes_as_in_full_stream);
  g_test_add_func ("/svc/codec/vp8-bitstream-references",
      test_vp8_bitstream_references_are_the_pattern);
  g_test_add_func ("/svc/codec/bitrate-at-gop-start",
      test_bitrate_change_waits_for_gop_start);
  g_test_add_func ("/svc/codec/top-layer-quality",
      test_top_layer_quality_is_real);
  return g_test_run ();
}
