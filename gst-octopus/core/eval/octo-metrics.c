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

gdouble
octo_utilisation (guint64 whole_message_link_bytes, guint64 capacity_bytes)
{
  return capacity_bytes ? (gdouble) whole_message_link_bytes / capacity_bytes
      : 0;
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

/* The receiver, replayed in arrival order: a layer of a frame older than the
 * newest shown one is discarded (never handed to the decoder); a layer is
 * decodable once it and its references are; a frame is shown when its base
 * becomes decodable and it is newer than the shown one, then improves with
 * each further layer that becomes decodable until a newer frame is shown. */
typedef struct {
  const OctoFrameRecord *frames;
  guint n;
  OctoDecodeModel model;
  gboolean *handed;             /* [f * MAX + k] */
  OctoTime *decodable;          /* [f * MAX + k] */
  gint32 *first_child, *next_sibling;   /* TEMPORAL: frames referencing f */
  gint64 newest_shown;
  OctoFrameOutcome *out;
  GArray *work;                 /* (f, k) pairs that just became decodable */
} Replay;

#define AT(f, k) ((gsize) (f) * OCTO_METRICS_MAX_LAYERS + (k))

static gboolean
references_ready (const Replay *r, guint f, guint k)
{
  const OctoFrameRecord *fr = &r->frames[f];

  switch (r->model) {
    case OCTO_DECODE_TEMPORAL:
      return fr->ref < 0 || ((guint) fr->ref < f
          && r->decodable[AT (fr->ref, 0)] != OCTO_TIME_NONE);
    case OCTO_DECODE_LAYERED:
      if (k > 0 && r->decodable[AT (f, k - 1)] == OCTO_TIME_NONE)
        return FALSE;
      return fr->gop_start || (fr->layer_start >> k & 1) || (f > 0
          && r->decodable[AT (f - 1, k)] != OCTO_TIME_NONE);
    case OCTO_DECODE_INDEPENDENT:
      break;
  }
  return TRUE;
}

static void
try_decode (Replay *r, guint f, guint k, OctoTime now)
{
  guint pair[2] = { f, k };

  if (f >= r->n || k >= r->frames[f].n_layers || !r->handed[AT (f, k)]
      || r->decodable[AT (f, k)] != OCTO_TIME_NONE
      || !references_ready (r, f, k))
    return;
  r->decodable[AT (f, k)] = now;
  g_array_append_vals (r->work, pair, 2);
}

static void
became_decodable (Replay *r, guint f, guint k, OctoTime now)
{
  const OctoFrameRecord *fr = &r->frames[f];
  OctoFrameOutcome *out = &r->out[f];
  gboolean base = r->model == OCTO_DECODE_INDEPENDENT || k == 0;

  if ((gint64) f > r->newest_shown && base) {
    r->newest_shown = f;
    out->shown = TRUE;
  }
  if ((gint64) f == r->newest_shown) {
    out->layers_used |= 1u << k;
    out->show_time = now;
    if (r->model == OCTO_DECODE_INDEPENDENT)
      out->quality += fr->quality[k];
    else
      out->quality = fr->quality[k];
  }
  /* what this layer unlocks */
  if (r->model == OCTO_DECODE_LAYERED) {
    try_decode (r, f, k + 1, now);
    if (f + 1 < r->n && !r->frames[f + 1].gop_start)
      try_decode (r, f + 1, k, now);
  } else if (r->model == OCTO_DECODE_TEMPORAL) {
    for (gint32 c = r->first_child[f]; c >= 0; c = r->next_sibling[c])
      try_decode (r, c, 0, now);
  }
}

typedef struct {
  OctoTime time;
  guint frame, layer;
} Arrival;

static gint
compare_arrival (const void *a, const void *b)
{
  const Arrival *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->frame != y->frame)
    return x->frame < y->frame ? -1 : 1;
  return x->layer < y->layer ? -1 : x->layer > y->layer;
}

static void
replay (Replay *r)
{
  GArray *arrivals = g_array_new (FALSE, FALSE, sizeof (Arrival));

  for (guint f = 0; f < r->n; f++)
    for (guint k = 0; k < r->frames[f].n_layers; k++)
      if (r->frames[f].arrival[k] != OCTO_TIME_NONE) {
        Arrival a = { r->frames[f].arrival[k], f, k };
        g_array_append_val (arrivals, a);
      }
  qsort (arrivals->data, arrivals->len, sizeof (Arrival), compare_arrival);

  for (guint i = 0; i < arrivals->len; i++) {
    Arrival *a = &g_array_index (arrivals, Arrival, i);
    if ((gint64) a->frame < r->newest_shown)
      continue;
    r->handed[AT (a->frame, a->layer)] = TRUE;
    try_decode (r, a->frame, a->layer, a->time);
    while (r->work->len > 0) {
      guint f = g_array_index (r->work, guint, r->work->len - 2);
      guint k = g_array_index (r->work, guint, r->work->len - 1);
      g_array_set_size (r->work, r->work->len - 2);
      became_decodable (r, f, k, a->time);
    }
  }
  g_array_free (arrivals, TRUE);
}

void
octo_metrics_compute (const OctoFrameRecord *frames, guint n,
    OctoDecodeModel model, OctoTime end, OctoFrameOutcome *outcomes,
    OctoMetricsSummary *summary)
{
  gsize cells = (gsize) MAX (n, 1u) * OCTO_METRICS_MAX_LAYERS;
  Replay r;
  gdouble *latency, *aoi;
  guint n_shown = 0, n_aoi = 0;
  gint64 newest = -1;

  for (guint f = 0; f < n; f++)
    g_return_if_fail (frames[f].n_layers <= OCTO_METRICS_MAX_LAYERS);
  r = (Replay) { frames, n, model, g_new0 (gboolean, cells),
    g_new (OctoTime, cells), g_new (gint32, MAX (n, 1u)),
    g_new (gint32, MAX (n, 1u)), -1, outcomes,
    g_array_new (FALSE, FALSE, sizeof (guint)) };
  latency = g_new (gdouble, MAX (n, 1u));
  aoi = g_new (gdouble, (gsize) n + 1);

  memset (summary, 0, sizeof (*summary));
  memset (outcomes, 0, sizeof (OctoFrameOutcome) * n);
  summary->n_frames = n;
  for (gsize i = 0; i < cells; i++)
    r.decodable[i] = OCTO_TIME_NONE;
  for (guint f = 0; f < n; f++)
    r.first_child[f] = -1;
  for (gint64 f = (gint64) n - 1; f >= 0; f--) {
    gint32 ref = frames[f].ref;
    if (model == OCTO_DECODE_TEMPORAL && ref >= 0 && ref < f) {
      r.next_sibling[f] = r.first_child[ref];
      r.first_child[ref] = f;
    }
  }
  replay (&r);

  /* show times increase with the frame index among shown frames */
  for (guint f = 0; f < n; f++) {
    const OctoFrameOutcome *out = &outcomes[f];
    if (!out->shown)
      continue;
    latency[n_shown++] = (out->show_time - frames[f].capture) /
        (gdouble) OCTO_MSECOND;
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

  g_free (r.handed);
  g_free (r.decodable);
  g_free (r.first_child);
  g_free (r.next_sibling);
  g_array_free (r.work, TRUE);
  g_free (latency);
  g_free (aoi);
}
