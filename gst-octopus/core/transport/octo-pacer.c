/* gst-octopus core: the pacer (see octo-pacer.h). */
#include "octo-pacer.h"

void
octo_pacer_init (OctoPacer *pacer, OctoTime burst)
{
  pacer->rate = 0;
  pacer->burst = burst;
  pacer->last_start = 0;
  pacer->last_bytes = 0;
}

void
octo_pacer_set_rate (OctoPacer *pacer, guint64 rate)
{
  pacer->rate = rate;
}

OctoTime
octo_pacer_next_send_time (const OctoPacer *pacer, OctoTime now)
{
  if (pacer->rate == 0 || pacer->last_bytes == 0)
    return now;
  return pacer->last_start +
      (OctoTime) ((gdouble) pacer->last_bytes * 8 * OCTO_SECOND / pacer->rate);
}

void
octo_pacer_on_sent (OctoPacer *pacer, guint32 bytes, OctoTime now)
{
  OctoTime start = octo_pacer_next_send_time (pacer, now);

  if (start + pacer->burst < now)
    start = now - pacer->burst;
  pacer->last_start = start;
  pacer->last_bytes = bytes;
}
