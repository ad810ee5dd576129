/* docs/design.md's three presets through the engine on hand-computed arrival and
 * departure sequences. */
#include "engine-harness.h"

#define MS OCTO_MSECOND

static void
assert_log (Harness *h, const gchar *expected)
{
  gchar *log = harness_take_log (h);
  g_assert_cmpstr (log, ==, expected);
  g_free (log);
}

/* framerate, GoP 8: key 0/0, TL0 (4) 1/2, TL1 (2, 6) 2/2, TL2 (odd) 3/3, all
 * droppers. */
static void
framerate_message (Harness *h, guint32 frame, OctoTime now)
{
  guint pos = frame % 8;
  Tags t = { .drop = TRUE };

  if (pos == 0)
    t.priority = 0, t.threshold = 0;
  else if (pos == 4)
    t.priority = 1, t.threshold = 2;
  else if (pos % 2 == 0)
    t.priority = 2, t.threshold = 2;
  else
    t.priority = 3, t.threshold = 3;
  harness_message (h, 0, 0, frame, 1, 1200, &t, now);
}

static void
test_framerate_preset (void)
{
  Harness *h = harness_new (OCTO_ENGINE_DEFAULT_LIMIT_BYTES, OCTO_BW_MEASURED);

  framerate_message (h, 0, 0 * MS);
  framerate_message (h, 1, 33 * MS);
  framerate_message (h, 2, 66 * MS);
  /* key frame 0 at the front: no dropper of threshold 0 */
  harness_dequeue (h, 1, 70 * MS);
  assert_log (h, "+0/0");

  framerate_message (h, 3, 100 * MS);
  framerate_message (h, 4, 133 * MS);
  /* droppers: t3 = 3, t2 = 4.  1 (p3), 2 (p2), 3 (p3) are older than 4 */
  harness_dequeue (h, 1, 140 * MS);
  assert_log (h, "-0/1:dropper -0/2:dropper -0/3:dropper +0/4");

  /* the stream emptied: its droppers are forgotten */
  framerate_message (h, 5, 166 * MS);
  framerate_message (h, 6, 200 * MS);
  framerate_message (h, 7, 233 * MS);
  /* t3 = 7, t2 = 6: 5 (p3) < 7 dropped; 6 (p2) sees max(t0..t2) = 6, not
   * newer; 7 (p3) sees 7 */
  harness_dequeue (h, G_MAXUINT, 240 * MS);
  assert_log (h, "-0/5:dropper +0/6 +0/7");

  /* a whole GoP queued behind a new key frame: all of it is obsolete */
  for (guint32 f = 8; f <= 16; f++)
    framerate_message (h, f, (266 + 33 * (f - 8)) * MS);
  harness_dequeue (h, G_MAXUINT, 600 * MS);
  assert_log (h, "-0/8:dropper -0/9:dropper -0/10:dropper -0/11:dropper "
      "-0/12:dropper -0/13:dropper -0/14:dropper -0/15:dropper +0/16");
  harness_free (h);
}

/* quality, GoP 10, 3 layers a message each: Q0 p0, Q1 p1 threshold B1, Q2
 * p2 threshold B2; the GoP's first Q0 is a dropper with threshold 0. */
#define B1 700000
#define B2 1200000
static void
quality_frame (Harness *h, guint32 frame, OctoTime now)
{
  for (guint layer = 0; layer < 3; layer++) {
    Tags t = { .priority = layer };
    if (layer == 0 && frame % 10 == 0)
      t.drop = TRUE, t.threshold = 0;
    t.bitrate = layer == 1 ? B1 : layer == 2 ? B2 : 0;
    harness_message (h, 0, 0, frame * 3 + layer, 2, 1000, &t, now);
  }
}

static void
test_quality_preset (void)
{
  Harness *h = harness_new (OCTO_ENGINE_DEFAULT_LIMIT_BYTES, OCTO_BW_EXTERNAL);

  /* 1 Mbit/s: Q1 (0.7) fits, Q2 (1.2) does not */
  octo_engine_set_bandwidth (h->engine, 1000000);
  quality_frame (h, 0, 0);
  quality_frame (h, 1, 33 * MS);
  harness_dequeue (h, G_MAXUINT, 40 * MS);
  assert_log (h, "+0/0 +0/0 +0/1 +0/1 -0/2:bitrate -0/2:bitrate "
      "+0/3 +0/3 +0/4 +0/4 -0/5:bitrate -0/5:bitrate");

  /* unknown bandwidth disables the bitrate rule */
  octo_engine_set_bandwidth (h->engine, OCTO_BW_UNKNOWN);
  quality_frame (h, 2, 66 * MS);
  harness_dequeue (h, G_MAXUINT, 70 * MS);
  assert_log (h, "+0/6 +0/6 +0/7 +0/7 +0/8 +0/8");

  /* frame 9 still queued when the next GoP's Q0 (dropper, threshold 0)
   * arrives: every layer of 9 is obsolete */
  octo_engine_set_bandwidth (h->engine, 2000000);
  quality_frame (h, 9, 300 * MS);
  quality_frame (h, 10, 333 * MS);
  harness_dequeue (h, G_MAXUINT, 340 * MS);
  assert_log (h, "-0/27:dropper -0/27:dropper -0/28:dropper -0/28:dropper "
      "-0/29:dropper -0/29:dropper +0/30 +0/30 +0/31 +0/31 +0/32 +0/32");
  harness_free (h);
}

/* volumetric: 4 cells (0, 1 front; 2, 3 occluded) x 5 layers, order front
 * L0, front L1..L4 (cell 0 then 1), occluded L0..L4; priorities front L0 0,
 * L1-2 1, L3-4 2, occluded 3; cell 0's L0 is the dropper, threshold cycling
 * 3, 2, 1, 0.  msg_id = frame * 20 + position in that order. */
static void
volumetric_message (Harness *h, guint32 frame, guint pos, OctoTime now)
{
  guint layer, cell;
  Tags t = { 0 };

  if (pos < 10) {
    layer = pos / 2, cell = pos % 2;
    t.priority = layer == 0 ? 0 : layer <= 2 ? 1 : 2;
  } else {
    layer = (pos - 10) / 2, cell = 2 + pos % 2;
    t.priority = 3;
  }
  if (cell == 0 && layer == 0)
    t.drop = TRUE, t.threshold = 3 - frame % 4;
  harness_message (h, 0, 0, frame * 20 + pos, 1, 1400, &t, now);
}

static void
test_volumetric_preset (void)
{
  Harness *h = harness_new (OCTO_ENGINE_DEFAULT_LIMIT_BYTES, OCTO_BW_MEASURED);

  for (guint pos = 0; pos < 20; pos++)
    volumetric_message (h, 0, pos, 0);
  volumetric_message (h, 1, 0, 50 * MS);        /* dropper, threshold 2 */
  harness_dequeue (h, 20, 55 * MS);
  /* frame 0: front L0 and L1-L2 stay; front L3-L4 (p2) and occluded (p3) go */
  assert_log (h, "+0/0 +0/1 +0/2 +0/3 +0/4 +0/5 -0/6:dropper -0/7:dropper "
      "-0/8:dropper -0/9:dropper -0/10:dropper -0/11:dropper -0/12:dropper "
      "-0/13:dropper -0/14:dropper -0/15:dropper -0/16:dropper "
      "-0/17:dropper -0/18:dropper -0/19:dropper +0/20");

  for (guint pos = 1; pos < 20; pos++)
    volumetric_message (h, 1, pos, 50 * MS);
  volumetric_message (h, 2, 0, 100 * MS);       /* dropper, threshold 1 */
  harness_dequeue (h, G_MAXUINT, 105 * MS);
  {
    GString *want = g_string_new ("+0/21");
    for (guint32 id = 22; id < 40; id++)
      g_string_append_printf (want, " -0/%u:dropper", id);
    g_string_append (want, " +0/40");
    assert_log (h, want->str);
    g_string_free (want, TRUE);
  }

  for (guint pos = 1; pos < 20; pos++)
    volumetric_message (h, 2, pos, 100 * MS);
  volumetric_message (h, 3, 0, 150 * MS);       /* dropper, threshold 0 */
  harness_dequeue (h, G_MAXUINT, 155 * MS);
  {
    GString *want = g_string_new (NULL);
    for (guint32 id = 41; id < 60; id++)
      g_string_append_printf (want, "%s-0/%u:dropper", id > 41 ? " " : "", id);
    g_string_append (want, " +0/60");
    assert_log (h, want->str);
    g_string_free (want, TRUE);
  }
  harness_free (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/presets/framerate-gop8", test_framerate_preset);
  g_test_add_func ("/presets/quality-3-layers-gop10", test_quality_preset);
  g_test_add_func ("/presets/volumetric-4-cells-5-layers",
      test_volumetric_preset);
  return g_test_run ();
}
