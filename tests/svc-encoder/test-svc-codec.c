/* The libvpx side of octopussvcenc/octopussvcdec on synthetic moving video:
 * for VP9 with every count of spatial x temporal layers, every subset of
 * layers a receiver can get decodes, bit-exactly as in the full stream, at
 * the layer's size, and the references in the bitstream are the layer ids'
 * (docs/design.md's framerate structure within each spatial layer, inter-layer
 * prediction from the layer below); VP8 without TL2 (and TL1) decodes; the
 * VP8 bitstream's references are the pattern's; bitrate changes wait for
 * the GoP start (or a spatial sync); an upper layer lost recovers at the
 * next spatial sync without a key frame. */
#include <math.h>
#include <string.h>

#include "svc-decodability.h"
#include "octo-ssim.h"
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

/* The tests' encoder settings: @codec at W x H, speed 8. */
static SvcEncoderSettings
test_settings (SvcCodec codec, guint spatial, guint temporal, guint gop,
    guint64 bitrate)
{
  SvcEncoderSettings s;

  svc_encoder_settings_init (&s, codec, spatial, temporal);
  s.width = W;
  s.height = H;
  s.gop = gop;
  s.bitrate = bitrate;
  s.speed = 8;
  return s;
}

/* @n_frames of synthetic video encoded with @s, the bitrate @new_bitrate
 * requested at frame @change_bitrate_at. */
static GArray *
encode_frames (const SvcEncoderSettings *s, guint n_frames,
    guint change_bitrate_at, guint64 new_bitrate)
{
  SvcVpxEncoder *enc = svc_vpx_encoder_new (s, NULL);
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  guint8 *buf = g_malloc (W * H * 3 / 2);
  guint8 *planes[3];
  gint strides[3];

  g_assert_nonnull (enc);
  g_array_set_clear_func (packets, svc_layer_packet_clear);
  planes_of (buf, planes, strides);
  for (guint f = 0; f < n_frames; f++) {
    if (f == change_bitrate_at)
      svc_vpx_encoder_request_bitrate (enc, new_bitrate);
    synth_frame (f, buf);
    g_assert_true (svc_vpx_encoder_encode (enc, planes, strides, packets,
            NULL));
  }
  svc_vpx_encoder_free (enc);
  g_free (buf);
  return packets;
}

static GArray *
encode_stream (SvcCodec codec, guint spatial, guint temporal, guint gop,
    guint spatial_sync, guint change_bitrate_at, guint64 new_bitrate)
{
  SvcEncoderSettings s = test_settings (codec, spatial, temporal, gop, 800000);

  s.spatial_sync = spatial_sync;
  return encode_frames (&s, N_FRAMES, change_bitrate_at, new_bitrate);
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

typedef struct {
  guint spatial, temporal;      /* highest layers kept */
} LayerLimit;

static gboolean
keep_up_to_layers (const SvcLayerPacket *p, gpointer data)
{
  const LayerLimit *limit = data;

  return p->spatial_layer <= limit->spatial
      && p->temporal_layer <= limit->temporal;
}

/* Per frame a random number of its layers (a prefix, possibly none), as a
 * queue that drops the upper layers first would leave; a third of the
 * frames above TL0 lose all their layers, as a frame-rate queue would; and
 * frame 24 (a TL0 frame in every pattern, not a key frame) is lost, so some
 * later frames surely lose their references. */
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
    if ((p->temporal_layer > 0 && g_rand_int_range (rand, 0, 3) == 0)
        || p->frame_id == 24)
      top = 0;
  }
  return p->spatial_layer < top;
}

#define VP9_GOP 10

/* Frames of the test stream whose temporal layer is at most @top. */
static guint
frames_up_to_temporal (guint n_temporal, guint top)
{
  guint n = 0;

  for (guint f = 0; f < N_FRAMES; f++) {
    SvcTemporalFrame pattern;
    svc_temporal_frame (n_temporal, f % VP9_GOP, &pattern);
    n += pattern.temporal_layer <= top;
  }
  return n;
}

static void
test_vp9_every_layer_subset_decodes_as_in_full_stream (gconstpointer data)
{
  guint n_spatial = GPOINTER_TO_UINT (data) / 10;
  guint n_temporal = GPOINTER_TO_UINT (data) % 10;
  GArray *packets = encode_stream (SVC_CODEC_VP9, n_spatial, n_temporal,
      VP9_GOP, 0, G_MAXUINT, 1200000);
  guint decoded, refused;
  GHashTable *full = decode_stream (SVC_CODEC_VP9, n_temporal, packets,
      NULL, NULL, &decoded, &refused);
  GRand *rand = g_rand_new_with_seed (42);

  g_assert_cmpuint (packets->len, ==, n_spatial * N_FRAMES);
  g_assert_cmpuint (decoded, ==, n_spatial * N_FRAMES);
  g_assert_cmpuint (refused, ==, 0);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    SvcTemporalFrame pattern;

    svc_temporal_frame (n_temporal, p->frame_id % VP9_GOP, &pattern);
    g_assert_cmpuint (p->spatial_layer, ==, i % n_spatial);
    g_assert_cmpuint (p->frame_id, ==, i / n_spatial);
    g_assert_cmpuint (p->width, ==, W >> (n_spatial - 1 - p->spatial_layer));
    g_assert_cmpint (p->keyframe, ==, p->frame_id % VP9_GOP == 0);
    g_assert_cmpuint (p->temporal_layer, ==, pattern.temporal_layer);
  }
  for (guint top_s = 0; top_s < n_spatial; top_s++)
    for (guint top_t = 0; top_t < n_temporal; top_t++) {
      LayerLimit limit = { top_s, top_t };
      GHashTable *sub = decode_stream (SVC_CODEC_VP9, n_temporal, packets,
          keep_up_to_layers, &limit, &decoded, &refused);
      g_assert_cmpuint (decoded, ==, (top_s + 1) *
          frames_up_to_temporal (n_temporal, top_t));
      g_assert_cmpuint (refused, ==, 0);
      assert_same_pictures (full, sub);
      g_hash_table_unref (sub);
    }
  {
    GHashTable *sub = decode_stream (SVC_CODEC_VP9, n_temporal, packets,
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

typedef struct {
  const guint8 *data;
  gsize size, bit;
} BitReader;

static guint
read_bits (BitReader *r, guint n)
{
  guint v = 0;

  for (guint i = 0; i < n; i++, r->bit++) {
    g_assert_cmpuint (r->bit / 8, <, r->size);
    v = v << 1 | ((r->data[r->bit / 8] >> (7 - r->bit % 8)) & 1);
  }
  return v;
}

typedef struct {
  gboolean keyframe;
  guint refresh;                /* slots written, bit per slot */
  guint ref_slot[3];            /* LAST, GOLDEN, ALTREF */
} Vp9Header;

/* The start of a VP9 profile 0 uncompressed header (spec section 6.2). */
static void
parse_vp9_header (const guint8 *data, gsize size, Vp9Header *h)
{
  BitReader r = { data, size, 0 };
  gboolean show_frame, error_resilient, intra_only = FALSE;

  memset (h, 0, sizeof (*h));
  g_assert_cmpuint (read_bits (&r, 2), ==, 2);  /* frame marker */
  g_assert_cmpuint (read_bits (&r, 2), ==, 0);  /* profile 0 */
  g_assert_cmpuint (read_bits (&r, 1), ==, 0);  /* show_existing_frame */
  h->keyframe = read_bits (&r, 1) == 0;
  show_frame = read_bits (&r, 1);
  error_resilient = read_bits (&r, 1);
  if (h->keyframe) {
    h->refresh = 0xff;
    return;
  }
  if (!show_frame)
    intra_only = read_bits (&r, 1);
  if (!error_resilient)
    read_bits (&r, 2);          /* reset_frame_context */
  g_assert_false (intra_only);
  h->refresh = read_bits (&r, 8);
  for (guint i = 0; i < 3; i++) {
    h->ref_slot[i] = read_bits (&r, 3);
    read_bits (&r, 1);          /* sign bias */
  }
}

/* Follows the eight reference slots through the bitstream: the LAST
 * reference of each layer is the frame the layer ids say (within the
 * spatial layer: TL0 the previous TL0 frame, TL1 the newest TL0 frame, TL2
 * the newest TL0/TL1 frame, never a frame of a higher temporal layer), and
 * GOLDEN of a layer above 0 is the layer below in the same frame. */
static void
test_vp9_bitstream_references_match_layer_ids (gconstpointer data)
{
  guint n_spatial = GPOINTER_TO_UINT (data) / 10;
  guint n_temporal = GPOINTER_TO_UINT (data) % 10;
  GArray *packets = encode_stream (SVC_CODEC_VP9, n_spatial, n_temporal,
      VP9_GOP, 0, G_MAXUINT, 1200000);
  gint writer[8];

  for (guint slot = 0; slot < 8; slot++)
    writer[slot] = -1;
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    gsize size;
    const guint8 *bytes = g_bytes_get_data (p->data, &size);
    SvcTemporalFrame pattern;
    Vp9Header h;

    svc_temporal_frame (n_temporal, p->frame_id % VP9_GOP, &pattern);
    parse_vp9_header (bytes, size, &h);
    g_assert_cmpint (h.keyframe, ==, p->keyframe && p->spatial_layer == 0);
    if (!p->keyframe) {
      const SvcLayerPacket *last;

      g_assert_cmpint (writer[h.ref_slot[0]], >=, 0);
      last = &g_array_index (packets, SvcLayerPacket, writer[h.ref_slot[0]]);
      g_assert_cmpuint (last->spatial_layer, ==, p->spatial_layer);
      g_assert_cmpuint (last->frame_id, ==, p->frame_id -
          pattern.ref_distance);
      if (p->temporal_layer == 0)
        g_assert_cmpuint (last->temporal_layer, ==, 0);
      else
        g_assert_cmpuint (last->temporal_layer, <, p->temporal_layer);
    }
    if (p->spatial_layer > 0) {
      const SvcLayerPacket *golden;

      g_assert_cmpint (writer[h.ref_slot[1]], >=, 0);
      golden = &g_array_index (packets, SvcLayerPacket,
          writer[h.ref_slot[1]]);
      g_assert_cmpuint (golden->frame_id, ==, p->frame_id);
      g_assert_cmpuint (golden->spatial_layer, ==, p->spatial_layer - 1);
    }
    for (guint slot = 0; slot < 8; slot++)
      if (h.refresh & (1u << slot))
        writer[slot] = (gint) i;
  }
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
  GArray *packets = encode_stream (SVC_CODEC_VP8, 1, 3, 8, 0, G_MAXUINT,
      1200000);
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
  GArray *packets = encode_stream (SVC_CODEC_VP8, 1, 3, 8, 0, G_MAXUINT,
      1200000);
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
test_bitrate_rise_waits_for_gop_start_fall_does_not (void)
{
  static const gdouble share[3] = { 0.2, 0.5, 1.0 };
  GArray *packets = encode_stream (SVC_CODEC_VP9, 3, 1, VP9_GOP, 0, 13,
      1200000);

  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    guint64 total = p->frame_id < 20 ? 800000 : 1200000;

    g_assert_cmpuint (p->cumulative_bps, ==,
        (guint64) (total * share[p->spatial_layer] + 0.5));
  }
  g_array_unref (packets);
  packets = encode_stream (SVC_CODEC_VP9, 3, 1, VP9_GOP, 0, 13, 400000);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    guint64 total = p->frame_id < 13 ? 800000 : 400000;

    g_assert_cmpuint (p->cumulative_bps, ==,
        (guint64) (total * share[p->spatial_layer] + 0.5));
  }
  g_array_unref (packets);
}

/* Bytes of the 30 frames after the bitrate falls from 1.2 Mbit/s to
 * 300 kbit/s at frame 90 (two layers, no key frame after the first), with
 * a rate-control buffer of @buffer_ms (0: libvpx's 6000 ms). */
static gsize
bytes_after_rate_fall (guint buffer_ms)
{
  SvcEncoderSettings s = test_settings (SVC_CODEC_VP9, 2, 1, 10000, 1200000);
  GArray *packets;
  gsize bytes = 0;

  s.spatial_sync = 10;
  s.buffer_ms = buffer_ms;
  s.buffer_initial_ms = buffer_ms / 2;
  s.buffer_optimal_ms = buffer_ms * 6 / 10;
  packets = encode_frames (&s, 120, 90, 300000);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    if (p->frame_id >= 90)
      bytes += g_bytes_get_size (p->data);
  }
  g_array_unref (packets);
  return bytes;
}

/* libwebrtc's buffer (1000 ms, 500 initial, 600 optimal) follows a fall:
 * 300 kbit/s for 30 frames at 30 fps is 37500 bytes, and it stays within
 * 25 % of that; libvpx's 6000 ms buffer spends what it saved at 1.2 Mbit/s
 * first (here 50492 bytes against 41562). */
static void
test_small_buffer_follows_a_rate_fall (void)
{
  gsize large = bytes_after_rate_fall (0), small = bytes_after_rate_fall (1000);

  g_test_message ("after the fall: %" G_GSIZE_FORMAT " bytes with libvpx's "
      "buffer, %" G_GSIZE_FORMAT " with 1000 ms", large, small);
  g_assert_cmpuint (small, <=, 37500 * 5 / 4);
  g_assert_cmpuint (large, >, 37500 * 5 / 4);
}

#define SYNC_INTERVAL 5

static gboolean
keep_without_upper_layers_of_2_to_8 (const SvcLayerPacket *p, gpointer data)
{
  (void) data;
  return p->spatial_layer == 0 || p->frame_id < 2 || p->frame_id > 8;
}

/* One key frame (GoP longer than the stream), spatial syncs every 5
 * frames: the upper layers of a sync picture are tagged key frames (and only
 * they, besides frame 0), a queue's drop of the upper layers of frames 2-8
 * makes those of frame 9 undecodable and those of frame 10 (a sync)
 * decodable, bit-exactly as in the full stream (their own layer's last
 * decoded picture, frame 1's, would not do); a bitrate requested at
 * frame 13 applies from the sync at 15. */
static void
test_vp9_spatial_sync_recovers_upper_layers (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP9, 3, 1, N_FRAMES,
      SYNC_INTERVAL, 13, 1200000);
  GHashTable *full, *subset;
  guint n_decoded, n_refused;
  static const gdouble share[3] = { 0.2, 0.5, 1.0 };

  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    guint64 total = p->frame_id < 15 ? 800000 : 1200000;

    g_assert_cmpint (p->keyframe, ==, p->frame_id == 0
        || (p->spatial_layer > 0 && p->frame_id % SYNC_INTERVAL == 0));
    g_assert_cmpuint (p->cumulative_bps, ==,
        (guint64) (total * share[p->spatial_layer] + 0.5));
  }
  full = decode_stream (SVC_CODEC_VP9, 1, packets, NULL, NULL, &n_decoded,
      &n_refused);
  g_assert_cmpuint (n_decoded, ==, packets->len);
  subset = decode_stream (SVC_CODEC_VP9, 1, packets,
      keep_without_upper_layers_of_2_to_8, NULL, &n_decoded, &n_refused);
  /* frame 9's two upper layers refused; 2-8's never arrived */
  g_assert_cmpuint (n_refused, ==, 2);
  g_assert_cmpuint (n_decoded, ==, packets->len - 16);
  g_assert_false (g_hash_table_contains (subset, "9/1"));
  g_assert_true (g_hash_table_contains (subset, "10/1"));
  g_assert_true (g_hash_table_contains (subset, "10/2"));
  assert_same_pictures (full, subset);
  g_hash_table_unref (full);
  g_hash_table_unref (subset);
  g_array_unref (packets);
}

/* Every layer of frames 3 .. *@data - 1 dropped. */
static gboolean
keep_none_from_3_to (const SvcLayerPacket *p, gpointer data)
{
  return p->frame_id < 3 || p->frame_id >= *(const guint *) data;
}

/* An intra base sync every 5 frames (4 with temporal layers, whose syncs
 * are TL0 frames; one key frame, @n_temporal layers): every layer of a
 * sync picture is tagged a key frame, its layer 0 also a base sync (not a
 * decoder's starting point); a queue that dropped every layer of the frames
 * from 3 to the first sync after 9 (a sync among them) leaves that sync and
 * every later frame decodable, bit-exactly as in the full stream.  Without
 * intra base syncs nothing after the gap decodes. */
static void
test_vp9_intra_base_sync_restarts_every_layer (gconstpointer data)
{
  guint n_temporal = GPOINTER_TO_UINT (data);
  SvcEncoderSettings s = test_settings (SVC_CODEC_VP9, 3, n_temporal,
      N_FRAMES, 800000);
  GArray *packets;
  GHashTable *full, *subset;
  guint n_decoded, n_refused, resume;
  gchar *resumed;

  s.spatial_sync = n_temporal == 1 ? SYNC_INTERVAL : 4;
  s.intra_base_sync = TRUE;
  resume = (10 + s.spatial_sync - 1) / s.spatial_sync * s.spatial_sync;
  resumed = g_strdup_printf ("%u/0", resume);
  packets = encode_frames (&s, N_FRAMES, G_MAXUINT, 0);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    gboolean sync = p->frame_id % s.spatial_sync == 0;

    g_assert_cmpint (p->keyframe, ==, sync);
    g_assert_cmpint (p->base_sync, ==, sync && p->frame_id > 0
        && p->spatial_layer == 0);
  }
  full = decode_stream (SVC_CODEC_VP9, n_temporal, packets, NULL, NULL,
      &n_decoded, &n_refused);
  g_assert_cmpuint (n_decoded, ==, packets->len);
  subset = decode_stream (SVC_CODEC_VP9, n_temporal, packets,
      keep_none_from_3_to, &resume, &n_decoded, &n_refused);
  g_assert_cmpuint (n_refused, ==, 0);
  g_assert_cmpuint (n_decoded, ==, packets->len - (resume - 3) * 3);
  g_assert_true (g_hash_table_contains (subset, resumed));
  g_assert_true (g_hash_table_contains (subset, "39/2"));
  assert_same_pictures (full, subset);
  g_hash_table_unref (full);
  g_hash_table_unref (subset);
  g_array_unref (packets);

  packets = encode_stream (SVC_CODEC_VP9, 3, n_temporal, N_FRAMES,
      s.spatial_sync, G_MAXUINT, 1200000);
  subset = decode_stream (SVC_CODEC_VP9, n_temporal, packets,
      keep_none_from_3_to, &resume, &n_decoded, &n_refused);
  g_assert_cmpuint (n_decoded, ==, 3 * 3);
  g_hash_table_unref (subset);
  g_array_unref (packets);
  g_free (resumed);
}

/* An intra base sync needs spatial syncs of VP9 SVC. */
static void
test_intra_base_sync_needs_spatial_sync (void)
{
  SvcEncoderSettings s = test_settings (SVC_CODEC_VP9, 3, 1, 10, 800000);
  GError *error = NULL;

  s.intra_base_sync = TRUE;
  g_assert_null (svc_vpx_encoder_new (&s, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "spatial syncs"));
  g_clear_error (&error);
}

/* Bytes of frame 0 (the key picture, every layer) encoded with a key
 * frame cap of @max_intra_pct. */
static gsize
key_picture_bytes (guint max_intra_pct)
{
  SvcEncoderSettings s = test_settings (SVC_CODEC_VP9, 2, 1, 10000, 300000);
  GArray *packets;
  gsize bytes = 0;

  s.max_intra_pct = max_intra_pct;
  packets = encode_frames (&s, 1, G_MAXUINT, 0);
  for (guint i = 0; i < packets->len; i++) {
    const SvcLayerPacket *p = &g_array_index (packets, SvcLayerPacket, i);
    g_assert_cmpuint (p->frame_id, ==, 0);
    bytes += g_bytes_get_size (p->data);
  }
  g_array_unref (packets);
  return bytes;
}

/* max_intra_pct bounds the key picture: 300 % of a frame's share of
 * 300 kbit/s at 30 fps is 3750 bytes; uncapped, with no periodic key frame,
 * libvpx spends several times that. */
static void
test_key_frame_cap (void)
{
  gsize uncapped = key_picture_bytes (0), capped = key_picture_bytes (300);

  g_test_message ("key picture: %" G_GSIZE_FORMAT " bytes uncapped, %"
      G_GSIZE_FORMAT " capped at 300 %%", uncapped, capped);
  g_assert_cmpuint (capped, <=, 3750 * 5 / 4);
  g_assert_cmpuint (uncapped, >, 2 * capped);
}

static void
test_top_layer_quality_is_real (void)
{
  GArray *packets = encode_stream (SVC_CODEC_VP9, 3, 1, VP9_GOP, 0,
      G_MAXUINT, 1200000);
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
      sum += octo_ssim (planes[0], strides[0], img->planes[0],
          img->stride[0], W, H);
    }
  }
  /* 800 kbit/s at 320x180 is plenty for this content */
  g_assert_cmpfloat (sum / N_FRAMES, >, 0.9);
  g_free (buf);
  svc_vpx_decoder_free (dec);
  g_array_unref (packets);
}

/* Key frames declaring 65536 x 65536 (VP9) and 16383 x 16383 (VP8) are
 * refused before libvpx allocates for them. */
static void
test_huge_declared_frames_are_refused (void)
{
  /* frame marker, profile 0, key, shown; sync code; BT.601; 65536 x 65536 */
  static const guint8 vp9_key[] = { 0x82, 0x49, 0x83, 0x42, 0x2f, 0xff,
    0xff, 0xff, 0xf0, 0, 0, 0, 0, 0, 0, 0
  };
  static const guint8 vp8_key[] = { 0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a,
    0xff, 0x3f, 0xff, 0x3f, 0, 0, 0, 0, 0, 0
  };
  struct {
    SvcCodec codec;
    const guint8 *frame;
    gsize size;
  } cases[] = {
    { SVC_CODEC_VP9, vp9_key, sizeof vp9_key },
    { SVC_CODEC_VP8, vp8_key, sizeof vp8_key },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    SvcVpxDecoder *dec = svc_vpx_decoder_new (cases[i].codec, 1, NULL);
    GError *error = NULL;

    g_assert_null (svc_vpx_decoder_decode (dec, cases[i].frame,
            cases[i].size, &error));
    g_assert_error (error, SVC_DECODER_ERROR, SVC_DECODER_ERROR_TOO_LARGE);
    g_clear_error (&error);
    /* cut before its size it declares none: libvpx is asked, rejects it */
    g_assert_null (svc_vpx_decoder_decode (dec, cases[i].frame, 6, &error));
    g_assert_error (error, SVC_DECODER_ERROR, SVC_DECODER_ERROR_FAILED);
    g_clear_error (&error);
    svc_vpx_decoder_free (dec);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint spatial = 1; spatial <= 3; spatial++)
    for (guint temporal = 1; temporal <= 3; temporal++) {
      gchar *subsets = g_strdup_printf ("/svc/codec/vp9-layer-subsets/"
          "%usx%ut", spatial, temporal);
      gchar *refs = g_strdup_printf ("/svc/codec/vp9-bitstream-references/"
          "%usx%ut", spatial, temporal);

      g_test_add_data_func (subsets, GUINT_TO_POINTER (spatial * 10 +
              temporal),
          test_vp9_every_layer_subset_decodes_as_in_full_stream);
      g_test_add_data_func (refs, GUINT_TO_POINTER (spatial * 10 + temporal),
          test_vp9_bitstream_references_match_layer_ids);
      g_free (subsets);
      g_free (refs);
    }
  g_test_add_func ("/svc/codec/huge-declared-frames-refused",
      test_huge_declared_frames_are_refused);
  g_test_add_func ("/svc/codec/vp8-without-enhancement",
      test_vp8_without_tl2_or_tl1_decodes_as_in_full_stream);
  g_test_add_func ("/svc/codec/vp8-bitstream-references",
      test_vp8_bitstream_references_are_the_pattern);
  g_test_add_func ("/svc/codec/bitrate-rises-at-gop-start-falls-at-once",
      test_bitrate_rise_waits_for_gop_start_fall_does_not);
  g_test_add_func ("/svc/codec/vp9-spatial-sync-recovers-upper-layers",
      test_vp9_spatial_sync_recovers_upper_layers);
  g_test_add_data_func ("/svc/codec/vp9-intra-base-sync/1t",
      GUINT_TO_POINTER (1), test_vp9_intra_base_sync_restarts_every_layer);
  g_test_add_data_func ("/svc/codec/vp9-intra-base-sync/3t",
      GUINT_TO_POINTER (3), test_vp9_intra_base_sync_restarts_every_layer);
  g_test_add_func ("/svc/codec/intra-base-sync-needs-spatial-sync",
      test_intra_base_sync_needs_spatial_sync);
  g_test_add_func ("/svc/codec/key-frame-cap", test_key_frame_cap);
  g_test_add_func ("/svc/codec/small-buffer-follows-a-rate-fall",
      test_small_buffer_follows_a_rate_fall);
  g_test_add_func ("/svc/codec/top-layer-quality",
      test_top_layer_quality_is_real);
  return g_test_run ();
}
