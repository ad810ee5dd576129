/* The queue-discipline front end: spec parsing, argument checking in one
 * place, and the counters every discipline shares. */
#include "octo-qdisc-private.h"

#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (octo-qdisc-error-quark, octo_qdisc_error)

static const OctoQdiscOps *const all_ops[] = {
  &octo_qdisc_octopus_ops,
  &octo_qdisc_droptail_ops,
  &octo_qdisc_drophead_ops,
  &octo_qdisc_codel_ops,
  &octo_qdisc_pie_ops,
  &octo_qdisc_bode_ops,
  &octo_qdisc_pdrop_ops,
  &octo_qdisc_quco_ops,
  NULL,
};

const OctoQdiscOps *const *
octo_qdisc_list (void)
{
  return all_ops;
}

const gchar *
octo_qdisc_ops_name (const OctoQdiscOps *ops)
{
  return ops->name;
}

const gchar *
octo_qdisc_ops_usage (const OctoQdiscOps *ops)
{
  return ops->usage;
}

const gchar *
octo_qdisc_ops_summary (const OctoQdiscOps *ops)
{
  return ops->summary;
}

void
octo_qdisc_env_init (OctoQdiscEnv *env)
{
  *env = (OctoQdiscEnv) { .limit_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES,
    .seed = 1 };
}

static const OctoQdiscOps *
find_ops (const gchar *name)
{
  for (guint i = 0; all_ops[i]; i++)
    if (strcmp (all_ops[i]->name, name) == 0)
      return all_ops[i];
  return NULL;
}

static gchar *
expected_names (void)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; all_ops[i]; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", all_ops[i]->name);
  return g_string_free (s, FALSE);
}

static gchar *
expected_keys (const OctoQdiscOps *ops)
{
  GString *s = g_string_new ("limit");
  for (guint i = 0; ops->keys[i]; i++)
    g_string_append_printf (s, ", %s", ops->keys[i]);
  return g_string_free (s, FALSE);
}

static gboolean
key_known (const OctoQdiscOps *ops, const gchar *key)
{
  if (strcmp (key, "limit") == 0)
    return TRUE;
  for (guint i = 0; ops->keys[i]; i++)
    if (strcmp (ops->keys[i], key) == 0)
      return TRUE;
  return FALSE;
}

/* Splits "k=v,k=v" into @args, rejecting unknown, repeated and empty keys. */
static gboolean
split_args (const OctoQdiscOps *ops, const gchar *text, OctoQdiscArgs *args,
    GError **error)
{
  gchar **items = g_strsplit (text ? text : "", ",", -1);
  guint n = g_strv_length (items);

  args->discipline = ops->name;
  args->keys = g_new0 (gchar *, n + 1);
  args->values = g_new0 (gchar *, n + 1);
  args->n = 0;
  for (guint i = 0; i < n; i++) {
    const gchar *eq = strchr (items[i], '=');
    if (items[i][0] == '\0' && n == 1)
      break;
    if (eq == NULL || eq == items[i]) {
      g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
          "%s: argument '%s' is not key=value", ops->name, items[i]);
      goto fail;
    }
    gchar *key = g_strndup (items[i], eq - items[i]);
    if (!key_known (ops, key)) {
      gchar *keys = expected_keys (ops);
      g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_UNKNOWN_ARGUMENT,
          "%s: unknown argument '%s' (expected %s)", ops->name, key, keys);
      g_free (keys);
      g_free (key);
      goto fail;
    }
    for (guint j = 0; j < args->n; j++) {
      if (strcmp (args->keys[j], key) == 0) {
        g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
            "%s: argument '%s' given twice", ops->name, key);
        g_free (key);
        goto fail;
      }
    }
    args->keys[args->n] = key;
    args->values[args->n] = g_strdup (eq + 1);
    args->n++;
  }
  g_strfreev (items);
  return TRUE;

fail:
  g_strfreev (items);
  return FALSE;
}

OctoQdisc *
octo_qdisc_new (const gchar *spec, const OctoQdiscEnv *env, GError **error)
{
  const gchar *colon = strchr (spec, ':');
  gchar *name = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  const OctoQdiscOps *ops = find_ops (name);
  OctoQdiscArgs args = { 0 };
  OctoQdisc *qdisc = NULL;
  guint64 limit = env->limit_bytes;

  if (ops == NULL) {
    gchar *names = expected_names ();
    g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_UNKNOWN_NAME,
        "unknown queue discipline '%s' (expected one of %s)", name, names);
    g_free (names);
    goto out;
  }
  if (!split_args (ops, colon ? colon + 1 : NULL, &args, error))
    goto out;
  if (!octo_qdisc_arg_bytes (&args, "limit", &limit, error))
    goto out;
  if (limit == 0) {
    g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
        "%s: limit must be > 0 bytes", ops->name);
    goto out;
  }
  if (limit > OCTO_QDISC_MAX_LIMIT_BYTES) {
    g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
        "%s: limit %" G_GUINT64_FORMAT " bytes is over the maximum of %"
        G_GUINT64_FORMAT " bytes (1 GiB)", ops->name, limit,
        OCTO_QDISC_MAX_LIMIT_BYTES);
    goto out;
  }
  qdisc = ops->create (env, limit, &args, error);
  if (qdisc) {
    qdisc->ops = ops;
    qdisc->env = *env;
    qdisc->limit_bytes = limit;
    qdisc->limit_packets = octo_qdisc_packet_limit (limit);
  }

out:
  g_strfreev (args.keys);
  g_strfreev (args.values);
  g_free (name);
  return qdisc;
}

void
octo_qdisc_free (OctoQdisc *qdisc)
{
  if (qdisc)
    qdisc->ops->destroy (qdisc);
}

const gchar *
octo_qdisc_name (const OctoQdisc *qdisc)
{
  return qdisc->ops->name;
}

guint64
octo_qdisc_limit_bytes (const OctoQdisc *qdisc)
{
  return qdisc->limit_bytes;
}

guint32
octo_qdisc_limit_packets (const OctoQdisc *qdisc)
{
  return qdisc->limit_packets;
}

gboolean
octo_qdisc_enqueue (OctoQdisc *qdisc, OctoPacket *packet, guint8 *payload,
    gsize *payload_len, OctoTime now)
{
  qdisc->stats.packets_in++;
  qdisc->stats.bytes_in += packet->size;
  return qdisc->ops->enqueue (qdisc, packet, payload_len ? payload : NULL,
      payload_len, now);
}

const OctoPacket *
octo_qdisc_peek (OctoQdisc *qdisc, OctoTime now)
{
  return qdisc->ops->peek (qdisc, now);
}

gboolean
octo_qdisc_dequeue (OctoQdisc *qdisc, OctoTime now, OctoPacket *out)
{
  if (!qdisc->ops->dequeue (qdisc, now, out))
    return FALSE;
  qdisc->stats.packets_out++;
  qdisc->stats.bytes_out += out->size;
  return TRUE;
}

guint64
octo_qdisc_queued_bytes (OctoQdisc *qdisc)
{
  return qdisc->ops->queued_bytes (qdisc);
}

guint32
octo_qdisc_queued_packets (OctoQdisc *qdisc)
{
  return qdisc->ops->queued_packets (qdisc);
}

const OctoQdiscStats *
octo_qdisc_get_stats (const OctoQdisc *qdisc)
{
  return &qdisc->stats;
}

void
octo_qdisc_drop (OctoQdisc *qdisc, const OctoPacket *packet,
    OctoDropReason reason)
{
  qdisc->stats.packets_dropped[reason]++;
  qdisc->stats.bytes_dropped[reason] += packet->size;
  if (qdisc->env.drop_func)
    qdisc->env.drop_func (packet, reason, qdisc->env.user_data);
}

void
octo_qdisc_trimmed (OctoQdisc *qdisc, const OctoPacket *cut, guint cut_chunks)
{
  qdisc->stats.packets_trimmed++;
  qdisc->stats.bytes_trimmed += cut->size;
  qdisc->stats.chunks_trimmed += cut_chunks;
  if (qdisc->env.drop_func)
    qdisc->env.drop_func (cut, OCTO_DROP_TRIM, qdisc->env.user_data);
}

static const gchar *
find_arg (const OctoQdiscArgs *args, const gchar *key)
{
  for (guint i = 0; i < args->n; i++)
    if (strcmp (args->keys[i], key) == 0)
      return args->values[i];
  return NULL;
}

static gboolean
bad_value (const OctoQdiscArgs *args, const gchar *key, const gchar *value,
    const gchar *expected, GError **error)
{
  g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
      "%s: bad value '%s' for %s (expected %s)", args->discipline, value, key,
      expected);
  return FALSE;
}

/* A decimal number followed by one of @units; FALSE on anything else. */
static gboolean
parse_scaled (const gchar *value, const gchar *const *units,
    const guint64 *scales, guint64 *out)
{
  gchar *end;
  gdouble v;

  if (!g_ascii_isdigit (value[0]))
    return FALSE;
  v = g_ascii_strtod (value, &end);
  for (guint i = 0; units[i]; i++) {
    if (strcmp (end, units[i]) == 0) {
      gdouble scaled = v * (gdouble) scales[i];
      if (scaled > 1e18)
        return FALSE;
      *out = (guint64) (scaled + 0.5);
      return TRUE;
    }
  }
  return FALSE;
}

gboolean
octo_qdisc_arg_time (const OctoQdiscArgs *args, const gchar *key,
    OctoTime *value, GError **error)
{
  static const gchar *const units[] = { "", "ms", "us", "s", "ns", NULL };
  static const guint64 scales[] = { OCTO_MSECOND, OCTO_MSECOND, OCTO_USECOND,
    OCTO_SECOND, OCTO_NSECOND };
  const gchar *text = find_arg (args, key);

  if (text && !parse_scaled (text, units, scales, value))
    return bad_value (args, key, text, "a time like 5ms, 500us or 1s", error);
  return TRUE;
}

gboolean
octo_qdisc_arg_bytes (const OctoQdiscArgs *args, const gchar *key,
    guint64 *value, GError **error)
{
  static const gchar *const units[] = { "", "B", "KB", "kB", "KiB", "MB",
    "MiB", NULL };
  static const guint64 scales[] = { 1, 1, 1000, 1000, 1024, 1000000,
    1048576 };
  const gchar *text = find_arg (args, key);

  if (text && !parse_scaled (text, units, scales, value))
    return bad_value (args, key, text, "a size like 375000, 375KB or 64KiB",
        error);
  return TRUE;
}

gboolean
octo_qdisc_arg_uint (const OctoQdiscArgs *args, const gchar *key, guint64 min,
    guint64 max, guint64 *value, GError **error)
{
  const gchar *text = find_arg (args, key);
  guint64 v;

  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, min, max, &v, NULL)) {
    gchar *expected = g_strdup_printf ("an integer in %" G_GUINT64_FORMAT
        "..%" G_GUINT64_FORMAT, min, max);
    bad_value (args, key, text, expected, error);
    g_free (expected);
    return FALSE;
  }
  *value = v;
  return TRUE;
}
