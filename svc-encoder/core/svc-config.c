#include "svc-config.h"

#include <errno.h>
#include <stdlib.h>

#include "octo-preset.h"

#define SVC_CONFIG_ERROR g_quark_from_static_string ("svc-config-error")

void
svc_config_default_spatial_fractions (guint n, gdouble *fractions)
{
  static const gdouble table[3][3] = { {1}, {0.4, 1}, {0.2, 0.5, 1} };

  for (guint k = 0; k < n; k++)
    fractions[k] = table[n - 1][k];
}

void
svc_config_default_temporal_fractions (guint n, gdouble *fractions)
{
  static const gdouble table[3][3] = { {1}, {0.6, 1}, {0.4, 0.6, 1} };

  for (guint k = 0; k < n; k++)
    fractions[k] = table[n - 1][k];
}

void
svc_config_default_scaling (guint n, SvcRatio *scaling)
{
  for (guint k = 0; k < n; k++)
    scaling[k] = (SvcRatio) { 1, 1u << (n - 1 - k) };
}

static gchar **
split_items (const gchar *text, guint n_layers, GError **error)
{
  gchar **items = g_strsplit (text ? text : "", ",", -1);

  if (g_strv_length (items) != n_layers) {
    g_set_error (error, SVC_CONFIG_ERROR, 0,
        "'%s': expected %u comma-separated values, one per layer",
        text ? text : "", n_layers);
    g_strfreev (items);
    return NULL;
  }
  return items;
}

gboolean
svc_config_parse_fractions (const gchar *text, guint n_layers,
    gdouble *fractions, GError **error)
{
  gchar **items = split_items (text, n_layers, error);

  if (!items)
    return FALSE;
  for (guint k = 0; k < n_layers; k++) {
    gchar *end = NULL;
    gdouble v = g_ascii_strtod (items[k], &end);
    gdouble prev = k == 0 ? 0 : fractions[k - 1];

    if (end == items[k] || *end || !(v > prev) || v > 1
        || (k == n_layers - 1 && v != 1)) {
      g_set_error (error, SVC_CONFIG_ERROR, 0,
          "'%s': item %u ('%s') must be a number above %g and at most 1, "
          "and the last must be 1", text, k + 1, items[k], prev);
      g_strfreev (items);
      return FALSE;
    }
    fractions[k] = v;
  }
  g_strfreev (items);
  return TRUE;
}

static gboolean
parse_ratio (const gchar *item, SvcRatio *r)
{
  gchar *end = NULL;
  guint64 num, den = 1;

  errno = 0;
  num = g_ascii_strtoull (item, &end, 10);
  if (end == item || errno)
    return FALSE;
  if (*end == '/') {
    const gchar *den_start = end + 1;
    den = g_ascii_strtoull (den_start, &end, 10);
    if (end == den_start || errno)
      return FALSE;
  }
  if (*end || num == 0 || den == 0 || num > den || den > 16)
    return FALSE;
  r->num = (guint) num;
  r->den = (guint) den;
  return TRUE;
}

gboolean
svc_config_parse_scaling (const gchar *text, guint n_layers,
    SvcRatio *scaling, GError **error)
{
  gchar **items = split_items (text, n_layers, error);

  if (!items)
    return FALSE;
  for (guint k = 0; k < n_layers; k++) {
    if (!parse_ratio (items[k], &scaling[k])
        || (k > 0 && (guint64) scaling[k].num * scaling[k - 1].den <
            (guint64) scaling[k - 1].num * scaling[k].den)
        || (k == n_layers - 1 && scaling[k].num != scaling[k].den)) {
      g_set_error (error, SVC_CONFIG_ERROR, 0,
          "'%s': item %u ('%s') must be a ratio n/d with 0 < n <= d <= 16, "
          "not below the previous one, and the last must be 1", text, k + 1,
          items[k]);
      g_strfreev (items);
      return FALSE;
    }
  }
  g_strfreev (items);
  return TRUE;
}

void
svc_config_layer_bitrates (guint64 bitrate, const gdouble *fractions,
    guint n_layers, guint64 *cumulative_bps)
{
  for (guint k = 0; k < n_layers; k++)
    cumulative_bps[k] = (guint64) (bitrate * fractions[k] + 0.5);
}

guint64
svc_config_media_rate_for_link (guint64 link_bps, guint payload,
    guint overhead)
{
  guint64 lo = 0, hi = link_bps;

  /* the link rate grows with the media rate: bisect on the core's rule */
  while (lo < hi) {
    guint64 mid = lo + (hi - lo + 1) / 2;
    if (octo_preset_link_rate (mid, payload, overhead) <= link_bps)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

void
svc_rate_plan_init (SvcRatePlan *plan, guint64 bitrate)
{
  plan->current = bitrate;
  plan->pending = bitrate;
  plan->has_pending = FALSE;
}

void
svc_rate_plan_request (SvcRatePlan *plan, guint64 bitrate)
{
  plan->pending = bitrate;
  plan->has_pending = bitrate != plan->current;
}

gboolean
svc_rate_plan_frame (SvcRatePlan *plan, gboolean gop_start)
{
  if (!plan->has_pending || (!gop_start && plan->pending > plan->current))
    return FALSE;
  plan->current = plan->pending;
  plan->has_pending = FALSE;
  return TRUE;
}
