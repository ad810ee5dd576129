/* One simulated experiment: a case study's trace-playing app over one
 * scheme on one network trace, and its metrics. */
#pragma once

#include "octo-metrics.h"
#include "octo-trace-source.h"
#include "sim-scheme.h"

G_BEGIN_DECLS

/* After the last frame the world runs this long more, so what is in flight
 * arrives (shows after the end count; the last AoI sample is at the end). */
#define SIM_DRAIN (2 * OCTO_SECOND)

/* The papers' §7 scenarios (paper 001 §7.3-7.4, appendix D of 000). */
typedef enum {
  SIM_SCENARIO_SINGLE,          /* one stream, one bottleneck: §6 */
  /* a legacy 12 Mbit/s drop-tail link (the network trace is not used)
   * shared with a backlogged BBR flow */
  SIM_SCENARIO_COMPETING,
  /* a legacy 12 Mbit/s drop-tail link, then the traced cellular link with
   * the scheme's queue */
  SIM_SCENARIO_TWO_BOTTLENECKS,
  /* two streams of the scheme share the bottleneck queue */
  SIM_SCENARIO_TWO_STREAMS,
} SimScenario;

#define SIM_LEGACY_PACKETS_PER_MS 1     /* 12 Mbit/s */

typedef struct {
  guint case_id;                /* 1 framerate, 2 quality, 3 volumetric */
  const SimScheme *scheme;
  const gchar *down_trace;      /* paths */
  const gchar *up_trace;        /* NULL: unconstrained uplink */
  const gchar *video_trace;
  guint rtt_ms;
  guint duration_s;
  /* the capture span in ms when non-zero, instead of duration_s: a live
   * run's own, so that its last frames, which nothing newer follows into
   * the queues, end the simulated run too (bench/validate-live.py) */
  guint duration_ms;
  /* how long the links run on after the capture span, in ms, if drain_set
   * (else SIM_DRAIN): a live run's own, whose links stop that long after
   * its capture ended; at least encode_lag_ms, or frames captured at the
   * end would never be sent */
  gboolean drain_set;
  guint drain_ms;
  /* capture to submission: the live encoder's lag, which the video
   * trace's frames otherwise skip (0: a frame is sent as it is captured) */
  guint encode_lag_ms;
  guint32 seed;
  guint64 cross_bps;            /* constant-rate cross traffic; 0 = none */
  /* the app's slack on every tagged message if slack_set, else the
   * preset's (a zeroed config runs the presets as the apps do) */
  gboolean slack_set;
  guint slack_ms;
  SimScenario scenario;
  /* TWO_STREAMS: the second stream's video (NULL: the same) */
  const gchar *video_trace2;
} SimRunConfig;

typedef struct _SimResult SimResult;

struct _SimResult {
  guint n_frames;
  OctoFrameRecord *frames;
  OctoFrameOutcome *outcomes;
  guint *levels;                /* quality level / cloud top layer per frame */
  guint8 *temporal_layers;      /* per frame (case 1) */
  OctoMetricsSummary summary;
  gdouble utilization;          /* over the run, before the drain */
  guint64 capacity_bytes, delivered_bytes;
  /* of delivered_bytes, the sender's bandwidth probes, and the bytes of
   * messages delivered whole: utilization is the latter over the capacity
   * (octo_utilisation) */
  guint64 padding_delivered_bytes, whole_message_bytes;
  /* link bytes sent and delivered in the whole run including the drain
   * (drain_ms, or SIM_DRAIN) after the last frame; the bottleneck's
   * largest backlog */
  guint64 sent_link_bytes, delivered_link_bytes, max_queued_bytes;
  guint64 cross_sent_bytes, cross_delivered_bytes;
  /* packets dropped by reason, in the send buffer and in the network */
  guint64 sender_drops[OCTO_DROP_N_REASONS];
  guint64 network_drops[OCTO_DROP_N_REASONS];
  /* whole messages the send buffer dropped, by reason and priority */
  guint64 sender_message_drops[OCTO_DROP_N_REASONS][OCTO_N_PRIORITIES];
  guint64 messages_sent, messages_delivered;
  guint64 bytes_sent, bytes_delivered;  /* message payload bytes */
  /* link bytes of every other flow (a competing transfer, another
   * stream) that crossed the bottleneck before the drain */
  guint64 other_delivered_bytes;
  /* every 100 ms: capacity, the sender's estimate, pacing rate, window,
   * queues and the app's level (series.csv) */
  gchar *series_csv;
  SimResult *second;            /* TWO_STREAMS: the other stream's result */
};

/* Runs it; NULL with @error set if an input cannot be read or the scheme
 * does not model the case. */
SimResult *sim_run (const SimRunConfig *config, GError **error);
void sim_result_free (SimResult *result);

G_END_DECLS
