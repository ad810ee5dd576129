-- Wireshark dissector for gst-octopus (docs/wire-format.md, docs/quco-chunks.md):
--   * the 12-byte Octopus header,
--   * transport data packets of transport version 2 (header, transport
--     fields, message info of fragment 0, payload), ACKs and QUCO NACKs,
--     found on any UDP port by a heuristic (Octopus header with a valid
--     CRC-8, or a well-formed ACK or NACK); version 1 packets are marked,
--   * the QUCO chunk trailer at the end of a data packet,
--   * the RTP header extension rtphdrextoctopus (one- and two-byte forms),
--     for the extension ids in the "octopus.rtp_ext_ids" preference.
--
-- Use: tshark -X lua_script:tools/wireshark/octopus.lua -r capture.pcap
--        [-o octopus.rtp_ext_ids:3,20] [--enable-heuristic rtp_udp]
-- or copy this file into ~/.local/lib/wireshark/plugins/.

local HEADER_LEN = 12
local TRANSPORT_VERSION = 2
local FIELDS_LEN = 28
local INFO_LEN = 20
local ACK_HEADER_LEN = 16
local ACK_MAX_RANGES = 32
local ACK_TIMESTAMP_LEN = 4

local octopus = Proto("octopus", "Octopus")
local octopus_ack = Proto("octopus_ack", "Octopus ACK")
local octopus_nack = Proto("octopus_nack", "Octopus NACK (QUCO)")
local NACK_LEN = 12
local octopus_rtpext = Proto("octopus_rtpext", "Octopus RTP header extension")

local f = {
  marker = ProtoField.uint8("octopus.marker", "Marker", base.HEX, nil, 0xf8),
  version = ProtoField.uint8("octopus.version", "Version", base.DEC, nil, 0x07),
  crc = ProtoField.uint8("octopus.crc", "CRC-8", base.HEX),
  stream_id = ProtoField.uint16("octopus.stream_id", "Stream id", base.DEC),
  msg_id = ProtoField.uint32("octopus.msg_id", "Message id", base.DEC),
  word = ProtoField.uint32("octopus.word", "Dropping parameters", base.HEX),
  first = ProtoField.bool("octopus.first", "First packet", 32, nil, 0x80000000),
  last = ProtoField.bool("octopus.last", "Last packet", 32, nil, 0x40000000),
  drop = ProtoField.bool("octopus.drop", "Dropper", 32, nil, 0x20000000),
  priority = ProtoField.uint32("octopus.priority", "Priority", base.DEC, nil,
    0x1c000000),
  threshold = ProtoField.uint32("octopus.threshold", "Priority threshold",
    base.DEC, nil, 0x03800000),
  slack = ProtoField.uint32("octopus.slack_ms", "Slack (ms)", base.DEC, nil,
    0x007fe000),
  bitrate_code = ProtoField.uint32("octopus.bitrate_code", "Bitrate code",
    base.HEX, nil, 0x00001ffe),
  bitrate = ProtoField.uint64("octopus.bitrate", "Bitrate threshold (bit/s)",
    base.DEC),
  reserved = ProtoField.uint32("octopus.reserved", "Reserved", base.DEC, nil,
    0x00000001),
  -- transport fields
  transport_version = ProtoField.uint8("octopus.transport_version",
    "Transport version", base.DEC),
  flags = ProtoField.uint8("octopus.flags", "Flags", base.HEX),
  chunked = ProtoField.bool("octopus.chunked",
    "Qualitative packet (chunked, QUCO)", 8, nil, 0x01),
  chunks_equal = ProtoField.bool("octopus.chunks_equal",
    "All chunks equally significant", 8, nil, 0x02),
  resends = ProtoField.bool("octopus.resends",
    "The sender resends this message's lost packets", 8, nil, 0x04),
  path_id = ProtoField.uint8("octopus.path_id",
    "Path id (multipath: the path it was sent on, 0..7; 0 = the only one)",
    base.DEC),
  fields_reserved = ProtoField.uint8("octopus.fields_reserved", "Reserved",
    base.HEX),
  conn_id = ProtoField.uint32("octopus.conn_id", "Connection id", base.HEX),
  seq = ProtoField.uint32("octopus.seq", "Sequence number", base.DEC),
  send_time = ProtoField.uint32("octopus.send_time_us", "Send time (us)",
    base.DEC),
  msg_len = ProtoField.uint32("octopus.msg_len", "Message length", base.DEC),
  offset = ProtoField.uint32("octopus.offset", "Fragment offset", base.DEC),
  frag_index = ProtoField.uint16("octopus.frag_index", "Fragment index",
    base.DEC),
  frag_count = ProtoField.uint16("octopus.frag_count", "Fragment count",
    base.DEC),
  capture_time = ProtoField.uint64("octopus.capture_time_ns",
    "Capture time (ns)", base.DEC),
  frame_id = ProtoField.uint32("octopus.frame_id", "Frame id", base.DEC),
  -- layers and cell: 255 = none
  spatial = ProtoField.uint8("octopus.spatial_layer", "Spatial layer",
    base.DEC),
  temporal = ProtoField.uint8("octopus.temporal_layer", "Temporal layer",
    base.DEC),
  cell = ProtoField.uint8("octopus.cell_id", "Cell", base.DEC),
  density = ProtoField.uint8("octopus.density_layer", "Density layer",
    base.DEC),
  keyframe = ProtoField.bool("octopus.keyframe", "Key frame", 8, nil, 0x01),
  padding = ProtoField.bool("octopus.padding", "Bandwidth probe", 8, nil,
    0x02),
  payload = ProtoField.bytes("octopus.payload", "Payload"),
  -- QUCO chunk trailer
  chunks = ProtoField.uint8("octopus.chunks", "Chunks", base.DEC, nil, 0xf0),
  trimmed = ProtoField.uint8("octopus.chunks_trimmed", "Chunks trimmed",
    base.DEC, nil, 0x0f),
  chunk_len = ProtoField.uint16("octopus.chunk_len", "Chunk length", base.DEC),
  chunk = ProtoField.bytes("octopus.chunk", "Chunk"),
  magic = ProtoField.string("octopus.chunks_magic", "Trailer magic"),
}
octopus.fields = f

local fa = {
  marker = ProtoField.uint8("octopus_ack.marker", "Marker", base.HEX),
  version = ProtoField.uint8("octopus_ack.version", "Version", base.DEC),
  n_ranges = ProtoField.uint16("octopus_ack.n_ranges", "Ranges", base.DEC),
  conn_id = ProtoField.uint32("octopus_ack.conn_id", "Connection id", base.HEX),
  delay = ProtoField.uint32("octopus_ack.delay_us", "ACK delay (us)", base.DEC),
  path_id = ProtoField.uint8("octopus_ack.path_id",
    "Path id (multipath: the path whose packets it acknowledges)",
    base.DEC),
  flags = ProtoField.uint8("octopus_ack.flags", "Flags", base.HEX),
  timestamps = ProtoField.bool("octopus_ack.timestamps",
    "Receive timestamp follows the ranges", 8, nil, 0x01),
  keyframe_request = ProtoField.bool("octopus_ack.keyframe_request",
    "Key frame requested", 8, nil, 0x02),
  reserved = ProtoField.uint16("octopus_ack.reserved", "Reserved", base.HEX),
  first = ProtoField.uint32("octopus_ack.first", "First seq", base.DEC),
  last = ProtoField.uint32("octopus_ack.last", "Last seq", base.DEC),
  arrival = ProtoField.uint32("octopus_ack.arrival_us",
    "Newest packet's arrival (receiver clock, us mod 2^32)", base.DEC),
}
octopus_ack.fields = fa

local fn = {
  version = ProtoField.uint8("octopus_nack.version", "Version", base.DEC),
  path_id = ProtoField.uint8("octopus_nack.path_id", "Path id", base.DEC),
  trimmed = ProtoField.uint8("octopus_nack.trimmed", "Chunks trimmed",
    base.DEC),
  conn_id = ProtoField.uint32("octopus_nack.conn_id", "Connection id",
    base.HEX),
  seq = ProtoField.uint32("octopus_nack.seq", "Sequence number", base.DEC),
}
octopus_nack.fields = fn

local e_crc = ProtoExpert.new("octopus.crc.bad", "Header checksum mismatch",
  expert.group.CHECKSUM, expert.severity.ERROR)
local e_reserved = ProtoExpert.new("octopus.reserved.set", "Reserved bit set",
  expert.group.MALFORMED, expert.severity.ERROR)
local e_short = ProtoExpert.new("octopus.short", "Truncated",
  expert.group.MALFORMED, expert.severity.ERROR)
local e_version = ProtoExpert.new("octopus.transport_version.bad",
  "Not transport version 2 (version 1 or unknown): receivers reject it",
  expert.group.MALFORMED, expert.severity.ERROR)
octopus.experts = { e_crc, e_reserved, e_short, e_version }

octopus.prefs.rtp_ext_ids = Pref.range("RTP extension ids", "",
  "RTP header extension ids (a=extmap) carrying the Octopus header", 255)

-- CRC-8/SMBUS (poly 0x07, init 0) over byte 0 and bytes 2..11.
local function header_crc(tvb)
  local crc = 0
  for i = 0, HEADER_LEN - 1 do
    if i ~= 1 then
      crc = bit32.bxor(crc, tvb(i, 1):uint())
      for _ = 1, 8 do
        if bit32.band(crc, 0x80) ~= 0 then
          crc = bit32.band(bit32.bxor(bit32.lshift(crc, 1), 0x07), 0xff)
        else
          crc = bit32.band(bit32.lshift(crc, 1), 0xff)
        end
      end
    end
  end
  return crc
end

local function bitrate_of(code)
  if code == 0 then return 0 end
  return (128 + bit32.band(code, 0x7f)) * 2 ^ bit32.rshift(code, 7)
end

local function is_header(tvb)
  return tvb:len() >= HEADER_LEN and tvb(0, 1):uint() == 0x09 and
    header_crc(tvb) == tvb(1, 1):uint() and
    bit32.band(tvb(11, 1):uint(), 1) == 0
end

-- The 12 bytes, under @tree; returns the parsed word.
local function add_header(tvb, tree)
  local t = tree:add(octopus, tvb(0, HEADER_LEN), "Octopus header")
  t:add(f.marker, tvb(0, 1))
  t:add(f.version, tvb(0, 1))
  local crc = t:add(f.crc, tvb(1, 1))
  if header_crc(tvb) ~= tvb(1, 1):uint() then
    crc:add_proto_expert_info(e_crc)
  end
  t:add(f.stream_id, tvb(2, 2))
  t:add(f.msg_id, tvb(4, 4))
  local word = tvb(8, 4):uint()
  local w = t:add(f.word, tvb(8, 4))
  for _, field in ipairs({ f.first, f.last, f.drop, f.priority, f.threshold,
      f.slack, f.bitrate_code }) do
    w:add(field, tvb(8, 4))
  end
  local code = bit32.extract(word, 1, 12)
  t:add(f.bitrate, tvb(8, 4), UInt64.new(bitrate_of(code) % 2 ^ 32,
    math.floor(bitrate_of(code) / 2 ^ 32)))
  local r = w:add(f.reserved, tvb(8, 4))
  if bit32.band(word, 1) ~= 0 then
    r:add_proto_expert_info(e_reserved)
  end
  return word, t
end

-- A consistent QUCO trailer at the end of @tvb, or nil (quco-chunks.md).
local function chunk_trailer(tvb, start)
  local len = tvb:len()
  if len - start < 5 or tvb(len - 2, 1):uint() ~= 0x51 or
      tvb(len - 1, 1):uint() ~= 0x43 then
    return nil
  end
  local info = tvb(len - 3, 1):uint()
  local n, trimmed = bit32.rshift(info, 4), bit32.band(info, 0x0f)
  local trailer = 2 * n + 3
  if n < 1 or trimmed > n or len - start < trailer then
    return nil
  end
  local table_at = len - trailer
  local lens, present = {}, 0
  for i = 0, n - 1 do
    lens[i] = tvb(table_at + 2 * i, 2):uint()
    if i < n - trimmed then
      present = present + lens[i]
    end
  end
  if present > table_at - start then
    return nil
  end
  return { n = n, trimmed = trimmed, lens = lens, table_at = table_at,
    chunks_at = table_at - present }
end

local function add_chunks(tvb, tree, c)
  local len = tvb:len()
  local t = tree:add(octopus, tvb(c.chunks_at, len - c.chunks_at),
    string.format("QUCO chunks: %d, %d trimmed", c.n, c.trimmed))
  local at = c.chunks_at
  for i = 0, c.n - c.trimmed - 1 do
    if c.lens[i] > 0 then
      t:add(f.chunk, tvb(at, c.lens[i]))
    end
    at = at + c.lens[i]
  end
  for i = 0, c.n - 1 do
    t:add(f.chunk_len, tvb(c.table_at + 2 * i, 2))
  end
  t:add(f.chunks, tvb(len - 3, 1))
  t:add(f.trimmed, tvb(len - 3, 1))
  t:add(f.magic, tvb(len - 2, 2))
end

function octopus.dissector(tvb, pinfo, tree)
  if not is_header(tvb) then
    return 0
  end
  pinfo.cols.protocol = "Octopus"
  local root = tree:add(octopus, tvb(), "Octopus data")
  add_header(tvb, root)
  if tvb:len() > HEADER_LEN and
      tvb(HEADER_LEN, 1):uint() ~= TRANSPORT_VERSION then
    root:add(f.transport_version, tvb(HEADER_LEN, 1))
    root:add_proto_expert_info(e_version)
    pinfo.cols.info = "Octopus data, not transport version 2"
    return tvb:len()
  end
  if tvb:len() < HEADER_LEN + FIELDS_LEN then
    root:add_proto_expert_info(e_short)
    return tvb:len()
  end
  local at = HEADER_LEN
  local fields = root:add(octopus, tvb(at, FIELDS_LEN), "Transport fields")
  fields:add(f.transport_version, tvb(at, 1))
  local flags = fields:add(f.flags, tvb(at + 1, 1))
  flags:add(f.chunked, tvb(at + 1, 1))
  flags:add(f.chunks_equal, tvb(at + 1, 1))
  flags:add(f.resends, tvb(at + 1, 1))
  fields:add(f.path_id, tvb(at + 2, 1))
  fields:add(f.fields_reserved, tvb(at + 3, 1))
  fields:add(f.conn_id, tvb(at + 4, 4))
  fields:add(f.seq, tvb(at + 8, 4))
  fields:add(f.send_time, tvb(at + 12, 4))
  fields:add(f.msg_len, tvb(at + 16, 4))
  fields:add(f.offset, tvb(at + 20, 4))
  fields:add(f.frag_index, tvb(at + 24, 2))
  fields:add(f.frag_count, tvb(at + 26, 2))
  local index = tvb(at + 24, 2):uint()
  at = at + FIELDS_LEN
  if index == 0 then
    if tvb:len() < at + INFO_LEN then
      root:add_proto_expert_info(e_short)
      return tvb:len()
    end
    local info = root:add(octopus, tvb(at, INFO_LEN), "Message info")
    info:add(f.capture_time, tvb(at, 8))
    info:add(f.frame_id, tvb(at + 8, 4))
    info:add(f.spatial, tvb(at + 12, 1))
    info:add(f.temporal, tvb(at + 13, 1))
    info:add(f.cell, tvb(at + 14, 1))
    info:add(f.density, tvb(at + 15, 1))
    info:add(f.keyframe, tvb(at + 16, 1))
    info:add(f.padding, tvb(at + 16, 1))
    at = at + INFO_LEN
  end
  local c = chunk_trailer(tvb, at)
  local payload_end = c and c.chunks_at or tvb:len()
  if payload_end > at then
    root:add(f.payload, tvb(at, payload_end - at))
  end
  if c then
    add_chunks(tvb, root, c)
  end
  pinfo.cols.info = string.format("Octopus stream %d msg %d frag %d/%d",
    tvb(2, 2):uint(), tvb(4, 4):uint(), index, tvb(HEADER_LEN + 26, 2):uint())
  return tvb:len()
end

local function is_ack(tvb)
  local len = tvb:len()
  if len < ACK_HEADER_LEN or tvb(0, 1):uint() ~= 0x04 or
      tvb(1, 1):uint() ~= TRANSPORT_VERSION or tvb(14, 2):uint() ~= 0 then
    return false
  end
  local n = tvb(2, 2):uint()
  local stamp = bit32.band(tvb(13, 1):uint(), 0x01) ~= 0 and ACK_TIMESTAMP_LEN or 0
  return n >= 1 and n <= ACK_MAX_RANGES and
      len == ACK_HEADER_LEN + 8 * n + stamp
end

function octopus_ack.dissector(tvb, pinfo, tree)
  if not is_ack(tvb) then
    return 0
  end
  pinfo.cols.protocol = "Octopus"
  local t = tree:add(octopus_ack, tvb())
  t:add(fa.marker, tvb(0, 1))
  t:add(fa.version, tvb(1, 1))
  t:add(fa.n_ranges, tvb(2, 2))
  t:add(fa.conn_id, tvb(4, 4))
  t:add(fa.delay, tvb(8, 4))
  t:add(fa.path_id, tvb(12, 1))
  local flags = t:add(fa.flags, tvb(13, 1))
  flags:add(fa.timestamps, tvb(13, 1))
  flags:add(fa.keyframe_request, tvb(13, 1))
  t:add(fa.reserved, tvb(14, 2))
  local n = tvb(2, 2):uint()
  for i = 0, n - 1 do
    local at = ACK_HEADER_LEN + 8 * i
    local r = t:add(octopus_ack, tvb(at, 8), string.format("Range %u-%u",
      tvb(at, 4):uint(), tvb(at + 4, 4):uint()))
    r:add(fa.first, tvb(at, 4))
    r:add(fa.last, tvb(at + 4, 4))
  end
  if bit32.band(tvb(13, 1):uint(), 0x01) ~= 0 then
    t:add(fa.arrival, tvb(ACK_HEADER_LEN + 8 * n, ACK_TIMESTAMP_LEN))
  end
  pinfo.cols.info = string.format("Octopus ACK, conn %08x, %d ranges, newest %u",
    tvb(4, 4):uint(), n, tvb(ACK_HEADER_LEN + 4, 4):uint())
  return tvb:len()
end

local function is_nack(tvb)
  return tvb:len() == NACK_LEN and tvb(0, 1):uint() == 0x05 and
      tvb(1, 1):uint() == TRANSPORT_VERSION and tvb(3, 1):uint() >= 1 and
      tvb(3, 1):uint() <= 15
end

function octopus_nack.dissector(tvb, pinfo, tree)
  if not is_nack(tvb) then
    return 0
  end
  pinfo.cols.protocol = "Octopus"
  local t = tree:add(octopus_nack, tvb())
  t:add(fn.version, tvb(1, 1))
  t:add(fn.path_id, tvb(2, 1))
  t:add(fn.trimmed, tvb(3, 1))
  t:add(fn.conn_id, tvb(4, 4))
  t:add(fn.seq, tvb(8, 4))
  pinfo.cols.info = string.format("Octopus NACK, conn %08x, seq %u, %d chunks trimmed",
    tvb(4, 4):uint(), tvb(8, 4):uint(), tvb(3, 1):uint())
  return NACK_LEN
end

function octopus_rtpext.dissector(tvb, pinfo, tree)
  if tvb:len() ~= HEADER_LEN then
    tree:add_proto_expert_info(e_short)
    return 0
  end
  local _, t = add_header(tvb, tree)
  t:set_text("Octopus header (RTP header extension)")
  pinfo.cols.protocol:append("/Octopus")
  return HEADER_LEN
end

local function heuristic(tvb, pinfo, tree)
  if is_header(tvb) then
    octopus.dissector(tvb, pinfo, tree)
    return true
  end
  if is_ack(tvb) then
    octopus_ack.dissector(tvb, pinfo, tree)
    return true
  end
  if is_nack(tvb) then
    octopus_nack.dissector(tvb, pinfo, tree)
    return true
  end
  return false
end
octopus:register_heuristic("udp", heuristic)

local registered = {}

local function register_ext_ids()
  local ext_table = DissectorTable.get("rtp.ext.rfc5285.id")
  for id in pairs(registered) do
    ext_table:remove(id, octopus_rtpext)
  end
  registered = {}
  -- the range preference reads back as text such as "3,20" or "3-5"
  for part in tostring(octopus.prefs.rtp_ext_ids):gmatch("[^,]+") do
    local lo, hi = part:match("^%s*(%d+)%s*%-%s*(%d+)%s*$")
    lo = tonumber(lo or part)
    hi = tonumber(hi or lo)
    for id = lo or 1, hi or 0 do
      if id >= 1 and id <= 255 then
        ext_table:add(id, octopus_rtpext)
        registered[id] = true
      end
    end
  end
end

function octopus.prefs_changed()
  register_ext_ids()
end

function octopus.init()
  register_ext_ids()
end
