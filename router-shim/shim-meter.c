/* octopus-shim --meter: a text line per user and direction every interval,
 * like mm-link's --meter-* graphs.  Everything comes from counters the loop
 * keeps anyway (the queues' statistics, the departures' delays) and from the
 * trace itself, sampled when the meter's timer fires: no work per packet. */
#include "shim.h"

/* Delivery opportunities of @trace at offsets <= @offset from the link's
 * start (octo-link: loop L offers trace->ms[i] at L * period + ms[i]). */
static guint64
opportunities_until (const OctoTrace *trace, OctoTime offset)
{
  OctoTime period = trace->period_ms * OCTO_MSECOND;
  guint64 loops = offset / period;
  OctoTime rest = offset - loops * period;
  guint lo = 0, hi = trace->n;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    if (trace->ms[mid] * OCTO_MSECOND <= rest)
      lo = mid + 1;
    else
      hi = mid;
  }
  return loops * trace->n + lo;
}

static gdouble
mbps (guint64 bytes, OctoTime span)
{
  return (gdouble) bytes * 8 * 1000 / (gdouble) span;
}

static void
append_ms (GString *out, const gchar *key, const ShimMeterDelay *delay,
    OctoTime value)
{
  if (delay->count == 0)
    g_string_append_printf (out, " %s=-", key);
  else
    g_string_append_printf (out, " %s=%.3f", key,
        (gdouble) value / OCTO_MSECOND);
}

void
shim_meter_sample (Shim *shim, OctoTime now, GString *out)
{
  OctoTime span = MAX (now - shim->metered_at, 1);
  gchar capacity[SHIM_MAX_LINKS][SHIM_N_DIRECTIONS][32];

  for (guint l = 0; l < shim->n_links; l++)
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      const OctoTrace *trace = shim->links[l].trace[d];
      if (trace == NULL) {
        g_strlcpy (capacity[l][d], "inf", sizeof capacity[l][d]);
        continue;
      }
      guint64 offered = opportunities_until (trace, now - shim->start) -
          opportunities_until (trace, shim->metered_at - shim->start);
      g_snprintf (capacity[l][d], sizeof capacity[l][d], "%.3f",
          mbps (offered * OCTO_LINK_OPPORTUNITY_BYTES, span));
    }
  for (guint i = 0; i < shim->users->len; i++) {
    ShimUser *u = shim->users->pdata[i];
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      const OctoQdiscStats *s = octo_qdisc_get_stats (u->qdisc[d]);
      OctoQdiscStats *last = &u->metered[d];
      ShimMeterDelay *delay = &u->meter_delay[d];

      g_string_append_printf (out, "meter t=%.3f user=%u dir=%s "
          "capacity_mbps=%s delivered_mbps=%.3f queue_bytes=%"
          G_GUINT64_FORMAT " queue_packets=%u",
          (gdouble) (now - shim->start) / OCTO_SECOND, u->index,
          shim_direction_name (d), capacity[u->link][d],
          mbps (s->bytes_out - last->bytes_out, span),
          octo_qdisc_queued_bytes (u->qdisc[d]),
          octo_qdisc_queued_packets (u->qdisc[d]));
      append_ms (out, "delay_ms", delay, delay->last);
      append_ms (out, "max_delay_ms", delay, delay->max);
      for (guint r = 0; r < OCTO_DROP_N_REASONS; r++)
        if (r != OCTO_DROP_TRIM)
          g_string_append_printf (out, " drop_%s=%" G_GUINT64_FORMAT,
              octo_drop_reason_to_string (r),
              s->packets_dropped[r] - last->packets_dropped[r]);
      g_string_append_printf (out, " trimmed=%" G_GUINT64_FORMAT "\n",
          s->packets_trimmed - last->packets_trimmed);
      *last = *s;
      *delay = (ShimMeterDelay) { 0 };
    }
  }
  shim->metered_at = now;
}
