/* octopus-shim: datagram classification.  See shim-classify.h. */
#include "shim-classify.h"

#include "octo-packet.h"

#include <netinet/in.h>
#include <string.h>

#define IPV4_MIN_HEADER 20
#define IPV6_HEADER 40
#define UDP_HEADER 8

void
shim_classifier_init (ShimClassifier *c, guint8 rtp_ext_id)
{
  *c = (ShimClassifier) { .rtp_ext_id = rtp_ext_id };
  octo_rtpext_learner_init (&c->learner);
  octo_header_cache_init (&c->header_cache);
}

guint8
shim_classifier_rtp_ext_id (const ShimClassifier *c)
{
  return c->rtp_ext_id != OCTO_RTPEXT_ID_NONE ? c->rtp_ext_id :
      c->learner.id;
}

static OctoParseResult
classify_rtp (ShimClassifier *c, const guint8 *data, gsize len,
    OctoPacket *op)
{
  OctoRtpPacket rtp;
  OctoParseResult r;
  guint8 id = c->rtp_ext_id;

  if (octo_rtp_parse (data, len, &rtp) != OCTO_RTP_PARSE_OK)
    return OCTO_PARSE_NOT_OCTOPUS;
  if (id == OCTO_RTPEXT_ID_NONE)
    id = octo_rtpext_learner_feed (&c->learner, &rtp);
  if (id == OCTO_RTPEXT_ID_NONE)
    return OCTO_PARSE_NOT_OCTOPUS;
  r = octo_rtp_get_header (&rtp, id, &op->header);
  if (r == OCTO_PARSE_TRUNCATED)        /* no element: plain RTP */
    return OCTO_PARSE_NOT_OCTOPUS;
  if (r == OCTO_PARSE_OK) {
    op->tagged = TRUE;
    op->source = SHIM_SOURCE_SSRC | rtp.ssrc;
    c->rtp_tagged++;
  }
  return r;
}

OctoParseResult
shim_classify (ShimClassifier *c, const guint8 *data, gsize len,
    guint64 addr_key, OctoPacket *op)
{
  OctoDgramKind kind = octo_dgram_classify (data, len);
  OctoParseResult r = OCTO_PARSE_NOT_OCTOPUS;

  c->kinds[kind]++;
  op->tagged = FALSE;
  op->source = addr_key;
  op->connection = 0;
  if (kind == OCTO_DGRAM_OCTOPUS) {
    r = octo_header_parse_cached (&c->header_cache, data, len, &op->header);
    op->tagged = r == OCTO_PARSE_OK;
    op->connection = octo_data_connection (data, len);
  } else if (kind == OCTO_DGRAM_RTP) {
    r = classify_rtp (c, data, len, op);
  }
  return r;
}

gssize
shim_ip_udp_payload (const guint8 *ip, gsize len, ShimAddr *source)
{
  gsize udp;
  guint8 protocol;

  memset (source, 0, sizeof *source);
  if (len < 1)
    return -1;
  if (ip[0] >> 4 == 4) {
    struct sockaddr_in *a = (struct sockaddr_in *) &source->ss;
    udp = 4 * (gsize) (ip[0] & 0x0f);
    if (udp < IPV4_MIN_HEADER || len < udp)
      return -1;
    a->sin_family = AF_INET;
    memcpy (&a->sin_addr, ip + 12, 4);
    source->len = sizeof *a;
    protocol = ip[9];
    /* a fragment (offset or more-fragments set) has no whole datagram */
    if ((ip[6] & 0x3f) != 0 || ip[7] != 0)
      return -1;
  } else if (ip[0] >> 4 == 6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *) &source->ss;
    udp = IPV6_HEADER;
    if (len < udp)
      return -1;
    a->sin6_family = AF_INET6;
    memcpy (&a->sin6_addr, ip + 8, 16);
    source->len = sizeof *a;
    protocol = ip[6];
  } else {
    return -1;
  }
  if (protocol != IPPROTO_UDP || len < udp + UDP_HEADER)
    return -1;
  guint16 port_be;
  memcpy (&port_be, ip + udp, 2);
  if (source->ss.ss_family == AF_INET)
    ((struct sockaddr_in *) &source->ss)->sin_port = port_be;
  else
    ((struct sockaddr_in6 *) &source->ss)->sin6_port = port_be;
  /* the UDP length must cover its header and fit the packet */
  gsize udp_len = (gsize) ip[udp + 4] << 8 | ip[udp + 5];
  if (udp_len < UDP_HEADER || udp + udp_len > len)
    return -1;
  return (gssize) (udp + UDP_HEADER);
}

OctoParseResult
shim_classify_ip (ShimClassifier *c, const guint8 *ip, gsize len,
    ShimAddr *source, OctoPacket *op)
{
  gssize payload = shim_ip_udp_payload (ip, len, source);

  if (payload < 0) {
    c->kinds[OCTO_DGRAM_OTHER]++;
    op->tagged = FALSE;
    op->source = shim_addr_key (source);
    return OCTO_PARSE_NOT_OCTOPUS;
  }
  /* the UDP length, not the IP packet's, bounds the datagram */
  gsize udp_len = (gsize) ip[payload - 4] << 8 | ip[payload - 3];
  return shim_classify (c, ip + payload, udp_len - UDP_HEADER,
      shim_addr_key (source), op);
}
