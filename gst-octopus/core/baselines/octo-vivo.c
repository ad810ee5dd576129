/* ViVo's harmonic-mean throughput estimate (octo-vivo.h). */
#include "octo-vivo.h"

#include <string.h>

void
octo_vivo_init (OctoVivoEstimator *vivo)
{
  memset (vivo, 0, sizeof (*vivo));
}

gboolean
octo_vivo_may_send (const OctoVivoEstimator *vivo)
{
  return vivo->outstanding < OCTO_VIVO_MAX_OUTSTANDING;
}

void
octo_vivo_on_send (OctoVivoEstimator *vivo)
{
  vivo->outstanding++;
}

void
octo_vivo_on_frame (OctoVivoEstimator *vivo, guint64 bytes, OctoTime start,
    OctoTime end)
{
  OctoTime span = end > start ? end - start : 1;

  if (vivo->outstanding > 0)
    vivo->outstanding--;
  vivo->rates[vivo->next] = (gdouble) bytes * 8 * OCTO_SECOND / span;
  vivo->next = (vivo->next + 1) % OCTO_VIVO_WINDOW;
  vivo->n = MIN (vivo->n + 1, OCTO_VIVO_WINDOW);
}

guint64
octo_vivo_estimate (const OctoVivoEstimator *vivo)
{
  gdouble inverse = 0;

  if (vivo->n == 0)
    return 0;
  for (guint i = 0; i < vivo->n; i++) {
    if (vivo->rates[i] <= 0)
      return 0;
    inverse += 1 / vivo->rates[i];
  }
  return (guint64) (vivo->n / inverse + 0.5);
}
