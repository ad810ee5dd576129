/* Google Congestion Control (octo-gcc.h). */
#include "octo-gcc.h"

#include <math.h>
#include <string.h>

#define GROUP_SPAN (5 * OCTO_MSECOND)
#define BURST_GAP (5 * OCTO_MSECOND)
#define BURST_MAX (100 * OCTO_MSECOND)
#define TREND_WINDOW 20
#define TREND_SMOOTHING 0.9
#define TREND_GAIN 4.0
#define TREND_MIN_DELTAS 60
#define OVERUSE_TIME_MS 10.0
#define THRESHOLD_INITIAL 12.5
#define THRESHOLD_MIN 6.0
#define THRESHOLD_MAX 600.0
#define THRESHOLD_K_UP 0.0087
#define THRESHOLD_K_DOWN 0.039
#define THRESHOLD_MAX_OFFSET 15.0
#define BETA 0.85
#define RATE_WINDOW (500 * OCTO_MSECOND)
#define RATE_HISTORY 4096

typedef struct {
  OctoTime first_send, last_send, first_arrival, last_arrival;
  gboolean valid;
} Group;

struct _OctoGcc {
  OctoGccConfig config;

  /* inter-arrival grouping */
  Group current, previous;

  /* trendline */
  OctoTime trend_origin;         /* the first group's arrival: x = 0 */
  guint num_deltas;
  gdouble accumulated, smoothed;
  gdouble hist_x[TREND_WINDOW], hist_y[TREND_WINDOW];
  guint hist_len, hist_head;
  gdouble trend, prev_trend, modified_trend;

  /* detector */
  gdouble threshold;
  gdouble time_over_using;      /* ms; < 0 when not over-using */
  guint overuse_counter;
  OctoTime last_threshold_update;
  gboolean threshold_updated;
  OctoGccUsage usage;

  /* received rate over the last RATE_WINDOW of arrivals */
  OctoTime rx_time[RATE_HISTORY];
  guint32 rx_bytes[RATE_HISTORY];
  guint rx_head, rx_len;

  /* AIMD */
  OctoGccRateState state;
  gdouble delay_rate;
  OctoTime last_change;
  gdouble capacity_avg, capacity_var;   /* received rate at decreases, kbps */
  gboolean capacity_known;

  /* loss-based */
  gdouble loss_rate;
  guint batch_packets, batch_lost;
};

void
octo_gcc_config_init (OctoGccConfig *config)
{
  config->initial_bps = 300000;
  config->min_bps = 50000;
  config->max_bps = 100000000;
}

OctoGcc *
octo_gcc_new (const OctoGccConfig *config)
{
  OctoGcc *g = g_new0 (OctoGcc, 1);

  g->config = *config;
  g->threshold = THRESHOLD_INITIAL;
  g->time_over_using = -1;
  g->trend_origin = OCTO_TIME_NONE;
  g->delay_rate = g->loss_rate = config->initial_bps;
  g->state = OCTO_GCC_INCREASE;
  g->last_change = OCTO_TIME_NONE;
  g->capacity_var = 0.4;
  return g;
}

void
octo_gcc_free (OctoGcc *gcc)
{
  g_free (gcc);
}

static gdouble
ms (gint64 ns)
{
  return ns / 1e6;
}

/* Least-squares slope of the smoothed delay over arrival time. */
static gdouble
trend_slope (const OctoGcc *g)
{
  gdouble mx = 0, my = 0, num = 0, den = 0;

  for (guint i = 0; i < g->hist_len; i++) {
    mx += g->hist_x[i];
    my += g->hist_y[i];
  }
  mx /= g->hist_len;
  my /= g->hist_len;
  for (guint i = 0; i < g->hist_len; i++) {
    num += (g->hist_x[i] - mx) * (g->hist_y[i] - my);
    den += (g->hist_x[i] - mx) * (g->hist_x[i] - mx);
  }
  return den == 0 ? g->trend : num / den;
}

static void
update_threshold (OctoGcc *g, OctoTime now)
{
  gdouble m = fabs (g->modified_trend), k, dt;

  if (!g->threshold_updated) {
    g->last_threshold_update = now;
    g->threshold_updated = TRUE;
  }
  /* a spike far above the threshold (e.g. a route change) is not adapted to */
  if (m > g->threshold + THRESHOLD_MAX_OFFSET) {
    g->last_threshold_update = now;
    return;
  }
  k = m < g->threshold ? THRESHOLD_K_DOWN : THRESHOLD_K_UP;
  dt = MIN (ms (now - g->last_threshold_update), 100.0);
  g->threshold = CLAMP (g->threshold + k * (m - g->threshold) * dt,
      THRESHOLD_MIN, THRESHOLD_MAX);
  g->last_threshold_update = now;
}

static void
detect (OctoGcc *g, gdouble send_delta_ms, OctoTime now)
{
  if (g->num_deltas < 2) {
    g->usage = OCTO_GCC_NORMAL;
    return;
  }
  g->modified_trend = MIN (g->num_deltas, TREND_MIN_DELTAS) * g->trend *
      TREND_GAIN;
  if (g->modified_trend > g->threshold) {
    g->time_over_using = g->time_over_using < 0 ? send_delta_ms / 2 :
        g->time_over_using + send_delta_ms;
    g->overuse_counter++;
    if (g->time_over_using > OVERUSE_TIME_MS && g->overuse_counter > 1
        && g->trend >= g->prev_trend) {
      g->time_over_using = 0;
      g->overuse_counter = 0;
      g->usage = OCTO_GCC_OVERUSE;
    }
  } else if (g->modified_trend < -g->threshold) {
    g->time_over_using = -1;
    g->overuse_counter = 0;
    g->usage = OCTO_GCC_UNDERUSE;
  } else {
    g->time_over_using = -1;
    g->overuse_counter = 0;
    g->usage = OCTO_GCC_NORMAL;
  }
  g->prev_trend = g->trend;
  update_threshold (g, now);
}

/* A group completed: its delay variation against the previous group. */
static void
on_group (OctoGcc *g, const Group *prev, const Group *cur)
{
  gdouble send_delta = ms (cur->last_send - prev->last_send);
  gdouble arrival_delta = ms ((gint64) cur->last_arrival -
      (gint64) prev->last_arrival);
  guint slot;

  if (g->trend_origin == OCTO_TIME_NONE)
    g->trend_origin = cur->last_arrival;
  g->num_deltas = MIN (g->num_deltas + 1, 1000u);
  g->accumulated += arrival_delta - send_delta;
  g->smoothed = TREND_SMOOTHING * g->smoothed +
      (1 - TREND_SMOOTHING) * g->accumulated;
  slot = (g->hist_head + g->hist_len) % TREND_WINDOW;
  if (g->hist_len == TREND_WINDOW) {
    slot = g->hist_head;
    g->hist_head = (g->hist_head + 1) % TREND_WINDOW;
  } else {
    g->hist_len++;
  }
  g->hist_x[slot] = ms (cur->last_arrival - g->trend_origin);
  g->hist_y[slot] = g->smoothed;
  if (g->hist_len == TREND_WINDOW)
    g->trend = trend_slope (g);
  detect (g, send_delta, cur->last_arrival);
}

static void
record_arrival (OctoGcc *g, OctoTime arrival, guint32 bytes)
{
  guint slot = (g->rx_head + g->rx_len) % RATE_HISTORY;

  if (g->rx_len == RATE_HISTORY) {
    slot = g->rx_head;
    g->rx_head = (g->rx_head + 1) % RATE_HISTORY;
  } else {
    g->rx_len++;
  }
  g->rx_time[slot] = arrival;
  g->rx_bytes[slot] = bytes;
}

/* Bits/s received over the RATE_WINDOW before the newest arrival, or over
 * the arrivals known if they span less; 0 if too little is known. */
static gdouble
received_rate (const OctoGcc *g)
{
  OctoTime newest, start, first = OCTO_TIME_NONE;
  guint64 bytes = 0;

  if (g->rx_len < 2)
    return 0;
  newest = g->rx_time[(g->rx_head + g->rx_len - 1) % RATE_HISTORY];
  start = newest > RATE_WINDOW ? newest - RATE_WINDOW : 0;
  for (guint i = 0; i < g->rx_len; i++) {
    guint slot = (g->rx_head + i) % RATE_HISTORY;
    if (g->rx_time[slot] <= start)
      continue;
    /* the first arrival opens the span; its bytes came before it */
    if (first == OCTO_TIME_NONE)
      first = g->rx_time[slot];
    else
      bytes += g->rx_bytes[slot];
  }
  if (first == OCTO_TIME_NONE || newest <= first)
    return 0;
  return bytes * 8.0 * OCTO_SECOND / (newest - first);
}

/* GCC's pre-filter (draft-ietf-rmcat-gcc §5.2; libwebrtc's
 * InterArrival::BelongsToBurst, rtpgccbwe likewise): a packet that arrives
 * within BURST_GAP of the group's last one and sooner than it was sent
 * after it belongs to the group, up to BURST_MAX of arrivals.  A link that
 * delivers in bursts (a cellular scheduler's grants) otherwise reads as
 * delay growing and shrinking from group to group. */
static gboolean
in_burst (const Group *group, OctoTime send_time, OctoTime arrival_time)
{
  gint64 arrival_delta = (gint64) arrival_time - (gint64) group->last_arrival;
  gint64 send_delta = (gint64) send_time - (gint64) group->last_send;

  return arrival_delta <= (gint64) BURST_GAP && arrival_delta - send_delta < 0 &&
      (gint64) arrival_time - (gint64) group->first_arrival < (gint64) BURST_MAX;
}

void
octo_gcc_on_packet (OctoGcc *g, OctoTime send_time, guint32 bytes,
    OctoTime arrival_time)
{
  g->batch_packets++;
  if (arrival_time == OCTO_TIME_NONE) {
    g->batch_lost++;
    return;
  }
  record_arrival (g, arrival_time, bytes);
  if (!g->current.valid) {
    g->current = (Group) { send_time, send_time, arrival_time, arrival_time, TRUE };
    return;
  }
  if (send_time < g->current.first_send)
    return;                     /* reordered: ignored, as libwebrtc does */
  if (send_time - g->current.first_send < GROUP_SPAN ||
      in_burst (&g->current, send_time, arrival_time)) {
    g->current.last_send = MAX (g->current.last_send, send_time);
    g->current.last_arrival = MAX (g->current.last_arrival, arrival_time);
    return;
  }
  if (g->previous.valid)
    on_group (g, &g->previous, &g->current);
  g->previous = g->current;
  g->current = (Group) { send_time, send_time, arrival_time, arrival_time, TRUE };
}

static void
update_capacity (OctoGcc *g, gdouble rx_kbps)
{
  gdouble alpha = 0.05, norm, err;

  if (!g->capacity_known) {
    g->capacity_avg = rx_kbps;
    g->capacity_known = TRUE;
  } else {
    g->capacity_avg = (1 - alpha) * g->capacity_avg + alpha * rx_kbps;
  }
  norm = MAX (g->capacity_avg, 1.0);
  err = g->capacity_avg - rx_kbps;
  g->capacity_var = CLAMP ((1 - alpha) * g->capacity_var +
      alpha * err * err / norm, 0.4, 2.5);
}

static void
aimd (OctoGcc *g, OctoTime now, OctoTime rtt)
{
  gdouble rx = received_rate (g);
  gdouble elapsed = g->last_change == OCTO_TIME_NONE ? 0 :
      MIN ((gdouble) (now - g->last_change) / OCTO_SECOND, 1.0);

  switch (g->usage) {
    case OCTO_GCC_OVERUSE:
      g->state = OCTO_GCC_DECREASE;
      break;
    case OCTO_GCC_UNDERUSE:
      g->state = OCTO_GCC_HOLD;
      break;
    case OCTO_GCC_NORMAL:
      if (g->state == OCTO_GCC_HOLD)
        g->state = OCTO_GCC_INCREASE;
      break;
  }

  if (g->state == OCTO_GCC_INCREASE) {
    gdouble rx_kbps = rx / 1000, sigma = sqrt (g->capacity_var *
        MAX (g->capacity_avg, 1.0));
    gdouble before = g->delay_rate;
    if (g->capacity_known && rx_kbps > g->capacity_avg + 3 * sigma)
      g->capacity_known = FALSE;        /* the link got faster: search again */
    if (g->capacity_known) {
      /* near the last congestion point: about one packet per response time */
      gdouble bits_per_frame = g->delay_rate / 30;
      gdouble packets = MAX (ceil (bits_per_frame / (1200 * 8)), 1.0);
      gdouble response_s = (gdouble) rtt / OCTO_SECOND + 0.1;
      g->delay_rate += MAX (bits_per_frame / packets / response_s, 4000.0)
          * elapsed;
    } else {
      g->delay_rate *= pow (1.08, elapsed);
    }
    /* never increase far beyond what gets through; never decrease for it */
    if (rx > 0 && g->delay_rate > 1.5 * rx + 10000)
      g->delay_rate = MAX (before, 1.5 * rx + 10000);
  } else if (g->state == OCTO_GCC_DECREASE) {
    if (rx > 0) {
      g->delay_rate = MIN (g->delay_rate, BETA * rx);
      update_capacity (g, rx / 1000);
    }
    g->state = OCTO_GCC_HOLD;
  }
  g->last_change = now;
}

static void
loss_control (OctoGcc *g)
{
  gdouble loss;

  if (g->batch_packets == 0)
    return;
  loss = (gdouble) g->batch_lost / g->batch_packets;
  if (loss > 0.10)
    g->loss_rate *= 1 - 0.5 * loss;
  else if (loss < 0.02)
    g->loss_rate *= 1.05;
  /* the loss-based rate never runs far ahead of the delay-based one */
  g->loss_rate = MIN (g->loss_rate, 2 * g->delay_rate);
  g->batch_packets = g->batch_lost = 0;
}

void
octo_gcc_on_feedback (OctoGcc *g, OctoTime now, OctoTime rtt)
{
  aimd (g, now, rtt);
  loss_control (g);
  g->delay_rate = CLAMP (g->delay_rate, (gdouble) g->config.min_bps,
      (gdouble) g->config.max_bps);
  g->loss_rate = CLAMP (g->loss_rate, (gdouble) g->config.min_bps,
      (gdouble) g->config.max_bps);
}

guint64
octo_gcc_probe_rate (const OctoTime *send, const OctoTime *arrival,
    const guint32 *bytes, guint n)
{
  OctoTime send_first = OCTO_TIME_NONE, send_last = 0;
  OctoTime rx_first = OCTO_TIME_NONE, rx_last = 0;
  guint64 send_bytes = 0, rx_bytes = 0, last_sent_bytes = 0, first_rx_bytes = 0;
  guint received = 0;
  gdouble send_rate, rx_rate;

  for (guint i = 0; i < n; i++) {
    send_first = MIN (send_first, send[i]);
    if (send[i] >= send_last) {
      send_last = send[i];
      last_sent_bytes = bytes[i];
    }
    send_bytes += bytes[i];
    if (arrival[i] == OCTO_TIME_NONE)
      continue;
    received++;
    if (arrival[i] < rx_first) {
      rx_first = arrival[i];
      first_rx_bytes = bytes[i];
    }
    rx_last = MAX (rx_last, arrival[i]);
    rx_bytes += bytes[i];
  }
  if (received < 4 || send_last <= send_first || rx_last <= rx_first)
    return 0;
  /* the last packet sent and the first received bound the intervals */
  send_rate = (send_bytes - last_sent_bytes) * 8.0 * OCTO_SECOND /
      (send_last - send_first);
  rx_rate = (rx_bytes - first_rx_bytes) * 8.0 * OCTO_SECOND /
      (rx_last - rx_first);
  if (rx_rate < 0.9 * send_rate)
    return (guint64) (0.95 * rx_rate);
  return (guint64) MIN (send_rate, rx_rate);
}

void
octo_gcc_on_probe (OctoGcc *g, guint64 bps)
{
  if (bps <= g->delay_rate)
    return;
  g->delay_rate = MIN ((gdouble) bps, (gdouble) g->config.max_bps);
  g->loss_rate = MAX (g->loss_rate, g->delay_rate);
  g->capacity_known = FALSE;
  g->state = OCTO_GCC_HOLD;
}

guint64
octo_gcc_target_bps (const OctoGcc *g)
{
  return (guint64) MIN (g->delay_rate, g->loss_rate);
}

OctoGccUsage
octo_gcc_usage (const OctoGcc *g)
{
  return g->usage;
}

OctoGccRateState
octo_gcc_rate_state (const OctoGcc *g)
{
  return g->state;
}

gdouble
octo_gcc_trend (const OctoGcc *g)
{
  return g->modified_trend;
}

gdouble
octo_gcc_threshold (const OctoGcc *g)
{
  return g->threshold;
}

guint64
octo_gcc_pacing_bps (guint64 target_bps, guint64 queued_bytes)
{
  guint64 paced = (guint64) (target_bps * OCTO_GCC_PACING_FACTOR);
  guint64 drain = queued_bytes * 8 * OCTO_SECOND / OCTO_GCC_PACER_QUEUE_LIMIT;

  return MAX (paced, drain);
}
