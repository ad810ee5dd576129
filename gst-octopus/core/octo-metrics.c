#include "octo-metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const gdouble octo_metrics_taus[OCTO_METRICS_N_TAUS] = { 1.0, 0.5, 2.0 };

gdouble
octo_ssim_from_db (gdouble db)
{
  return 1.0 - pow (10.0, -db / 10.0);
}

static gint
compare_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

gdouble
octo_percentile (gdouble *samples, guint n, gdouble pct)
{
  gdouble pos, frac;
  guint lo;

  if (n == 0)
    return NAN;
  qsort (samples, n, sizeof (gdouble), compare_double);
  pos = pct / 100.0 * (n - 1);
  lo = (guint) floor (pos);
  if (lo + 1 >= n)
    return samples[n - 1];
  frac = pos - lo;
  return samples[lo] + (samples[lo + 1] - samples[lo]) * frac;
}

void
octo_metrics_temporal_refs (OctoFrameRecord *frames, guint n,
    const gboolean *keyframe, const guint8 *temporal_layer)
{
  gint32 last_tl0 = -1, last_tl1 = -1;  /* TL1 newer than last_tl0, if any */

  for (guint i = 0; i < n; i++) {
    if (keyframe[i]) {
      frames[i].ref = -1;
      last_tl0 = i;
      last_tl1 = -1;
    } else if (temporal_layer[i] == 0) {
      frames[i].ref = last_tl0;
      last_tl0 = i;
      last_tl1 = -1;
    } else if (temporal_layer[i] == 1) {
      frames[i].ref = last_tl0;
      last_tl1 = i;
    } else {
      frames[i].ref = last_tl1 >= 0 ? last_tl1 : last_tl0;
    }
  }
}

static OctoTime
later (OctoTime a, OctoTime b)
{
  if (a == OCTO_TIME_NONE || b == OCTO_TIME_NONE)
    return OCTO_TIME_NONE;
  return MAX (a, b);
}

/* decodable[f * MAX + k]: when layer k of frame f became decodable. */
static void
decodable_times (const OctoFrameRecord *frames, guint n, OctoDecodeModel model,
    OctoTime *decodable)
{
  for (guint f = 0; f < n; f++) {
    const OctoFrameRecord *fr = &frames[f];
    OctoTime *d = &decodable[f * OCTO_METRICS_MAX_LAYERS];

    for (guint k = 0; k < OCTO_METRICS_MAX_LAYERS; k++)
      d[k] = OCTO_TIME_NONE;
    switch (model) {
      case OCTO_DECODE_TEMPORAL:
        d[0] = fr->arrival[0];
        /* a reference to a frame that is not earlier is malformed input */
        if (fr->ref >= 0)
          d[0] = (guint) fr->ref < f ?
              later (d[0], decodable[fr->ref * OCTO_METRICS_MAX_LAYERS]) :
              OCTO_TIME_NONE;
        break;
      case OCTO_DECODE_LAYERED:
        for (guint k = 0; k < fr->n_layers; k++) {
          d[k] = fr->arrival[k];
          if (k > 0)
            d[k] = later (d[k], d[k - 1]);
          if (!fr->gop_start) {
            const OctoTime *prev = f > 0 ?
                &decodable[(f - 1) * OCTO_METRICS_MAX_LAYERS] : NULL;
            d[k] = prev ? later (d[k], prev[k]) : OCTO_TIME_NONE;
          }
        }
        break;
      case OCTO_DECODE_INDEPENDENT:
        for (guint k = 0; k < fr->n_layers; k++)
          d[k] = fr->arrival[k];
        break;
    }
  }
}

static OctoTime
base_time (const OctoTime *d, guint n_layers, OctoDecodeModel model)
{
  OctoTime first = OCTO_TIME_NONE;

  if (model != OCTO_DECODE_INDEPENDENT)
    return d[0];
  for (guint k = 0; k < n_layers; k++)
    first = MIN (first, d[k]);
  return first;
}

typedef struct {
  OctoTime time;
  guint frame;
} Event;

static gint
compare_event (const void *a, const void *b)
{
  const Event *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Picks the layers of shown frame @f usable by @limit (the next shown frame's
 * base time) and fills its outcome. */
static void
show_frame (const OctoFrameRecord *fr, const OctoTime *d,
    OctoDecodeModel model, OctoTime limit, OctoFrameOutcome *out)
{
  out->shown = TRUE;
  out->show_time = 0;
  for (guint k = 0; k < MAX (fr->n_layers, 1u); k++) {
    if (d[k] == OCTO_TIME_NONE || d[k] > limit) {
      if (model == OCTO_DECODE_INDEPENDENT)
        continue;
      break;
    }
    out->layers_used |= 1u << k;
    out->show_time = MAX (out->show_time, d[k]);
    if (model == OCTO_DECODE_INDEPENDENT)
      out->quality += fr->quality[k];
    else
      out->quality = fr->quality[k];
  }
}

void
octo_metrics_compute (const OctoFrameRecord *frames, guint n,
    OctoDecodeModel model, OctoTime end, OctoFrameOutcome *outcomes,
    OctoMetricsSummary *summary)
{
  OctoTime *decodable = g_new (OctoTime, (gsize) MAX (n, 1u) *
      OCTO_METRICS_MAX_LAYERS);
  Event *events = g_new (Event, MAX (n, 1u));
  gdouble *latency = g_new (gdouble, MAX (n, 1u));
  gdouble *aoi = g_new (gdouble, (gsize) n + 1);
  guint n_events = 0, n_shown = 0, n_aoi = 0;
  gint64 newest = -1;

  memset (summary, 0, sizeof (*summary));
  memset (outcomes, 0, sizeof (OctoFrameOutcome) * n);
  summary->n_frames = n;
  decodable_times (frames, n, model, decodable);

  for (guint f = 0; f < n; f++) {
    OctoTime base = base_time (&decodable[f * OCTO_METRICS_MAX_LAYERS],
        frames[f].n_layers, model);
    if (base != OCTO_TIME_NONE)
      events[n_events++] = (Event) { base, f };
  }
  qsort (events, n_events, sizeof (Event), compare_event);

  /* frames shown, in show order (increasing index and time) */
  for (guint i = 0; i < n_events; i++) {
    if ((gint64) events[i].frame <= newest)
      continue;
    newest = events[i].frame;
    events[n_shown++] = events[i];
  }

  newest = -1;
  for (guint i = 0; i < n_shown; i++) {
    guint f = events[i].frame;
    OctoTime limit = i + 1 < n_shown ? events[i + 1].time : G_MAXUINT64 - 1;
    OctoFrameOutcome *out = &outcomes[f];

    show_frame (&frames[f], &decodable[f * OCTO_METRICS_MAX_LAYERS], model,
        limit, out);
    latency[i] = (out->show_time - frames[f].capture) / (gdouble) OCTO_MSECOND;
    if (newest >= 0)
      aoi[n_aoi++] = (out->show_time - frames[newest].capture) /
          (gdouble) OCTO_MSECOND;
    newest = f;
  }
  if (newest >= 0 && end >= frames[newest].capture)
    aoi[n_aoi++] = (end - frames[newest].capture) / (gdouble) OCTO_MSECOND;

  for (guint t = 0; t < OCTO_METRICS_N_TAUS; t++) {
    gdouble sum = 0;
    gint64 last = -1;
    for (guint f = 0; f < n; f++) {
      if (outcomes[f].shown) {
        sum += outcomes[f].quality;
        last = f;
      } else if (last >= 0) {
        gdouble dt = (gdouble) (frames[f].capture - frames[last].capture) /
            OCTO_SECOND;
        sum += outcomes[last].quality * exp (-dt / octo_metrics_taus[t]);
      }
    }
    summary->sqi_ssim[t] = n > 0 ? sum / n : 0;
  }

  summary->n_shown = n_shown;
  summary->p50_latency_ms = octo_percentile (latency, n_shown, 50);
  summary->p99_latency_ms = octo_percentile (latency, n_shown, 99);
  summary->median_aoi_ms = octo_percentile (aoi, n_aoi, 50);
  summary->p99_aoi_ms = octo_percentile (aoi, n_aoi, 99);

  g_free (decodable);
  g_free (events);
  g_free (latency);
  g_free (aoi);
}
