/* gst-octopus point clouds: the PLY reader and writer. */
#include "pc-ply.h"

#include <errno.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (octo-pc-ply-error-quark, octo_pc_ply_error)

#define MAX_ELEMENTS 16
#define MAX_PROPERTIES 32
#define MAX_TOKEN 64

typedef enum { FMT_ASCII, FMT_LE, FMT_BE } Format;

typedef enum {
  T_NONE, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64
} ScalarType;

typedef enum { ROLE_NONE, ROLE_X, ROLE_Y, ROLE_Z, ROLE_R, ROLE_G, ROLE_B }
    Role;

typedef struct {
  ScalarType type;
  ScalarType list_count;        /* T_NONE unless a list */
  Role role;
} Property;

typedef struct {
  gboolean is_vertex;
  guint64 count;
  Property props[MAX_PROPERTIES];
  guint n_props;
  guint line;                   /* of its 'element' line */
} Element;

typedef struct {
  const guint8 *data;
  gsize len;
  gsize pos;
  guint line;
  Format format;
  Element elements[MAX_ELEMENTS];
  guint n_elements;
} Parser;

static const struct {
  const gchar *name;
  ScalarType type;
} type_names[] = {
  {"char", T_I8}, {"int8", T_I8}, {"uchar", T_U8}, {"uint8", T_U8},
  {"short", T_I16}, {"int16", T_I16}, {"ushort", T_U16}, {"uint16", T_U16},
  {"int", T_I32}, {"int32", T_I32}, {"uint", T_U32}, {"uint32", T_U32},
  {"float", T_F32}, {"float32", T_F32}, {"double", T_F64},
  {"float64", T_F64},
};

static const guint type_size[] = { 0, 1, 1, 2, 2, 4, 4, 4, 8 };

static ScalarType
parse_type (const gchar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (strcmp (type_names[i].name, name) == 0)
      return type_names[i].type;
  return T_NONE;
}

static Role
parse_role (const gchar *name)
{
  static const gchar *names[] = { "x", "y", "z", "red", "green", "blue" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (names[i], name) == 0)
      return (Role) (ROLE_X + i);
  return ROLE_NONE;
}

static gboolean
fail_line (GError **error, guint line, const gchar *fmt, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
fail_line (GError **error, guint line, const gchar *fmt, ...)
{
  va_list ap;
  gchar *msg;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, OCTO_PC_PLY_ERROR, 0, "line %u: %s", line, msg);
  g_free (msg);
  return FALSE;
}

static gboolean
fail_offset (GError **error, gsize offset, const gchar *fmt, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
fail_offset (GError **error, gsize offset, const gchar *fmt, ...)
{
  va_list ap;
  gchar *msg;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, OCTO_PC_PLY_ERROR, 0, "byte offset %" G_GSIZE_FORMAT
      ": %s", offset, msg);
  g_free (msg);
  return FALSE;
}

/* The next line (without '\n' or "\r\n") as a new string, or NULL at the
 * end of the data. */
static gchar *
next_line (Parser *p)
{
  const guint8 *start, *nl;
  gsize n;

  /* checked first: empty data may come as a NULL pointer */
  if (p->pos >= p->len)
    return NULL;
  start = p->data + p->pos;
  nl = memchr (start, '\n', p->len - p->pos);
  n = nl ? (gsize) (nl - start) : p->len - p->pos;
  p->pos += nl ? n + 1 : n;
  p->line++;
  if (n > 0 && start[n - 1] == '\r')
    n--;
  return g_strndup ((const gchar *) start, n);
}

static gboolean
parse_header_line (Parser *p, gchar **tok, GError **error)
{
  guint n = g_strv_length (tok);
  Element *el;

  if (n == 0 || strcmp (tok[0], "comment") == 0
      || strcmp (tok[0], "obj_info") == 0)
    return TRUE;
  if (strcmp (tok[0], "format") == 0) {
    if (n != 3 || strcmp (tok[2], "1.0") != 0)
      return fail_line (error, p->line, "expected 'format <type> 1.0'");
    if (strcmp (tok[1], "ascii") == 0)
      p->format = FMT_ASCII;
    else if (strcmp (tok[1], "binary_little_endian") == 0)
      p->format = FMT_LE;
    else if (strcmp (tok[1], "binary_big_endian") == 0)
      p->format = FMT_BE;
    else
      return fail_line (error, p->line, "unknown format '%s'", tok[1]);
    return TRUE;
  }
  if (strcmp (tok[0], "element") == 0) {
    gchar *end;
    guint64 count;
    if (n != 3)
      return fail_line (error, p->line, "expected 'element <name> <count>'");
    if (p->n_elements == MAX_ELEMENTS)
      return fail_line (error, p->line, "more than %u elements",
          MAX_ELEMENTS);
    errno = 0;
    count = g_ascii_strtoull (tok[2], &end, 10);
    if (*end != '\0' || end == tok[2] || tok[2][0] == '-' || errno == ERANGE)
      return fail_line (error, p->line, "bad element count '%s'", tok[2]);
    el = &p->elements[p->n_elements++];
    el->is_vertex = strcmp (tok[1], "vertex") == 0;
    el->count = count;
    el->line = p->line;
    return TRUE;
  }
  if (strcmp (tok[0], "property") == 0) {
    Property *prop;
    if (p->n_elements == 0)
      return fail_line (error, p->line, "property before any element");
    el = &p->elements[p->n_elements - 1];
    if (el->n_props == MAX_PROPERTIES)
      return fail_line (error, p->line, "more than %u properties",
          MAX_PROPERTIES);
    prop = &el->props[el->n_props];
    memset (prop, 0, sizeof (*prop));
    if (n == 5 && strcmp (tok[1], "list") == 0) {
      prop->list_count = parse_type (tok[2]);
      prop->type = parse_type (tok[3]);
      if (prop->list_count == T_NONE || prop->list_count == T_F32
          || prop->list_count == T_F64 || prop->type == T_NONE)
        return fail_line (error, p->line, "bad list types '%s %s'", tok[2],
            tok[3]);
    } else if (n == 3) {
      prop->type = parse_type (tok[1]);
      if (prop->type == T_NONE)
        return fail_line (error, p->line, "unknown type '%s'", tok[1]);
      if (el->is_vertex)
        prop->role = parse_role (tok[2]);
    } else {
      return fail_line (error, p->line, "expected 'property <type> <name>' "
          "or 'property list <count type> <type> <name>'");
    }
    el->n_props++;
    return TRUE;
  }
  return fail_line (error, p->line, "unknown header keyword '%s'", tok[0]);
}

static gboolean
parse_header (Parser *p, GError **error)
{
  gchar *line = next_line (p);
  gboolean have_format = FALSE, ok = TRUE;

  if (!line || strcmp (line, "ply") != 0) {
    g_free (line);
    return fail_line (error, 1, "not a PLY file (no 'ply' magic)");
  }
  g_free (line);
  while (ok) {
    gchar **tok;
    line = next_line (p);
    if (!line)
      return fail_line (error, p->line, "header ends without 'end_header'");
    if (strcmp (g_strstrip (line), "end_header") == 0) {
      g_free (line);
      break;
    }
    tok = g_strsplit_set (line, " \t", -1);
    /* collapse runs of blanks: drop the empty tokens */
    {
      guint w = 0;
      for (guint r = 0; tok[r]; r++) {
        if (tok[r][0])
          tok[w++] = tok[r];
        else
          g_free (tok[r]);
      }
      tok[w] = NULL;
    }
    have_format |= tok[0] && strcmp (tok[0], "format") == 0;
    ok = parse_header_line (p, tok, error);
    g_strfreev (tok);
    g_free (line);
  }
  if (!ok)
    return FALSE;
  if (!have_format)
    return fail_line (error, p->line, "header has no 'format' line");
  /* entries of no property would take no bytes: their count, however
   * large, would not be bounded by the data */
  for (guint i = 0; i < p->n_elements; i++)
    if (p->elements[i].count > 0 && p->elements[i].n_props == 0)
      return fail_line (error, p->elements[i].line, "element has %"
          G_GUINT64_FORMAT " entries but no properties",
          p->elements[i].count);
  for (guint i = 0; i < p->n_elements; i++) {
    const Element *el = &p->elements[i];
    guint have = 0;
    if (!el->is_vertex)
      continue;
    for (guint j = 0; j < el->n_props; j++)
      if (el->props[j].list_count == T_NONE && el->props[j].role >= ROLE_X
          && el->props[j].role <= ROLE_Z)
        have |= 1u << (el->props[j].role - ROLE_X);
    if (have != 7)
      return fail_line (error, p->line, "vertex element lacks x, y or z");
    return TRUE;
  }
  return fail_line (error, p->line, "no 'vertex' element");
}

static void
store (OctoPcPoint *pt, const Property *prop, double v)
{
  switch (prop->role) {
    case ROLE_X: case ROLE_Y: case ROLE_Z:
      pt->xyz[prop->role - ROLE_X] = (float) v;
      break;
    case ROLE_R: case ROLE_G: case ROLE_B:
      if (prop->type == T_F32 || prop->type == T_F64)
        v *= 255.0;
      pt->rgb[prop->role - ROLE_R] = (guint8) CLAMP (v + 0.5, 0.0, 255.0);
      break;
    case ROLE_NONE:
      break;
  }
}

static void
init_point (OctoPcPoint *pt)
{
  memset (pt, 0, sizeof (*pt));
  memset (pt->rgb, OCTO_PC_PLY_DEFAULT_GREY, 3);
}

/* Reads one whitespace-separated number; FALSE at the end of the line. */
static gboolean
ascii_number (const gchar **s, double *v, gboolean *bad)
{
  gchar tok[MAX_TOKEN];
  gsize n = 0;
  gchar *end;

  while (**s == ' ' || **s == '\t')
    (*s)++;
  if (**s == '\0')
    return FALSE;
  while ((*s)[n] && (*s)[n] != ' ' && (*s)[n] != '\t') {
    if (n + 1 < sizeof (tok))
      tok[n] = (*s)[n];
    n++;
  }
  *s += n;
  if (n >= sizeof (tok)) {
    *bad = TRUE;
    return TRUE;
  }
  tok[n] = '\0';
  *v = g_ascii_strtod (tok, &end);
  *bad = *end != '\0' || !isfinite (*v);
  return TRUE;
}

static gboolean
parse_ascii_element (Parser *p, const Element *el, guint64 index,
    OctoPcPoint *pt, GError **error)
{
  gchar *line = next_line (p);
  const gchar *s = line;
  gboolean ok = TRUE, bad = FALSE;
  double v;

  if (!line)
    return fail_line (error, p->line + 1, "file ends at %s %" G_GUINT64_FORMAT
        " of %" G_GUINT64_FORMAT, el->is_vertex ? "vertex" : "element",
        index, el->count);
  for (guint j = 0; ok && j < el->n_props; j++) {
    const Property *prop = &el->props[j];
    guint64 items = 1;
    if (prop->list_count != T_NONE) {
      /* a list's length is an integer type's (int at most): a larger
       * value is not one, nor a guint64 to convert */
      if (!ascii_number (&s, &v, &bad) || bad || v < 0 || v != floor (v)
          || v > G_MAXUINT32) {
        ok = fail_line (error, p->line, "bad or missing list length");
        break;
      }
      items = (guint64) v;
    }
    for (guint64 k = 0; k < items; k++) {
      if (!ascii_number (&s, &v, &bad)) {
        ok = fail_line (error, p->line, "too few values (property %u of %u)",
            j + 1, el->n_props);
        break;
      }
      if (bad) {
        ok = fail_line (error, p->line, "not a finite number (property %u)",
            j + 1);
        break;
      }
      if (pt && prop->list_count == T_NONE)
        store (pt, prop, v);
    }
  }
  if (ok && ascii_number (&s, &v, &bad))
    ok = fail_line (error, p->line, "more values than the %u properties",
        el->n_props);
  g_free (line);
  return ok;
}

static double
binary_value (const Parser *p, ScalarType t, const guint8 *b)
{
  guint8 tmp[8];
  guint n = type_size[t];
  gboolean swap = (p->format == FMT_BE) != (G_BYTE_ORDER == G_BIG_ENDIAN);

  for (guint i = 0; i < n; i++)
    tmp[i] = swap ? b[n - 1 - i] : b[i];
  switch (t) {
    case T_I8: return (gint8) tmp[0];
    case T_U8: return tmp[0];
    case T_I16: { gint16 v; memcpy (&v, tmp, 2); return v; }
    case T_U16: { guint16 v; memcpy (&v, tmp, 2); return v; }
    case T_I32: { gint32 v; memcpy (&v, tmp, 4); return v; }
    case T_U32: { guint32 v; memcpy (&v, tmp, 4); return v; }
    case T_F32: { float v; memcpy (&v, tmp, 4); return v; }
    case T_F64: { double v; memcpy (&v, tmp, 8); return v; }
    case T_NONE: break;
  }
  return 0.0;
}

static gboolean
parse_binary_element (Parser *p, const Element *el, guint64 index,
    OctoPcPoint *pt, GError **error)
{
  for (guint j = 0; j < el->n_props; j++) {
    const Property *prop = &el->props[j];
    guint64 items = 1;
    if (prop->list_count != T_NONE) {
      double c;
      if (p->len - p->pos < type_size[prop->list_count])
        goto truncated;
      c = binary_value (p, prop->list_count, p->data + p->pos);
      if (c < 0)
        return fail_offset (error, p->pos, "negative list length");
      p->pos += type_size[prop->list_count];
      items = (guint64) c;
      if (items > (p->len - p->pos) / type_size[prop->type])
        goto truncated;
      p->pos += items * type_size[prop->type];
      continue;
    }
    if (p->len - p->pos < type_size[prop->type])
      goto truncated;
    if (pt) {
      double v = binary_value (p, prop->type, p->data + p->pos);
      if (!isfinite (v))
        return fail_offset (error, p->pos, "vertex %" G_GUINT64_FORMAT
            ": not a finite number", index);
      store (pt, prop, v);
    }
    p->pos += type_size[prop->type];
  }
  return TRUE;
truncated:
  return fail_offset (error, p->pos, "file ends inside %s %" G_GUINT64_FORMAT
      " of %" G_GUINT64_FORMAT, el->is_vertex ? "vertex" : "element", index,
      el->count);
}

GArray *
octo_pc_ply_parse (const guint8 *data, gsize len, GError **error)
{
  Parser p = { .data = data, .len = len };
  GArray *pts;

  if (!parse_header (&p, error))
    return NULL;
  pts = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
  for (guint i = 0; i < p.n_elements; i++) {
    const Element *el = &p.elements[i];
    /* Every element takes at least one byte, so a count beyond the data
     * left is truncation, found without allocating for it. */
    if (el->is_vertex)
      g_array_set_size (pts, MIN (el->count, p.len - p.pos));
    for (guint64 k = 0; k < el->count; k++) {
      OctoPcPoint *pt = NULL;
      gboolean ok;
      if (el->is_vertex) {
        if (k >= pts->len)
          g_array_set_size (pts, k + 1);
        pt = &g_array_index (pts, OctoPcPoint, k);
        init_point (pt);
      }
      ok = p.format == FMT_ASCII ? parse_ascii_element (&p, el, k, pt, error)
          : parse_binary_element (&p, el, k, pt, error);
      if (!ok) {
        g_array_unref (pts);
        return NULL;
      }
    }
    /* Nothing after the vertices is needed. */
    if (el->is_vertex)
      break;
  }
  return pts;
}

GBytes *
octo_pc_ply_write (const OctoPcPoint *pts, gsize n,
    const gchar *const *comments)
{
  GByteArray *out = g_byte_array_sized_new (256 + n * 15);
  GString *header = g_string_new ("ply\nformat binary_little_endian 1.0\n"
      "comment written by gst-octopus\n");

  for (guint i = 0; comments && comments[i]; i++)
    g_string_append_printf (header, "comment %s\n", comments[i]);
  g_string_append_printf (header, "element vertex %" G_GSIZE_FORMAT "\n"
      "property float x\nproperty float y\nproperty float z\n"
      "property uchar red\nproperty uchar green\nproperty uchar blue\n"
      "end_header\n", n);
  g_byte_array_append (out, (const guint8 *) header->str, header->len);
  g_string_free (header, TRUE);
  for (gsize i = 0; i < n; i++) {
    guint8 rec[15];
    for (guint a = 0; a < 3; a++) {
      guint32 bits;
      memcpy (&bits, &pts[i].xyz[a], 4);
      bits = GUINT32_TO_LE (bits);
      memcpy (rec + 4 * a, &bits, 4);
    }
    memcpy (rec + 12, pts[i].rgb, 3);
    g_byte_array_append (out, rec, sizeof (rec));
  }
  return g_byte_array_free_to_bytes (out);
}

gchar *
octo_pc_ply_comment (const guint8 *data, gsize len, const gchar *key)
{
  const gchar *text = (const gchar *) data;
  const gchar *end;
  gchar *header, **lines, *value = NULL;
  gsize klen = strlen (key);

  /* empty data may come as a NULL pointer */
  if (len == 0)
    return NULL;
  end = g_strstr_len (text, MIN (len, OCTO_PC_PLY_COMMENT_SCAN),
      "end_header");
  if (!end)
    return NULL;
  header = g_strndup (text, end - text);
  lines = g_strsplit (header, "\n", -1);
  for (guint i = 0; lines[i] && !value; i++)
    if (g_str_has_prefix (lines[i], "comment ")
        && strncmp (lines[i] + 8, key, klen) == 0 && lines[i][8 + klen] == ' ')
      value = g_strstrip (g_strdup (lines[i] + 9 + klen));
  g_strfreev (lines);
  g_free (header);
  return value;
}
