/* svc-encoder core: octopussvcenc's layer settings — defaults, the property
 * strings that override them, and the per-layer target rates. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SVC_CONFIG_MAX_LAYERS 3

typedef struct {
  guint num, den;
} SvcRatio;

/* Cumulative share of the target bitrate up to each layer: spatial
 * (paper section 6.2: B0 = 0.2 B, B1 = 0.5 B, B2 = B; two layers 0.4, 1)
 * or temporal (0.4, 0.6, 1 for three layers; 0.6, 1 for two). */
void svc_config_default_spatial_fractions (guint n_layers, gdouble *fractions);
void svc_config_default_temporal_fractions (guint n_layers,
    gdouble *fractions);

/* Spatial scaling of each layer relative to the top: 1/4, 1/2, 1 (three
 * layers), 1/2, 1 (two), 1 (one). */
void svc_config_default_scaling (guint n_layers, SvcRatio *scaling);

/* "0.2,0.5,1": @n_layers increasing cumulative fractions in (0, 1] ending
 * at 1.  Errors name the offending item. */
gboolean svc_config_parse_fractions (const gchar *text, guint n_layers,
    gdouble *fractions, GError **error);

/* "1/4,1/2,1": @n_layers non-decreasing ratios in (0, 1] ending at 1. */
gboolean svc_config_parse_scaling (const gchar *text, guint n_layers,
    SvcRatio *scaling, GError **error);

/* The cumulative target of each layer, bits/s. */
void svc_config_layer_bitrates (guint64 bitrate, const gdouble *fractions,
    guint n_layers, guint64 *cumulative_bps);

/* The highest media rate whose link rate (octo_preset_link_rate: packets of
 * @payload bytes plus @overhead bytes of headers) is at most @link_bps: the
 * encoder's target for a bandwidth estimate, which is a link rate. */
guint64 svc_config_media_rate_for_link (guint64 link_bps, guint payload,
    guint overhead);

/* A target bitrate that rises only at GoP starts (a request to raise it
 * waits for the next one) and falls at the next frame: a layer at a higher
 * rate than the path carries queues, and the layer a queue may not drop
 * (the base) then waits behind itself until the GoP ends. */
typedef struct {
  guint64 current;
  guint64 pending;
  gboolean has_pending;
} SvcRatePlan;

void svc_rate_plan_init (SvcRatePlan *plan, guint64 bitrate);
void svc_rate_plan_request (SvcRatePlan *plan, guint64 bitrate);

/* Called for every frame before encoding it; applies a pending request
 * (a raise only at a GoP start).  Returns TRUE when the current rate
 * changed. */
gboolean svc_rate_plan_frame (SvcRatePlan *plan, gboolean gop_start);

G_END_DECLS
