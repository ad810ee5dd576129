/* docs/design.md's preset tables, entry by entry. */
#include "octo-preset.h"

/* The fields a preset leaves alone. */
static const OctoHeader others = { .msg_id = 9, .stream_id = 3,
  .slack_ms = 250 };

static void
assert_fields (const OctoHeader *t, guint prio, gboolean drop, guint thr,
    guint64 bitrate, guint slack_ms)
{
  g_assert_cmpuint (t->priority, ==, prio);
  g_assert_cmpint (t->drop, ==, drop);
  if (drop)
    g_assert_cmpuint (t->priority_threshold, ==, thr);
  g_assert_cmpuint (t->link_bitrate_threshold_bps, ==, bitrate);
  g_assert_cmpuint (t->msg_id, ==, others.msg_id);
  g_assert_cmpuint (t->stream_id, ==, others.stream_id);
  g_assert_cmpuint (t->slack_ms, ==, slack_ms);
}

/* framerate and volumetric leave the app's slack alone */
static void
assert_tags (const OctoHeader *t, guint prio, gboolean drop, guint thr,
    guint64 bitrate)
{
  assert_fields (t, prio, drop, thr, bitrate, others.slack_ms);
}

/* quality sets its own slack */
static void
assert_quality (const OctoHeader *t, guint prio, gboolean drop, guint thr,
    guint64 bitrate)
{
  assert_fields (t, prio, drop, thr, bitrate, 10);
}

static void
test_framerate_tags_from_key_flag_and_layer (void)
{
  OctoHeader t = others;

  octo_preset_framerate (TRUE, 0, &t);
  assert_tags (&t, 0, TRUE, 0, 0);
  octo_preset_framerate (TRUE, 2, &t);  /* an off-pattern key frame */
  assert_tags (&t, 0, TRUE, 0, 0);
  octo_preset_framerate (FALSE, 0, &t); /* a GoP start that is no key frame */
  assert_tags (&t, 1, TRUE, 2, 0);
  octo_preset_framerate (FALSE, 1, &t);
  assert_tags (&t, 2, TRUE, 2, 0);
  octo_preset_framerate (FALSE, 2, &t);
  assert_tags (&t, 3, TRUE, 3, 0);
}

static void
test_quality_tags (void)
{
  OctoHeader t = others;

  octo_preset_quality (0, TRUE, 400000, &t);
  assert_quality (&t, 0, TRUE, 0, 0);
  octo_preset_quality (0, FALSE, 400000, &t);
  assert_quality (&t, 0, FALSE, 0, 0);
  /* Q1's key frame (a key picture's, or a spatial sync): a dropper of
   * older Q1 and Q2 */
  octo_preset_quality (1, TRUE, 700000, &t);
  assert_quality (&t, 1, TRUE, 1, 700000);
  octo_preset_quality (1, FALSE, 700000, &t);
  assert_quality (&t, 1, FALSE, 0, 700000);
  octo_preset_quality (2, TRUE, 1200000, &t);
  assert_quality (&t, 2, TRUE, 2, 1200000);
  octo_preset_quality (2, FALSE, 1200000, &t);
  assert_quality (&t, 2, FALSE, 0, 1200000);
}

static void
test_volumetric_tags (void)
{
  OctoHeader t = others;

  for (guint64 frame = 0; frame < 8; frame++) {
    octo_preset_volumetric (0, TRUE, 0, frame, &t);
    assert_tags (&t, 0, TRUE, 3 - frame % 4, 0);
  }
  octo_preset_volumetric (1, TRUE, 0, 0, &t);
  assert_tags (&t, 0, FALSE, 0, 0);
  octo_preset_volumetric (1, TRUE, 2, 0, &t);
  assert_tags (&t, 1, FALSE, 0, 0);
  octo_preset_volumetric (0, TRUE, 3, 0, &t);
  assert_tags (&t, 2, FALSE, 0, 0);
  octo_preset_volumetric (2, FALSE, 0, 0, &t);
  assert_tags (&t, 3, FALSE, 0, 0);
  /* a cell 0 that the viewport puts behind is still the dropper's cell */
  octo_preset_volumetric (0, FALSE, 0, 1, &t);
  assert_tags (&t, 3, TRUE, 2, 0);

  octo_preset_volumetric_trace (1, 0, 0, &t);
  assert_tags (&t, 0, FALSE, 0, 0);
  octo_preset_volumetric_trace (0, 0, 5, &t);
  assert_tags (&t, 0, TRUE, 2, 0);
  octo_preset_volumetric_trace (1, 4, 0, &t);
  assert_tags (&t, 1, FALSE, 0, 0);
  octo_preset_volumetric_trace (0, 5, 0, &t);
  assert_tags (&t, 2, FALSE, 0, 0);
  octo_preset_volumetric_trace (1, 9, 0, &t);
  assert_tags (&t, 3, FALSE, 0, 0);
}

static void
test_link_rate_adds_packet_overhead (void)
{
  /* 1000-byte payloads with 60 bytes of headers: +6 % */
  g_assert_cmpuint (octo_preset_link_rate (1000000, 1000, 60), ==, 1060000);
  g_assert_cmpuint (octo_preset_link_rate (0, 1000, 60), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/preset/framerate", test_framerate_tags_from_key_flag_and_layer);
  g_test_add_func ("/preset/quality", test_quality_tags);
  g_test_add_func ("/preset/volumetric", test_volumetric_tags);
  g_test_add_func ("/preset/link-rate", test_link_rate_adds_packet_overhead);
  return g_test_run ();
}
