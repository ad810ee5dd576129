/* gst-octopus point clouds: helpers on the frame layout. */
#include "pc-point.h"

void
octo_pc_bounds (const OctoPcPoint *pts, gsize n, float min[3], float max[3])
{
  for (guint a = 0; a < 3; a++)
    min[a] = max[a] = n ? pts[0].xyz[a] : 0.0f;
  for (gsize i = 1; i < n; i++)
    for (guint a = 0; a < 3; a++) {
      min[a] = MIN (min[a], pts[i].xyz[a]);
      max[a] = MAX (max[a], pts[i].xyz[a]);
    }
}
