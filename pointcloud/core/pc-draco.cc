// gst-octopus point clouds: the Draco wrapper.  The only C++ in the
// project; everything crossing the API is plain C.
#include "pc-draco.h"

#include <cmath>
#include <cstring>
#include <memory>

#include <draco/compression/config/compression_shared.h>
#include <draco/compression/decode.h>
#include <draco/compression/encode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/core/draco_types.h>
#include <draco/core/varint_decoding.h>
#include <draco/point_cloud/point_cloud_builder.h>

extern "C" GQuark
octo_pc_draco_error_quark (void)
{
  return g_quark_from_static_string ("octo-pc-draco-error-quark");
}

extern "C" double
octo_pc_draco_step (const OctoPcDracoParams *params)
{
  return params->range / (std::ldexp (1.0, params->position_bits) - 1.0);
}

extern "C" GBytes *
octo_pc_draco_encode (const OctoPcPoint *pts, const guint *index, gsize n,
    const OctoPcDracoParams *params, GError **error)
{
  if (n == 0)
    return g_bytes_new (NULL, 0);
  if (n > OCTO_PC_DRACO_MAX_POINTS || params->position_bits < 1
      || params->position_bits > 30 || !(params->range > 0.0f)) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "bad encode parameters "
        "(%" G_GSIZE_FORMAT " points, %d bits, range %g)", n,
        params->position_bits, params->range);
    return NULL;
  }

  draco::PointCloudBuilder builder;
  builder.Start (static_cast<draco::PointIndex::ValueType> (n));
  const int pos = builder.AddAttribute (draco::GeometryAttribute::POSITION, 3,
      draco::DT_FLOAT32);
  const int col = builder.AddAttribute (draco::GeometryAttribute::COLOR, 3,
      draco::DT_UINT8);
  for (gsize i = 0; i < n; i++) {
    const OctoPcPoint &p = pts[index ? index[i] : i];
    const draco::PointIndex pi (static_cast<uint32_t> (i));
    builder.SetAttributeValueForPoint (pos, pi, p.xyz);
    builder.SetAttributeValueForPoint (col, pi, p.rgb);
  }
  std::unique_ptr<draco::PointCloud> cloud = builder.Finalize (false);

  draco::Encoder encoder;
  encoder.SetAttributeExplicitQuantization (draco::GeometryAttribute::POSITION,
      params->position_bits, 3, params->origin, params->range);
  encoder.SetSpeedOptions (params->speed, params->speed);
  encoder.SetEncodingMethod (params->method == OCTO_PC_DRACO_KD_TREE ?
      draco::POINT_CLOUD_KD_TREE_ENCODING :
      draco::POINT_CLOUD_SEQUENTIAL_ENCODING);

  draco::EncoderBuffer buffer;
  const draco::Status status = encoder.EncodePointCloudToBuffer (*cloud,
      &buffer);
  if (!status.ok ()) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "Draco encode: %s",
        status.error_msg ());
    return NULL;
  }
  return g_bytes_new (buffer.data (), buffer.size ());
}

/* Bytes of decoder memory per value Draco keeps besides the value itself:
 * the integer (portable) copy and the decoded symbols, 4 bytes each. */
#define DRACO_WORK_BYTES_PER_VALUE 8

/* What a decode of @len bytes may cost (see octo_pc_draco_decode_cost). */
static guint64
decode_budget (gsize len)
{
  return OCTO_PC_DRACO_BUDGET_FLOOR
      + (guint64) OCTO_PC_DRACO_BUDGET_PER_BYTE * len;
}

static gboolean
over_budget (gsize len, gint32 num_points, guint64 bytes_per_point,
    GError **error)
{
  g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "Draco payload of %"
      G_GSIZE_FORMAT " bytes claims %d points of %" G_GUINT64_FORMAT
      " bytes each: decoding would take ~%" G_GUINT64_FORMAT " bytes, over "
      "the %" G_GUINT64_FORMAT " allowed for its size", len, num_points,
      bytes_per_point, bytes_per_point * (guint64) num_points,
      decode_budget (len));
  return FALSE;
}

extern "C" gboolean
octo_pc_draco_decode_cost (const guint8 *data, gsize len, guint64 *cost,
    GError **error)
{
  /* Draco sizes every attribute array from the point count in the geometry
   * header (an int32 right after the 11-byte file header) times the
   * components of each attribute descriptor, and allocates them before it
   * reads any value: read both, as libdraco's point-cloud decoder does for
   * bitstream 2.3, and price them first. */
  draco::DecoderBuffer buffer;
  buffer.Init (reinterpret_cast<const char *> (data), len);
  char magic[5];
  guint8 major, minor, type, method;
  guint16 flags;
  gint32 num_points;
  guint8 num_decoders;
  if (!buffer.Decode (magic, sizeof (magic)) || !buffer.Decode (&major)
      || !buffer.Decode (&minor) || !buffer.Decode (&type)
      || !buffer.Decode (&method) || !buffer.Decode (&flags)
      || !buffer.Decode (&num_points) || !buffer.Decode (&num_decoders)) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
        "malformed Draco payload: %" G_GSIZE_FORMAT " bytes end inside its "
        "header", len);
    return FALSE;
  }
  if (std::memcmp (magic, "DRACO", sizeof (magic)) != 0) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
        "malformed Draco payload: it does not start with \"DRACO\"");
    return FALSE;
  }
  if (major != draco::kDracoPointCloudBitstreamVersionMajor
      || minor != draco::kDracoPointCloudBitstreamVersionMinor
      || type != draco::POINT_CLOUD
      || (method != draco::POINT_CLOUD_SEQUENTIAL_ENCODING
          && method != draco::POINT_CLOUD_KD_TREE_ENCODING)
      || (flags & METADATA_FLAG_MASK)) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "Draco payload is not a "
        "point cloud of bitstream %u.%u without metadata (version %u.%u, "
        "geometry %u, method %u, flags 0x%04x)",
        draco::kDracoPointCloudBitstreamVersionMajor,
        draco::kDracoPointCloudBitstreamVersionMinor, major, minor, type,
        method, flags);
    return FALSE;
  }
  if (num_points < 0 || (guint32) num_points > OCTO_PC_DRACO_MAX_POINTS) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
        "Draco payload claims %d points (limit %u)", num_points,
        OCTO_PC_DRACO_MAX_POINTS);
    return FALSE;
  }

  guint64 bytes_per_point = sizeof (OctoPcPoint);
  if (bytes_per_point * (guint64) num_points > decode_budget (len))
    return over_budget (len, num_points, bytes_per_point, error);
  for (guint d = 0; d < num_decoders; d++) {
    guint32 num_attributes;
    if (!draco::DecodeVarint (&num_attributes, &buffer)) {
      g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "malformed Draco payload: "
          "attribute decoder %u has no attribute count", d);
      return FALSE;
    }
    for (guint32 a = 0; a < num_attributes; a++) {
      guint8 att_type, data_type, num_components, normalized;
      guint32 unique_id;
      if (!buffer.Decode (&att_type) || !buffer.Decode (&data_type)
          || !buffer.Decode (&num_components) || !buffer.Decode (&normalized)
          || !draco::DecodeVarint (&unique_id, &buffer)) {
        g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "malformed Draco "
            "payload: attribute %u of decoder %u is cut short", a, d);
        return FALSE;
      }
      const int value_len =
          draco::DataTypeLength (static_cast<draco::DataType> (data_type));
      if (value_len <= 0) {
        g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "malformed Draco "
            "payload: attribute %u of decoder %u has data type %u", a, d,
            data_type);
        return FALSE;
      }
      bytes_per_point += (guint64) num_components
          * (value_len + DRACO_WORK_BYTES_PER_VALUE);
      /* checked per attribute, so the product cannot overflow */
      if (bytes_per_point * (guint64) num_points > decode_budget (len))
        return over_budget (len, num_points, bytes_per_point, error);
    }
    /* the sequential coding names each attribute's value coder here */
    if (method == draco::POINT_CLOUD_SEQUENTIAL_ENCODING) {
      if (buffer.remaining_size () < num_attributes) {
        g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "malformed Draco payload: "
            "attribute decoder %u is cut short", d);
        return FALSE;
      }
      buffer.Advance (num_attributes);
    }
  }
  *cost = bytes_per_point * (guint64) num_points;
  return TRUE;
}

extern "C" gboolean
octo_pc_draco_decode (const guint8 *data, gsize len, GArray *out,
    GError **error)
{
  if (len == 0)
    return TRUE;
  guint64 cost;
  if (!octo_pc_draco_decode_cost (data, len, &cost, error))
    return FALSE;

  draco::DecoderBuffer buffer;
  buffer.Init (reinterpret_cast<const char *> (data), len);
  draco::Decoder decoder;
  auto result = decoder.DecodePointCloudFromBuffer (&buffer);
  if (!result.ok ()) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0, "malformed Draco payload: %s",
        result.status ().error_msg ());
    return FALSE;
  }
  const std::unique_ptr<draco::PointCloud> cloud =
      std::move (result).value ();
  const gsize n = cloud->num_points ();
  const draco::PointAttribute *pos =
      cloud->GetNamedAttribute (draco::GeometryAttribute::POSITION);
  const draco::PointAttribute *col =
      cloud->GetNamedAttribute (draco::GeometryAttribute::COLOR);
  if (!pos || pos->num_components () != 3) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
        "Draco payload has no 3-component position attribute");
    return FALSE;
  }
  /* Draco reads a stored bool as a C++ bool: any byte but 0 and 1 is
   * undefined behaviour, so such values are never converted */
  if (pos->data_type () == draco::DT_BOOL
      || (col && col->data_type () == draco::DT_BOOL)) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
        "Draco payload stores positions or colours as booleans");
    return FALSE;
  }
  if (n > OCTO_PC_DRACO_MAX_POINTS) {
    g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
        "Draco payload claims %" G_GSIZE_FORMAT " points (limit %u)", n,
        OCTO_PC_DRACO_MAX_POINTS);
    return FALSE;
  }

  const guint start = out->len;
  g_array_set_size (out, start + n);
  for (gsize i = 0; i < n; i++) {
    OctoPcPoint &p = g_array_index (out, OctoPcPoint, start + i);
    const draco::PointIndex pi (static_cast<uint32_t> (i));
    std::memset (&p, 0, sizeof (p));
    bool ok = pos->ConvertValue<float> (pos->mapped_index (pi), 3, p.xyz);
    if (col && col->num_components () >= 3) {
      uint8_t rgb[4] = { 0, 0, 0, 0 };
      const int nc = col->num_components () > 4 ? 4 : col->num_components ();
      ok = ok && col->ConvertValue<uint8_t> (col->mapped_index (pi),
          static_cast<int8_t> (nc), rgb);
      std::memcpy (p.rgb, rgb, 3);
    }
    if (!ok) {
      g_array_set_size (out, start);
      g_set_error (error, OCTO_PC_DRACO_ERROR, 0,
          "Draco payload: attribute value %" G_GSIZE_FORMAT
          " cannot be read", i);
      return FALSE;
    }
  }
  return TRUE;
}
