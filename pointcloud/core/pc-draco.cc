// gst-octopus point clouds: the Draco wrapper.  The only C++ in the
// project; everything crossing the API is plain C.
#include "pc-draco.h"

#include <cmath>
#include <cstring>
#include <memory>

#include <draco/compression/decode.h>
#include <draco/compression/encode.h>
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

extern "C" gboolean
octo_pc_draco_decode (const guint8 *data, gsize len, GArray *out,
    GError **error)
{
  if (len == 0)
    return TRUE;

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
