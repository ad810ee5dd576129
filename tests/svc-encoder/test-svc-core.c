/* The SVC encoder's pure logic: layer pattern, decodability, settings,
 * rate plan and SSIM. */
#include <string.h>

#include "octo-preset.h"
#include "svc-config.h"
#include "svc-decodability.h"
#include "svc-dump.h"
#include "svc-frame-size.h"
#include "svc-pattern.h"

static void
test_three_layer_pattern_is_the_framerate_preset_structure (void)
{
  /* docs/design.md, GoP 8: positions 0..7 -> layer, referenced frame */
  static const guint layer[8] = { 0, 2, 1, 2, 0, 2, 1, 2 };
  static const gint ref[8] = { -1, 0, 0, 2, 0, 4, 4, 6 };
  static const gboolean sync[8] = { 0, 1, 1, 0, 0, 1, 1, 0 };

  for (guint p = 0; p < 8; p++) {
    SvcTemporalFrame f;
    svc_temporal_frame (3, p, &f);
    g_assert_cmpint (f.keyframe, ==, p == 0);
    g_assert_cmpuint (f.temporal_layer, ==, layer[p]);
    g_assert_cmpint (p == 0 ? -1 : (gint) p - (gint) f.ref_distance, ==,
        ref[p]);
    g_assert_cmpint (f.layer_sync, ==, sync[p]);
    if (p == 0) {
      g_assert_cmpuint (f.refs, ==, 0);
      g_assert_cmpuint (f.updates, ==, SVC_SLOT_ALL);
    }
  }
}

static void
test_no_enhancement_frame_references_its_own_layer (void)
{
  for (guint n = 1; n <= 3; n++)
    for (guint p = 1; p < 64; p++) {
      SvcTemporalFrame f, r;
      svc_temporal_frame (n, p, &f);
      svc_temporal_frame (n, p - f.ref_distance, &r);
      g_assert_cmpuint (f.ref_distance, >=, 1);
      if (f.temporal_layer == 0)
        g_assert_cmpuint (r.temporal_layer, ==, 0);
      else
        g_assert_cmpuint (r.temporal_layer, <, f.temporal_layer);
      /* the slot it reads holds exactly that frame: LAST is written by
       * TL0 only, GOLDEN by TL0 and (3 layers) TL1 */
      for (guint q = p - f.ref_distance + 1; q < p; q++) {
        SvcTemporalFrame between;
        svc_temporal_frame (n, q, &between);
        g_assert_cmpuint (between.updates & f.refs, ==, 0);
      }
      g_assert_cmpuint (r.updates & f.refs, ==, f.refs);
    }
}

static void
test_two_and_one_layer_patterns (void)
{
  SvcTemporalFrame f;

  svc_temporal_frame (2, 5, &f);
  g_assert_cmpuint (f.temporal_layer, ==, 1);
  g_assert_cmpuint (f.ref_distance, ==, 1);
  g_assert_cmpuint (f.updates, ==, 0);
  svc_temporal_frame (2, 6, &f);
  g_assert_cmpuint (f.temporal_layer, ==, 0);
  g_assert_cmpuint (f.ref_distance, ==, 2);
  svc_temporal_frame (1, 7, &f);
  g_assert_cmpuint (f.temporal_layer, ==, 0);
  g_assert_cmpuint (f.ref_distance, ==, 1);
  g_assert_cmpuint (svc_temporal_period (3), ==, 4);
}

static void
test_vp8_without_tl2_and_tl1_decodes_base (void)
{
  SvcDecodability d;

  svc_decodability_init (&d, 3);
  /* frames 0..15, GoP 8; TL1 (2, 6, 10, 14) and TL2 (odd) never arrive */
  for (guint32 f = 0; f < 16; f += 4)
    g_assert_true (svc_decodability_add_layer (&d, f, f % 8 == 0, 0, 0));
  svc_decodability_init (&d, 3);
  /* TL2 lost: TL0 and TL1 decode */
  for (guint32 f = 0; f < 16; f += 2)
    g_assert_true (svc_decodability_add_layer (&d, f, f % 8 == 0,
            f % 4 ? 1 : 0, 0));
}

static void
test_vp8_lost_reference_skips_until_key (void)
{
  SvcDecodability d;

  svc_decodability_init (&d, 3);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 1, FALSE, 2, 0));
  /* frame 2 (TL1) lost: 3 (refs 2) is not decodable, 4 (refs 0) is */
  g_assert_false (svc_decodability_add_layer (&d, 3, FALSE, 2, 0));
  g_assert_true (svc_decodability_add_layer (&d, 4, FALSE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 5, FALSE, 2, 0));
  /* frame 8 (TL0... here lost), 12 refs it */
  g_assert_false (svc_decodability_add_layer (&d, 12, FALSE, 0, 0));
  g_assert_false (svc_decodability_add_layer (&d, 13, FALSE, 2, 0));
  g_assert_true (svc_decodability_add_layer (&d, 16, TRUE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 17, FALSE, 2, 0));
}

static void
test_layer_id_contradicting_pattern_is_not_decodable (void)
{
  SvcDecodability d;

  svc_decodability_init (&d, 3);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  /* an off-pattern key frame at 5 was lost: 6 is TL2 in its GoP */
  g_assert_false (svc_decodability_add_layer (&d, 6, FALSE, 2, 0));
}

/* octopussvcdec without temporal-layers in caps or property */
static void
test_temporal_layer_count_is_learnt (void)
{
  SvcDecodability d;

  /* 3 layers (0,2,1,2): the TL2 frame at position 1 tells */
  svc_decodability_init (&d, 0);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 1, FALSE, 2, 0));
  g_assert_cmpuint (d.n_temporal_layers, ==, 3);
  g_assert_true (svc_decodability_add_layer (&d, 2, FALSE, 1, 0));
  g_assert_true (svc_decodability_add_layer (&d, 3, FALSE, 2, 0));
  g_assert_true (svc_decodability_add_layer (&d, 4, FALSE, 0, 0));
  /* 3 layers with position 1 lost: the TL1 frame at position 2 tells */
  svc_decodability_init (&d, 0);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 2, FALSE, 1, 0));
  g_assert_cmpuint (d.n_temporal_layers, ==, 3);
  g_assert_true (svc_decodability_add_layer (&d, 4, FALSE, 0, 0));
  /* 2 layers (0,1) and 1 layer */
  svc_decodability_init (&d, 0);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 1, FALSE, 1, 0));
  g_assert_true (svc_decodability_add_layer (&d, 2, FALSE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 3, FALSE, 1, 0));
  g_assert_cmpuint (d.n_temporal_layers, ==, 2);
  svc_decodability_init (&d, 0);
  for (guint32 f = 0; f < 5; f++)
    g_assert_true (svc_decodability_add_layer (&d, f, f == 0, 0, 0));
  g_assert_cmpuint (d.n_temporal_layers, ==, 1);
  /* a given count is never changed */
  svc_decodability_init (&d, 1);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  g_assert_false (svc_decodability_add_layer (&d, 1, FALSE, 2, 0));
  g_assert_cmpuint (d.n_temporal_layers, ==, 1);
}

static void
test_spatial_layer_needs_lower_layers_and_own_reference (void)
{
  SvcDecodability d;

  svc_decodability_init (&d, 1);
  for (guint k = 0; k < 3; k++)
    g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, k));
  /* frame 1: layer 1 lost -> layer 2 not decodable */
  g_assert_true (svc_decodability_add_layer (&d, 1, FALSE, 0, 0));
  g_assert_false (svc_decodability_add_layer (&d, 1, FALSE, 0, 2));
  g_assert_cmpuint (svc_decodability_layers (&d, 1), ==, 0x1);
  /* frame 2: all arrive; 1 and 2 lack their references in frame 1 */
  g_assert_true (svc_decodability_add_layer (&d, 2, FALSE, 0, 0));
  g_assert_false (svc_decodability_add_layer (&d, 2, FALSE, 0, 1));
  g_assert_false (svc_decodability_add_layer (&d, 2, FALSE, 0, 2));
  /* a late layer of frame 1 changes nothing */
  g_assert_false (svc_decodability_add_layer (&d, 1, FALSE, 0, 1));
  /* the next key picture restores all layers */
  for (guint k = 0; k < 3; k++)
    g_assert_true (svc_decodability_add_layer (&d, 10, TRUE, 0, k));
  g_assert_cmpuint (svc_decodability_layers (&d, 10), ==, 0x7);
}

static void
test_lost_key_base_layer_blocks_gop (void)
{
  SvcDecodability d;

  svc_decodability_init (&d, 1);
  g_assert_true (svc_decodability_add_layer (&d, 0, TRUE, 0, 0));
  g_assert_true (svc_decodability_add_layer (&d, 1, FALSE, 0, 0));
  /* key picture 2's layer 0 lost, its layer 1 arrives */
  g_assert_false (svc_decodability_add_layer (&d, 2, TRUE, 0, 1));
  g_assert_false (svc_decodability_add_layer (&d, 3, FALSE, 0, 0));
}

static void
test_fractions_and_scaling_parse_with_clear_errors (void)
{
  gdouble fr[3];
  SvcRatio sc[3];
  GError *error = NULL;

  g_assert_true (svc_config_parse_fractions ("0.2,0.5,1", 3, fr, NULL));
  g_assert_cmpfloat (fr[0], ==, 0.2);
  g_assert_cmpfloat (fr[2], ==, 1.0);
  g_assert_false (svc_config_parse_fractions ("0.5,0.2,1", 3, fr, &error));
  g_assert_nonnull (strstr (error->message, "item 2"));
  g_clear_error (&error);
  g_assert_false (svc_config_parse_fractions ("0.2,0.5", 3, fr, &error));
  g_assert_nonnull (strstr (error->message, "expected 3"));
  g_clear_error (&error);
  g_assert_false (svc_config_parse_fractions ("0.2,0.9", 2, fr, NULL));
  g_assert_true (svc_config_parse_scaling ("1/4,1/2,1", 3, sc, NULL));
  g_assert_cmpuint (sc[0].den, ==, 4);
  g_assert_cmpuint (sc[2].num, ==, 1);
  g_assert_false (svc_config_parse_scaling ("1/2,1/4,1", 3, sc, &error));
  g_assert_nonnull (strstr (error->message, "item 2"));
  g_clear_error (&error);
  g_assert_false (svc_config_parse_scaling ("0/2,1", 2, sc, NULL));
  g_assert_false (svc_config_parse_scaling ("1/2,x", 2, sc, NULL));
  svc_config_default_scaling (3, sc);
  g_assert_cmpuint (sc[0].den, ==, 4);
  g_assert_cmpuint (sc[1].den, ==, 2);
  g_assert_cmpuint (sc[2].den, ==, 1);
}

static void
test_layer_bitrates_follow_paper_split (void)
{
  gdouble fr[3];
  guint64 bps[3];

  svc_config_default_spatial_fractions (3, fr);
  svc_config_layer_bitrates (5000000, fr, 3, bps);
  g_assert_cmpuint (bps[0], ==, 1000000);
  g_assert_cmpuint (bps[1], ==, 2500000);
  g_assert_cmpuint (bps[2], ==, 5000000);
}

static void
test_media_rate_fits_link_estimate (void)
{
  static const guint64 links[] = { 0, 1, 999, 2000000, 5123457, 100000000 };

  for (guint i = 0; i < G_N_ELEMENTS (links); i++) {
    guint64 media = svc_config_media_rate_for_link (links[i], 1348, 80);
    g_assert_cmpuint (octo_preset_link_rate (media, 1348, 80), <=, links[i]);
    g_assert_cmpuint (octo_preset_link_rate (media + 1, 1348, 80), >,
        links[i]);
  }
  /* 1348 + 80 bytes per 1348 of payload: about 5.6 % less */
  g_assert_cmpuint (svc_config_media_rate_for_link (2000000, 1348, 80), ==,
      1887955);
}

static void
test_rate_rises_only_at_gop_start_and_falls_at_once (void)
{
  SvcRatePlan plan;

  svc_rate_plan_init (&plan, 1000000);
  svc_rate_plan_request (&plan, 3000000);
  g_assert_false (svc_rate_plan_frame (&plan, FALSE));
  g_assert_cmpuint (plan.current, ==, 1000000);
  g_assert_true (svc_rate_plan_frame (&plan, TRUE));
  g_assert_cmpuint (plan.current, ==, 3000000);
  g_assert_false (svc_rate_plan_frame (&plan, TRUE));
  /* a request back to the current rate cancels a pending one */
  svc_rate_plan_request (&plan, 4000000);
  svc_rate_plan_request (&plan, 3000000);
  g_assert_false (svc_rate_plan_frame (&plan, TRUE));
  /* a fall takes the next frame, GoP start or not */
  svc_rate_plan_request (&plan, 1500000);
  g_assert_true (svc_rate_plan_frame (&plan, FALSE));
  g_assert_cmpuint (plan.current, ==, 1500000);
  g_assert_false (svc_rate_plan_frame (&plan, FALSE));
}

static void
test_dump_record_round_trip_and_rejections (void)
{
  SvcDumpRecord in = { 4242, 2, 1, TRUE, G_GUINT64_CONSTANT (987654321012),
    5, NULL
  }, out;
  guint8 bytes[SVC_DUMP_RECORD_HEADER + 5];
  GError *error = NULL;

  svc_dump_write_header (&in, bytes);
  memcpy (bytes + SVC_DUMP_RECORD_HEADER, "hello", 5);
  g_assert_cmpint (svc_dump_parse_record (bytes, sizeof (bytes), 0, &out,
          NULL), ==, sizeof (bytes));
  g_assert_cmpuint (out.frame_id, ==, 4242);
  g_assert_cmpuint (out.index, ==, 2);
  g_assert_cmpuint (out.temporal_layer, ==, 1);
  g_assert_true (out.keyframe);
  g_assert_cmpuint (out.capture_ns, ==, in.capture_ns);
  g_assert_cmpmem (out.payload, out.size, "hello", 5);
  g_assert_cmpint (svc_dump_parse_record (bytes, 0, 0, &out, NULL), ==, 0);
  g_assert_cmpint (svc_dump_parse_record (bytes, sizeof (bytes) - 1, 64,
          &out, &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "offset 64"));
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_clear_error (&error);
  bytes[6] = 2;                 /* key flag must be 0 or 1 */
  g_assert_cmpint (svc_dump_parse_record (bytes, sizeof (bytes), 0, &out,
          &error), ==, -1);
  g_clear_error (&error);
}

/* Writes header fields MSB first, as VP9's uncompressed header. */
typedef struct {
  guint8 bytes[64];
  guint bit;
} BitWriter;

static void
put_bits (BitWriter *w, guint n, guint v)
{
  for (guint i = n; i > 0; i--, w->bit++)
    if ((v >> (i - 1)) & 1)
      w->bytes[w->bit / 8] |= 0x80 >> (w->bit % 8);
}

/* frame_marker, profile 0, show_existing_frame 0, then @non_key,
 * @show_frame, error_resilient_mode 0 */
static void
put_vp9_start (BitWriter *w, gboolean non_key, gboolean show_frame)
{
  memset (w, 0, sizeof (*w));
  put_bits (w, 2, 2);
  put_bits (w, 2, 0);
  put_bits (w, 1, 0);
  put_bits (w, 1, non_key);
  put_bits (w, 1, show_frame);
  put_bits (w, 1, 0);
}

static void
put_vp9_size (BitWriter *w, guint width, guint height)
{
  put_bits (w, 16, width - 1);
  put_bits (w, 16, height - 1);
}

static gsize
vp9_key_frame (BitWriter *w, guint width, guint height)
{
  put_vp9_start (w, FALSE, TRUE);
  put_bits (w, 24, 0x498342);   /* sync code */
  put_bits (w, 3, 1);           /* color_space BT.601 */
  put_bits (w, 1, 0);           /* color_range */
  put_vp9_size (w, width, height);
  put_bits (w, 1, 0);           /* render size = frame size */
  return 16;                    /* with room for more header */
}

/* Every place a VP9 or VP8 header declares a size is read, before any
 * decoder would allocate for it. */
static void
test_declared_frame_sizes (void)
{
  BitWriter w;
  guint width, height;
  guint8 super[64];
  guint32 sizes[8];
  gsize len;

  /* key frames: frame_size() */
  len = vp9_key_frame (&w, 65536, 65536);
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, len, &width, &height),
      ==, G_GUINT64_CONSTANT (1) << 32);
  g_assert_cmpuint (width, ==, 65536);
  len = vp9_key_frame (&w, 640, 360);
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, len, &width, &height),
      ==, 640 * 360);
  /* cut inside the size: nothing declared (libvpx rejects it) */
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, 6, &width, &height),
      ==, 0);

  /* intra-only frame (not shown): refresh flags, then frame_size() */
  put_vp9_start (&w, TRUE, FALSE);
  put_bits (&w, 1, 1);          /* intra_only */
  put_bits (&w, 2, 0);          /* reset_frame_context */
  put_bits (&w, 24, 0x498342);
  put_bits (&w, 8, 0xff);
  put_vp9_size (&w, 16384, 8192);
  put_bits (&w, 1, 0);
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, 16, &width, &height),
      ==, 16384 * 8192);

  /* inter frame, no reference's size taken: frame_size_with_refs() */
  put_vp9_start (&w, TRUE, TRUE);
  put_bits (&w, 2, 0);          /* reset_frame_context */
  put_bits (&w, 8, 0x01);       /* refresh_frame_flags */
  put_bits (&w, 12, 0);         /* ref_frame_idx, sign bias */
  put_bits (&w, 3, 0);          /* found_ref × 3 */
  put_vp9_size (&w, 30000, 30000);
  put_bits (&w, 1, 0);
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, 16, &width, &height),
      ==, 30000ull * 30000);

  /* a reference's size, but a huge render_size() */
  put_vp9_start (&w, TRUE, TRUE);
  put_bits (&w, 2, 0);
  put_bits (&w, 8, 0x01);
  put_bits (&w, 12, 0);
  put_bits (&w, 1, 1);          /* found_ref */
  put_bits (&w, 1, 1);          /* render_and_frame_size_different */
  put_vp9_size (&w, 65536, 2);
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, 16, &width, &height),
      ==, 65536 * 2);
  /* ... or none: nothing declared */
  put_vp9_start (&w, TRUE, TRUE);
  put_bits (&w, 2, 0);
  put_bits (&w, 8, 0x01);
  put_bits (&w, 12, 0);
  put_bits (&w, 2, 1);          /* found_ref on the second */
  put_bits (&w, 1, 0);
  g_assert_cmpuint (svc_vp9_declared_pixels (w.bytes, 16, &width, &height),
      ==, 0);

  /* a superframe whose second frame is the huge key frame */
  len = vp9_key_frame (&w, 320, 180);
  memcpy (super, w.bytes, len);
  vp9_key_frame (&w, 65536, 65536);
  memcpy (super + len, w.bytes, len);
  super[2 * len] = 0xc1;        /* 2 frames, 1-byte sizes */
  super[2 * len + 1] = (guint8) len;
  super[2 * len + 2] = (guint8) len;
  super[2 * len + 3] = 0xc1;
  g_assert_cmpuint (svc_vp9_superframe_index (super, 2 * len + 4, sizes), ==,
      2);
  g_assert_cmpuint (sizes[1], ==, len);
  g_assert_cmpuint (svc_vp9_declared_pixels (super, 2 * len + 4, &width,
          &height), ==, G_GUINT64_CONSTANT (1) << 32);
  /* an index naming more bytes than there are: libvpx stops there */
  super[2 * len + 2] = 200;
  g_assert_cmpuint (svc_vp9_declared_pixels (super, 2 * len + 4, &width,
          &height), ==, 320 * 180);

  /* VP8 key frame: 14-bit width and height after the start code */
  {
    guint8 vp8[10] = { 0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a,
      0xff, 0x3f, 0xff, 0xff
    };
    g_assert_cmpuint (svc_vp8_declared_pixels (vp8, sizeof vp8, &width,
            &height), ==, 16383 * 16383);
    vp8[0] |= 1;                /* an inter frame keeps the size */
    g_assert_cmpuint (svc_vp8_declared_pixels (vp8, sizeof vp8, &width,
            &height), ==, 0);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/svc/pattern/three-layers-is-framerate-preset",
      test_three_layer_pattern_is_the_framerate_preset_structure);
  g_test_add_func ("/svc/pattern/no-own-layer-references",
      test_no_enhancement_frame_references_its_own_layer);
  g_test_add_func ("/svc/pattern/two-and-one-layers",
      test_two_and_one_layer_patterns);
  g_test_add_func ("/svc/decodability/vp8-without-enhancement",
      test_vp8_without_tl2_and_tl1_decodes_base);
  g_test_add_func ("/svc/decodability/vp8-lost-reference",
      test_vp8_lost_reference_skips_until_key);
  g_test_add_func ("/svc/decodability/contradicting-layer-id",
      test_layer_id_contradicting_pattern_is_not_decodable);
  g_test_add_func ("/svc/decodability/learnt-temporal-layers",
      test_temporal_layer_count_is_learnt);
  g_test_add_func ("/svc/decodability/spatial",
      test_spatial_layer_needs_lower_layers_and_own_reference);
  g_test_add_func ("/svc/decodability/lost-key-base",
      test_lost_key_base_layer_blocks_gop);
  g_test_add_func ("/svc/config/parse",
      test_fractions_and_scaling_parse_with_clear_errors);
  g_test_add_func ("/svc/config/paper-split",
      test_layer_bitrates_follow_paper_split);
  g_test_add_func ("/svc/config/media-rate-fits-link",
      test_media_rate_fits_link_estimate);
  g_test_add_func ("/svc/config/rate-rises-at-gop-start-falls-at-once",
      test_rate_rises_only_at_gop_start_and_falls_at_once);
  g_test_add_func ("/svc/frame-size/declared-sizes",
      test_declared_frame_sizes);
  g_test_add_func ("/svc/dump/round-trip-and-rejections",
      test_dump_record_round_trip_and_rejections);
  return g_test_run ();
}
