/* gst-octopus point clouds: the SSIM table. */
#include "pc-ssim-table.h"

#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (octo-pc-ssim-table-error-quark, octo_pc_ssim_table_error)

struct _OctoPcSsimTable {
  GArray *distances, *densities;        /* ascending */
  double *ssim;                 /* [distance index * n_densities + density] */
};

typedef struct {
  double distance, density, ssim;
} Row;

static gint
by_distance_density (gconstpointer a, gconstpointer b)
{
  const Row *x = a, *y = b;
  if (x->distance != y->distance)
    return x->distance < y->distance ? -1 : 1;
  return x->density < y->density ? -1 : x->density > y->density;
}

static void
add_unique (GArray *a, double v)
{
  for (guint i = 0; i < a->len; i++)
    if (g_array_index (a, double, i) == v)
      return;
  g_array_append_val (a, v);
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

OctoPcSsimTable *
octo_pc_ssim_table_parse (const gchar *text, const gchar *name,
    GError **error)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));
  OctoPcSsimTable *t = NULL;
  guint nd, nr;

  if (!lines[0] || !g_str_has_prefix (g_strstrip (lines[0]),
          "distance,density,ssim")) {
    g_set_error (error, OCTO_PC_SSIM_TABLE_ERROR, 0,
        "%s:1: expected the header 'distance,density,ssim'", name);
    goto out;
  }
  for (guint i = 1; lines[i]; i++) {
    Row r;
    gchar *s = g_strstrip (lines[i]), *end;
    if (!*s)
      continue;
    r.distance = g_ascii_strtod (s, &end);
    if (*end != ',' || !(r.distance > 0))
      goto bad_row;
    r.density = g_ascii_strtod (end + 1, &end);
    if (*end != ',' || !(r.density > 0 && r.density <= 1))
      goto bad_row;
    r.ssim = g_ascii_strtod (end + 1, &end);
    if (*end != '\0' || !(r.ssim >= -1 && r.ssim <= 1))
      goto bad_row;
    g_array_append_val (rows, r);
    continue;
  bad_row:
    g_set_error (error, OCTO_PC_SSIM_TABLE_ERROR, 0, "%s:%u: expected "
        "distance > 0, 0 < density <= 1, -1 <= ssim <= 1", name, i + 1);
    goto out;
  }
  t = g_new0 (OctoPcSsimTable, 1);
  t->distances = g_array_new (FALSE, FALSE, sizeof (double));
  t->densities = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < rows->len; i++) {
    add_unique (t->distances, g_array_index (rows, Row, i).distance);
    add_unique (t->densities, g_array_index (rows, Row, i).density);
  }
  g_array_sort (t->distances, cmp_double);
  g_array_sort (t->densities, cmp_double);
  g_array_sort (rows, by_distance_density);
  nd = t->densities->len;
  nr = t->distances->len;
  if (rows->len == 0 || rows->len != nd * nr) {
    g_set_error (error, OCTO_PC_SSIM_TABLE_ERROR, 0, "%s:0: %u rows do "
        "not form a full grid of %u distances x %u densities", name,
        rows->len, nr, nd);
    octo_pc_ssim_table_free (t);
    t = NULL;
    goto out;
  }
  t->ssim = g_new (double, rows->len);
  for (guint i = 0; i < rows->len; i++) {
    const Row *r = &g_array_index (rows, Row, i);
    if (r->distance != g_array_index (t->distances, double, i / nd)
        || r->density != g_array_index (t->densities, double, i % nd)) {
      g_set_error (error, OCTO_PC_SSIM_TABLE_ERROR, 0, "%s:0: rows do not "
          "form a full grid (distance %g lacks density %g)", name,
          g_array_index (t->distances, double, i / nd),
          g_array_index (t->densities, double, i % nd));
      octo_pc_ssim_table_free (t);
      t = NULL;
      goto out;
    }
    t->ssim[i] = r->ssim;
  }
out:
  g_array_unref (rows);
  g_strfreev (lines);
  return t;
}

OctoPcSsimTable *
octo_pc_ssim_table_load (const gchar *path, GError **error)
{
  gchar *text;
  OctoPcSsimTable *t;

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  t = octo_pc_ssim_table_parse (text, path, error);
  g_free (text);
  return t;
}

void
octo_pc_ssim_table_free (OctoPcSsimTable *t)
{
  if (!t)
    return;
  g_array_unref (t->distances);
  g_array_unref (t->densities);
  g_free (t->ssim);
  g_free (t);
}

/* Index i and weight w of @v between entries i and i+1 of ascending @a
 * (clamped). */
static void
bracket (const GArray *a, double v, guint *i, double *w)
{
  const double *x = (const double *) a->data;
  guint n = a->len;
  if (n == 1 || v <= x[0]) {
    *i = 0;
    *w = 0.0;
    return;
  }
  if (v >= x[n - 1]) {
    *i = n - 2;
    *w = 1.0;
    return;
  }
  *i = 0;
  while (v > x[*i + 1])
    (*i)++;
  *w = (v - x[*i]) / (x[*i + 1] - x[*i]);
}

/* SSIM at distance row @r for @density (interpolated; towards 0 below the
 * smallest density). */
static double
at_row (const OctoPcSsimTable *t, guint r, double density)
{
  const double *row = t->ssim + r * t->densities->len;
  double d0 = g_array_index (t->densities, double, 0);
  guint i;
  double w;
  if (density < d0)
    return row[0] * density / d0;
  if (t->densities->len == 1)
    return row[0];
  bracket (t->densities, density, &i, &w);
  return (1 - w) * row[i] + w * row[i + 1];
}

double
octo_pc_ssim_table_lookup (const OctoPcSsimTable *t, double density,
    double distance)
{
  guint i;
  double w;

  if (density <= 0)
    return 0.0;
  if (t->distances->len == 1)
    return at_row (t, 0, density);
  bracket (t->distances, distance, &i, &w);
  return (1 - w) * at_row (t, i, density) + w * at_row (t, i + 1, density);
}
