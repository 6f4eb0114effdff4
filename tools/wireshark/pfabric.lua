-- pfabric.lua: Wireshark/tshark dissector for the pFabric transport header.
--
-- The layout is the one of common/src/main/java/io/pfabric/common/wire/PfabricHeaderFlyweight.java, all fields
-- big-endian:
--
--    0  version:4 | type:4        1 DATA, 2 ACK, 3 PROBE, 4 CONTROL; version 1
--    1  flags u8                  bit 0 PATH (path hint valid), bit 1 FIN (last segment of the flow),
--                                 bit 2 INC (ACK: bytes 20-23 hold the receiver's incarnation, not the flow size),
--                                 bit 3 DL (DATA/PROBE: the priority is the flow's deadline in microseconds)
--    2  header length u16         32, or 32 + 8 x SACK count for an ACK
--    4  priority u32              smaller is more urgent (hostd: remaining flow size, 0 on ACKs)
--    8  flow id u64               high 16 bits: source host index, next 16: the sender's incarnation, low 32: counter
--   16  segment offset u32        DATA/PROBE: offset of the payload in the flow; ACK: cumulative ack
--   20  flow size u32             bytes, 0 = unknown; an ACK with INC: the receiving host's incarnation u16, then
--                                 two zero bytes
--   24  payload length u16
--   26  SACK count u8             at most 4
--   27  path hint u8              spine index, used when PATH is set
--   28  checksum u32              CRC32C of header length + payload length bytes, this field taken as zero
--   32  SACK blocks (ACK only)    start u32, end u32 (exclusive), SACK count of them
--
-- Registered for IPv4 protocol 253 and UDP port 7253 (a preference), so also inside VXLAN (UDP 4789), which
-- Wireshark decodes to the inner Ethernet frame by itself.
--
--   tshark -X lua_script:tools/wireshark/pfabric.lua -r capture.pcap -Y pfabric
--
-- For the Wireshark GUI copy this file to ~/.local/lib/wireshark/plugins/. Problems in a packet (too short,
-- unknown version or type, bad lengths, bad checksum) are reported as expert info; the dissector never raises a
-- Lua error.

local pfabric = Proto("pfabric", "pFabric Transport")

local HEADER_LENGTH = 32
local MAX_SACK_BLOCKS = 4
local SACK_BLOCK_LENGTH = 8
local VERSION = 1
local IP_PROTOCOL = 253
local DEFAULT_UDP_PORT = 7253

local TYPE_DATA = 1
local TYPE_ACK = 2
local TYPE_PROBE = 3
local TYPE_CONTROL = 4

local FLAG_PATH = 0x01
local FLAG_FIN = 0x02
local FLAG_INCARNATION = 0x04
local FLAG_DEADLINE = 0x08

local type_names = { [TYPE_DATA] = "DATA", [TYPE_ACK] = "ACK", [TYPE_PROBE] = "PROBE", [TYPE_CONTROL] = "CONTROL" }
local set_or_not = { "Set", "Not set" }
local checksum_status_names = { [0] = "Bad", [1] = "Good", [2] = "Unverified" }

local f = pfabric.fields
f.version = ProtoField.uint8("pfabric.version", "Version", base.DEC, nil, 0xF0)
f.type = ProtoField.uint8("pfabric.type", "Type", base.DEC, type_names, 0x0F)
f.flags = ProtoField.uint8("pfabric.flags", "Flags", base.HEX)
f.flag_reserved = ProtoField.uint8("pfabric.flags.reserved", "Reserved", base.HEX, nil, 0xF0)
f.flag_deadline = ProtoField.bool("pfabric.flags.deadline", "DL", 8, set_or_not, FLAG_DEADLINE,
    "The priority is the flow's deadline in microseconds (pFabric-EDF), not a size")
f.flag_incarnation = ProtoField.bool("pfabric.flags.inc", "INC", 8, set_or_not, FLAG_INCARNATION,
    "An ACK that carries the receiving host's incarnation in place of the flow size")
f.flag_fin = ProtoField.bool("pfabric.flags.fin", "FIN", 8, set_or_not, FLAG_FIN, "Last segment of the flow")
f.flag_path = ProtoField.bool("pfabric.flags.path", "PATH", 8, set_or_not, FLAG_PATH,
    "The path hint names the spine to use")
f.hdr_len = ProtoField.uint16("pfabric.hdr_len", "Header Length", base.DEC)
f.priority = ProtoField.uint32("pfabric.priority", "Priority", base.DEC, nil, nil, "Smaller is more urgent")
f.flow_id = ProtoField.uint64("pfabric.flow_id", "Flow ID", base.HEX)
f.flow_src_host = ProtoField.uint16("pfabric.flow.src_host", "Source Host", base.DEC, nil, nil,
    "Index of the sending host in the topology (high 16 bits of the flow id)")
f.flow_incarnation = ProtoField.uint16("pfabric.flow.incarnation", "Incarnation", base.DEC, nil, nil,
    "Which start of the sending host's transport made the flow (bits 32-47 of the flow id)")
f.flow_counter = ProtoField.uint32("pfabric.flow.counter", "Flow Counter", base.DEC, nil, nil,
    "The sending start's flow counter (low 32 bits of the flow id)")
f.offset = ProtoField.uint32("pfabric.offset", "Segment Offset", base.DEC, nil, nil,
    "Offset of this segment's payload in the flow")
f.ack = ProtoField.uint32("pfabric.ack", "Cumulative Ack", base.DEC, nil, nil,
    "Every byte of the flow below this has arrived")
f.flow_size = ProtoField.uint32("pfabric.flow_size", "Flow Size", base.DEC, nil, nil, "Bytes, 0 = unknown")
f.ack_incarnation = ProtoField.uint16("pfabric.ack.incarnation", "Receiver Incarnation", base.DEC, nil, nil,
    "Which start of the receiving host's transport sent the ACK")
f.ack_incarnation_zero = ProtoField.uint16("pfabric.ack.incarnation_zero", "Zero", base.HEX)
f.payload_len = ProtoField.uint16("pfabric.payload_len", "Payload Length", base.DEC)
f.sack_count = ProtoField.uint8("pfabric.sack_count", "SACK Count", base.DEC)
f.path_hint = ProtoField.uint8("pfabric.path_hint", "Path Hint", base.DEC)
f.checksum = ProtoField.uint32("pfabric.checksum", "Checksum", base.HEX, nil, nil,
    "CRC32C of header and payload, this field taken as zero")
f.checksum_status = ProtoField.uint8("pfabric.checksum.status", "Checksum Status", base.DEC, checksum_status_names)
f.checksum_calculated = ProtoField.uint32("pfabric.checksum.calculated", "Calculated Checksum", base.HEX)
f.sack_block = ProtoField.none("pfabric.sack", "SACK Block")
f.sack_start = ProtoField.uint32("pfabric.sack.start", "Start", base.DEC)
f.sack_end = ProtoField.uint32("pfabric.sack.end", "End", base.DEC, nil, nil, "First byte after the block")
f.sack_len = ProtoField.uint32("pfabric.sack.len", "Length", base.DEC)
f.hdr_extra = ProtoField.bytes("pfabric.hdr_extra", "Unknown Header Bytes")
f.trailer = ProtoField.bytes("pfabric.trailer", "Trailing Bytes")

local e = pfabric.experts
e.truncated = ProtoExpert.new("pfabric.truncated", "Packet shorter than the pFabric header",
    expert.group.MALFORMED, expert.severity.ERROR)
e.bad_version = ProtoExpert.new("pfabric.bad_version", "Unknown pFabric version",
    expert.group.MALFORMED, expert.severity.WARN)
e.bad_type = ProtoExpert.new("pfabric.bad_type", "Unknown pFabric packet type",
    expert.group.MALFORMED, expert.severity.WARN)
e.bad_hdr_len = ProtoExpert.new("pfabric.bad_hdr_len", "Bad header length",
    expert.group.MALFORMED, expert.severity.ERROR)
e.bad_sack_count = ProtoExpert.new("pfabric.bad_sack_count", "Bad SACK count",
    expert.group.MALFORMED, expert.severity.ERROR)
e.bad_payload_len = ProtoExpert.new("pfabric.bad_payload_len", "Payload length beyond the packet",
    expert.group.MALFORMED, expert.severity.ERROR)
e.trailer = ProtoExpert.new("pfabric.trailer.expert", "Bytes after header and payload",
    expert.group.PROTOCOL, expert.severity.WARN)
e.bad_checksum = ProtoExpert.new("pfabric.checksum.bad", "Bad checksum",
    expert.group.CHECKSUM, expert.severity.ERROR)
e.dissector_error = ProtoExpert.new("pfabric.dissector_error", "pFabric dissector error",
    expert.group.MALFORMED, expert.severity.ERROR)

pfabric.prefs.udp_port = Pref.uint("UDP port", DEFAULT_UDP_PORT, "UDP port of pFabric over UDP (hostd's --io udp)")
pfabric.prefs.verify_checksum = Pref.bool("Verify checksum", true, "Check each packet's CRC32C")

local data_dissector = Dissector.get("data")

-- CRC32C (Castagnoli, reflected polynomial 0x82F63B78) on whichever bit library this Lua has: bit32 (Lua 5.2),
-- Wireshark's bit (LuaBitOp, signed results) or the native operators of Lua 5.3 and later.
local band, bxor, rshift
do
    local lib = rawget(_G, "bit32") or rawget(_G, "bit")
    if lib then
        band, bxor, rshift = lib.band, lib.bxor, lib.rshift
    else
        local chunk = load("return function(a, b) return a & b end, function(a, b) return a ~ b end, " ..
            "function(a, n) return a >> n end")
        if chunk then
            band, bxor, rshift = chunk()
        end
    end
end

local crc_table
if band then
    crc_table = {}
    for i = 0, 255 do
        local c = i
        for _ = 1, 8 do
            if band(c, 1) ~= 0 then
                c = bxor(rshift(c, 1), 0x82F63B78)
            else
                c = rshift(c, 1)
            end
        end
        crc_table[i] = c
    end
end

local function crc32c(bytes)
    local crc = 0xFFFFFFFF
    for i = 1, #bytes do
        crc = bxor(rshift(crc, 8), crc_table[band(bxor(crc, string.byte(bytes, i)), 0xFF)])
    end
    return bxor(crc, 0xFFFFFFFF) % 4294967296
end

local function u(value)
    return string.format("%.0f", value)
end

local function hex_flow_id(range)
    local digits = string.gsub(range:uint64():tohex(16), "^0+", "")
    return "0x" .. (digits == "" and "0" or string.lower(digits))
end

local function dissect(tvb, pinfo, tree)
    local length = tvb:len()
    pinfo.cols.protocol:set("pFabric")
    local root = tree:add(pfabric, tvb())

    if length < HEADER_LENGTH then
        root:append_text(string.format(", truncated: %d bytes", length))
        root:add_proto_expert_info(e.truncated, string.format(
            "Truncated: %d bytes, the pFabric header has %d", length, HEADER_LENGTH))
        if length > 0 then
            data_dissector:call(tvb():tvb(), pinfo, tree)
        end
        pinfo.cols.info:set(string.format("pFabric [truncated: %d bytes]", length))
        return length
    end

    local problems = {}
    local function problem(item, expert_field, text)
        item:add_proto_expert_info(expert_field, text)
        problems[#problems + 1] = text
    end

    local version = tvb(0, 1):bitfield(0, 4)
    local packet_type = tvb(0, 1):bitfield(4, 4)
    local flags = tvb(1, 1):uint()
    local header_length = tvb(2, 2):uint()
    local priority = tvb(4, 4):uint()
    local segment_offset = tvb(16, 4):uint()
    local flow_size = tvb(20, 4):uint()
    local payload_length = tvb(24, 2):uint()
    local sack_count = tvb(26, 1):uint()
    local path_hint = tvb(27, 1):uint()
    local type_name = type_names[packet_type] or string.format("TYPE%d", packet_type)
    local flow_text = hex_flow_id(tvb(8, 8))

    local version_item = root:add(f.version, tvb(0, 1))
    if version ~= VERSION then
        problem(version_item, e.bad_version, string.format("Unknown version %d (expected %d)", version, VERSION))
    end
    local type_item = root:add(f.type, tvb(0, 1))
    if not type_names[packet_type] then
        problem(type_item, e.bad_type, string.format("Unknown type %d", packet_type))
    end

    local incarnation_ack = packet_type == TYPE_ACK and math.floor(flags / FLAG_INCARNATION) % 2 == 1
    local flag_names = {}
    if math.floor(flags / FLAG_DEADLINE) % 2 == 1 then
        flag_names[#flag_names + 1] = "DL"
    end
    if math.floor(flags / FLAG_INCARNATION) % 2 == 1 then
        flag_names[#flag_names + 1] = "INC"
    end
    if math.floor(flags / FLAG_FIN) % 2 == 1 then
        flag_names[#flag_names + 1] = "FIN"
    end
    if math.floor(flags / FLAG_PATH) % 2 == 1 then
        flag_names[#flag_names + 1] = "PATH"
    end
    local flags_item = root:add(f.flags, tvb(1, 1))
    if #flag_names > 0 then
        flags_item:append_text(" (" .. table.concat(flag_names, ", ") .. ")")
    end
    flags_item:add(f.flag_reserved, tvb(1, 1))
    flags_item:add(f.flag_deadline, tvb(1, 1))
    flags_item:add(f.flag_incarnation, tvb(1, 1))
    flags_item:add(f.flag_fin, tvb(1, 1))
    flags_item:add(f.flag_path, tvb(1, 1))

    local hdr_len_item = root:add(f.hdr_len, tvb(2, 2))
    root:add(f.priority, tvb(4, 4))
    local flow_item = root:add(f.flow_id, tvb(8, 8))
    flow_item:add(f.flow_src_host, tvb(8, 2))
    flow_item:add(f.flow_incarnation, tvb(10, 2))
    flow_item:add(f.flow_counter, tvb(12, 4))
    if packet_type == TYPE_ACK then
        root:add(f.ack, tvb(16, 4))
    else
        root:add(f.offset, tvb(16, 4))
    end
    if incarnation_ack then
        root:add(f.ack_incarnation, tvb(20, 2))
        root:add(f.ack_incarnation_zero, tvb(22, 2))
    else
        root:add(f.flow_size, tvb(20, 4))
    end
    local payload_len_item = root:add(f.payload_len, tvb(24, 2))
    local sack_count_item = root:add(f.sack_count, tvb(26, 1))
    root:add(f.path_hint, tvb(27, 1))
    local checksum_item = root:add(f.checksum, tvb(28, 4))

    -- Header length: at least 32 and within the packet; an ACK's is exactly 32 + 8 x SACK count.
    local header_ok = true
    local sack_header_length = HEADER_LENGTH + sack_count * SACK_BLOCK_LENGTH
    if header_length < HEADER_LENGTH then
        problem(hdr_len_item, e.bad_hdr_len, string.format("Header length %d below %d", header_length,
            HEADER_LENGTH))
        header_ok = false
    elseif header_length > length then
        problem(hdr_len_item, e.bad_hdr_len, string.format("Header length %d beyond the packet's %d bytes",
            header_length, length))
        header_ok = false
    end
    if sack_count > MAX_SACK_BLOCKS then
        problem(sack_count_item, e.bad_sack_count, string.format("SACK count %d above %d", sack_count,
            MAX_SACK_BLOCKS))
    elseif header_ok and sack_header_length > header_length then
        problem(sack_count_item, e.bad_sack_count, string.format(
            "%d SACK blocks need a header of %d bytes, it has %d", sack_count, sack_header_length, header_length))
    elseif header_ok and packet_type == TYPE_ACK and sack_header_length ~= header_length then
        problem(hdr_len_item, e.bad_hdr_len, string.format(
            "An ACK with %d SACK blocks has a header of %d bytes, not %d", sack_count, sack_header_length,
            header_length))
    elseif packet_type ~= TYPE_ACK and sack_count > 0 then
        problem(sack_count_item, e.bad_sack_count, string.format("%s packet with %d SACK blocks", type_name,
            sack_count))
    end

    -- SACK blocks of an ACK, as many as the count says and the packet holds.
    local header_end = header_ok and header_length or HEADER_LENGTH
    local sack_texts = {}
    if packet_type == TYPE_ACK then
        local blocks = math.min(sack_count, MAX_SACK_BLOCKS, math.floor((length - HEADER_LENGTH) / SACK_BLOCK_LENGTH))
        for i = 0, blocks - 1 do
            local at = HEADER_LENGTH + i * SACK_BLOCK_LENGTH
            local start = tvb(at, 4):uint()
            local finish = tvb(at + 4, 4):uint()
            local block = root:add(f.sack_block, tvb(at, SACK_BLOCK_LENGTH))
            block:set_text(string.format("SACK Block %d: [%s, %s)", i, u(start), u(finish)))
            block:add(f.sack_start, tvb(at, 4))
            block:add(f.sack_end, tvb(at + 4, 4))
            if finish >= start then
                block:add(f.sack_len, finish - start):set_generated()
            end
            sack_texts[#sack_texts + 1] = string.format("[%s,%s)", u(start), u(finish))
        end
        header_end = math.max(header_end, HEADER_LENGTH + blocks * SACK_BLOCK_LENGTH)
    elseif header_ok and header_length > HEADER_LENGTH then
        root:add(f.hdr_extra, tvb(HEADER_LENGTH, header_length - HEADER_LENGTH))
    end

    -- Payload, then whatever follows it.
    local payload_available = length - header_end
    if header_end + payload_length > length then
        problem(payload_len_item, e.bad_payload_len, string.format(
            "Payload length %d but only %d bytes after the header", payload_length, payload_available))
    end
    local payload_present = math.min(payload_length, payload_available)
    if payload_present > 0 then
        data_dissector:call(tvb(header_end, payload_present):tvb(), pinfo, tree)
    end
    local trailer_at = header_end + payload_present
    if trailer_at < length then
        local trailer_item = root:add(f.trailer, tvb(trailer_at, length - trailer_at))
        problem(trailer_item, e.trailer, string.format(
            "%d bytes after header and payload (hostd drops such packets)", length - trailer_at))
    end

    -- Checksum over header length + payload length bytes with the checksum field taken as zero.
    local stored = tvb(28, 4):uint()
    local covered = header_length + payload_length
    if not pfabric.prefs.verify_checksum or not crc_table or not header_ok or covered > length then
        checksum_item:add(f.checksum_status, 2):set_generated()
    else
        local covered_bytes = tvb:raw(0, 28) .. "\0\0\0\0"
        if covered > HEADER_LENGTH then
            covered_bytes = covered_bytes .. tvb:raw(HEADER_LENGTH, covered - HEADER_LENGTH)
        end
        local calculated = crc32c(covered_bytes)
        if calculated == stored then
            checksum_item:append_text(" [correct]")
            checksum_item:add(f.checksum_status, 1):set_generated()
        else
            checksum_item:append_text(string.format(" [incorrect, should be 0x%08x]", calculated))
            checksum_item:add(f.checksum_status, 0):set_generated()
            checksum_item:add(f.checksum_calculated, calculated):set_generated()
            problem(checksum_item, e.bad_checksum, string.format("Bad checksum 0x%08x, calculated 0x%08x", stored,
                calculated))
        end
    end

    -- Summary line and Info column.
    local info
    if packet_type == TYPE_ACK then
        if incarnation_ack then
            info = string.format("ACK flow %s ack %s inc %d", flow_text, u(segment_offset), tvb(20, 2):uint())
        else
            info = string.format("ACK flow %s ack %s size %s", flow_text, u(segment_offset), u(flow_size))
        end
        if #sack_texts > 0 then
            info = info .. " sack " .. table.concat(sack_texts, " ")
        end
    else
        info = string.format("%s flow %s off %s len %d prio %s", type_name, flow_text, u(segment_offset),
            payload_length, u(priority))
    end
    for _, name in ipairs(flag_names) do
        if name == "PATH" then
            info = info .. string.format(" [PATH %d]", path_hint)
        elseif name ~= "INC" or not incarnation_ack then
            info = info .. " [" .. name .. "]"
        end
    end
    if #problems > 0 then
        info = info .. " [Malformed: " .. table.concat(problems, "; ") .. "]"
    end
    root:append_text(", " .. info)
    pinfo.cols.info:set(info)
    return length
end

function pfabric.dissector(tvb, pinfo, tree)
    local ok, result = pcall(dissect, tvb, pinfo, tree)
    if ok then
        return result
    end
    local item = tree:add(pfabric, tvb())
    item:add_proto_expert_info(e.dissector_error, "pFabric dissector error: " .. tostring(result))
    pinfo.cols.info:set("pFabric [dissector error]")
    return tvb:len()
end

local registered_udp_port = pfabric.prefs.udp_port

function pfabric.prefs_changed()
    local port = pfabric.prefs.udp_port
    if port ~= registered_udp_port then
        local udp_table = DissectorTable.get("udp.port")
        if registered_udp_port > 0 then
            udp_table:remove(registered_udp_port, pfabric)
        end
        if port > 0 then
            udp_table:add(port, pfabric)
        end
        registered_udp_port = port
    end
end

DissectorTable.get("ip.proto"):add(IP_PROTOCOL, pfabric)
DissectorTable.get("udp.port"):add(registered_udp_port, pfabric)
