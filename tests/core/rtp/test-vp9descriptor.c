/* The receiver's picture-id unwrap (rtpvp9svcdepay's frame ids). */
#include "rtpvp9descriptor.h"

#include <string.h>

static void
test_unwrap_counts_on_across_the_15_bit_wrap (void)
{
  RtpVp9Unwrap u;

  memset (&u, 0, sizeof (u));
  g_assert_cmpuint (rtp_vp9_unwrap (&u, 0x7ffe), ==, 0x7ffe);
  g_assert_cmpuint (rtp_vp9_unwrap (&u, 0x7fff), ==, 0x7fff);
  g_assert_cmpuint (rtp_vp9_unwrap (&u, 0), ==, 0x8000);
  g_assert_cmpuint (rtp_vp9_unwrap (&u, 0), ==, 0x8000);
  g_assert_cmpuint (rtp_vp9_unwrap (&u, 5), ==, 0x8005);
  /* ids only move forward: a reordered older id reads as much later */
  g_assert_cmpuint (rtp_vp9_unwrap (&u, 4), ==, 0x8005 + 0x7fff);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vp9-descriptor/unwrap-counts-on-across-the-wrap",
      test_unwrap_counts_on_across_the_15_bit_wrap);
  return g_test_run ();
}
