package io.pfabric.common.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.checksum.Crc32c;
import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over the pFabric transport header, carried right after the IPv4 header (protocol
 * {@link Ipv4Flyweight#PROTOCOL_PFABRIC}) or after a UDP header (port {@link UdpFlyweight#PFABRIC_DEFAULT_PORT}).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |Version|  Type | Flags |D|I|F|P|         Header Length         |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              Priority (u32, smaller is more urgent)           |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                                                               |  8
 *  +    Flow Id (high 32 bits: source host id, low 32: counter)    +
 *  |                                                               | 12
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        Segment Offset (u32 bytes) / Cumulative Ack (ACK)      | 16
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                Flow Size (u32 bytes, 0 = unknown)             | 20
 *  |  or, ACK with I: Receiver Incarnation |       Zero            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |         Payload Length        |  SACK Count   |   Path Hint   | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          Checksum (CRC32C of header and payload)              | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     SACK Block 0 Start (ACK only)             | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     SACK Block 0 End                          | 36
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              ... up to 4 blocks, 8 bytes each ...             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Flags: P is {@link #FLAG_PATH} (the path hint names the spine to use), F is {@link #FLAG_FIN} (last segment of the
 * flow), I is {@link #FLAG_INCARNATION} (an ACK whose bytes 20 to 23 hold the incarnation of the receiving host's
 * transport, u16, and two zero bytes, in place of the flow size; set by every ACK of this version, absent from ACKs of
 * earlier ones, whose flow size no receiver of an ACK reads), D is {@link #FLAG_DEADLINE} (a DATA or PROBE packet whose
 * priority is its flow's deadline, in microseconds, rather than a size: a switch that keeps deadline traffic apart,
 * {@code pfabric-edf}, queues it with the deadlines). The header length is {@link #HEADER_LENGTH} for
 * DATA, PROBE and CONTROL, and {@code 32 + 8 × SACK count} for ACK. The checksum is CRC32C over header length + payload length bytes with the checksum field taken as zero.
 * <p>
 * The switch reads the priority of every packet with {@link #priorityAtFrameOffset(DirectBuffer, int, int)} at
 * {@link #PRIORITY_FRAME_OFFSET_IP} or {@link #PRIORITY_FRAME_OFFSET_UDP}; those fixed offsets hold for IPv4 headers
 * without options only, whereas {@link FrameParser#priority()} is right for every packet it accepts.
 * <p>
 * The CRC32C runs without copying: over the array of a heap buffer, and over the memory of an off-heap buffer through
 * Agrona's {@link Crc32c}, for which the checksum field is zeroed during the computation and restored before
 * returning. Agrona's {@code Crc32c} needs {@code --add-opens java.base/java.util.zip=ALL-UNNAMED}; without it an
 * off-heap buffer is checksummed through a 512-byte scratch array instead. Single-threaded: each instance keeps a
 * reusable CRC32C state.
 */
public final class PfabricHeaderFlyweight extends HeaderFlyweight
{
    /**
     * Protocol version written and accepted.
     */
    public static final int VERSION = 1;

    /**
     * Length of the fixed header in bytes, the whole header of DATA, PROBE and CONTROL packets.
     */
    public static final int HEADER_LENGTH = 32;

    /**
     * Largest number of SACK blocks an ACK carries.
     */
    public static final int MAX_SACK_BLOCKS = 4;

    /**
     * Length of one SACK block in bytes.
     */
    public static final int SACK_BLOCK_LENGTH = 8;

    /**
     * Length of the header of an ACK with {@link #MAX_SACK_BLOCKS} blocks.
     */
    public static final int ACK_MAX_HEADER_LENGTH = HEADER_LENGTH + MAX_SACK_BLOCKS * SACK_BLOCK_LENGTH;

    /**
     * Type: a data segment.
     */
    public static final int TYPE_DATA = 1;

    /**
     * Type: an acknowledgement with cumulative ack and SACK blocks.
     */
    public static final int TYPE_ACK = 2;

    /**
     * Type: a probe sent after repeated timeouts.
     */
    public static final int TYPE_PROBE = 3;

    /**
     * Type: a control message.
     */
    public static final int TYPE_CONTROL = 4;

    /**
     * Flag bit 0: the path hint is valid and names the spine to use.
     */
    public static final int FLAG_PATH = 0x01;

    /**
     * Flag bit 1: last segment of the flow.
     */
    public static final int FLAG_FIN = 0x02;

    /**
     * Flag bit 2, ACK only: the ACK carries the incarnation of the receiving host's transport at
     * {@link #RECEIVER_INCARNATION_FIELD_OFFSET} instead of the flow size, so that a sender can tell that the
     * receiver restarted while the flow was in flight.
     */
    public static final int FLAG_INCARNATION = 0x04;

    /**
     * Flag bit 3, DATA and PROBE: the priority is the flow's deadline in microseconds (pFabric-EDF), not a size, so
     * that a switch keeping deadline traffic in a queue of its own can tell the two units apart.
     */
    public static final int FLAG_DEADLINE = 0x08;

    /**
     * Largest priority number, the least urgent; larger values saturate to it.
     */
    public static final long MAX_PRIORITY = 0xFFFF_FFFFL;

    /**
     * Offset of the version (high nibble) and type (low nibble).
     */
    public static final int VERSION_TYPE_FIELD_OFFSET = 0;

    /**
     * Offset of the flags.
     */
    public static final int FLAGS_FIELD_OFFSET = 1;

    /**
     * Offset of the header length.
     */
    public static final int HEADER_LENGTH_FIELD_OFFSET = 2;

    /**
     * Offset of the priority.
     */
    public static final int PRIORITY_FIELD_OFFSET = 4;

    /**
     * Offset of the flow id.
     */
    public static final int FLOW_ID_FIELD_OFFSET = 8;

    /**
     * Offset of the segment offset in the flow.
     */
    public static final int SEGMENT_OFFSET_FIELD_OFFSET = 16;

    /**
     * Offset of the cumulative ack of an ACK, the same field as the segment offset.
     */
    public static final int ACK_FIELD_OFFSET = SEGMENT_OFFSET_FIELD_OFFSET;

    /**
     * Offset of the flow size.
     */
    public static final int FLOW_SIZE_FIELD_OFFSET = 20;

    /**
     * Offset of the receiving host's incarnation (u16) in an ACK with {@link #FLAG_INCARNATION}, in the flow size's
     * place; the two bytes after it are zero.
     */
    public static final int RECEIVER_INCARNATION_FIELD_OFFSET = FLOW_SIZE_FIELD_OFFSET;

    /**
     * Offset of the payload length.
     */
    public static final int PAYLOAD_LENGTH_FIELD_OFFSET = 24;

    /**
     * Offset of the SACK block count.
     */
    public static final int SACK_COUNT_FIELD_OFFSET = 26;

    /**
     * Offset of the path hint.
     */
    public static final int PATH_HINT_FIELD_OFFSET = 27;

    /**
     * Offset of the checksum.
     */
    public static final int CHECKSUM_FIELD_OFFSET = 28;

    /**
     * Offset of the first SACK block.
     */
    public static final int SACK_BLOCKS_FIELD_OFFSET = 32;

    /**
     * Offset of the priority in a frame carrying pFabric directly in IPv4 without options: 14 + 20 + 4.
     */
    public static final int PRIORITY_FRAME_OFFSET_IP =
        EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH + PRIORITY_FIELD_OFFSET;

    /**
     * Offset of the priority in a frame carrying pFabric in UDP over IPv4 without options: 14 + 20 + 8 + 4.
     */
    public static final int PRIORITY_FRAME_OFFSET_UDP =
        EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH +
        PRIORITY_FIELD_OFFSET;

    private static final int CHECKSUM_LENGTH = 4;
    private static final int CHECKSUM_END = CHECKSUM_FIELD_OFFSET + CHECKSUM_LENGTH;
    private static final int SCRATCH_LENGTH = 512;
    private static final byte[] ZERO_CHECKSUM = new byte[CHECKSUM_LENGTH];
    private static final boolean ADDRESS_CRC32C_AVAILABLE = probeAddressCrc32c();

    private final CRC32C crc32c = new CRC32C();
    private final boolean useAddressCrc32c;
    private final byte[] scratch;

    /**
     * Create a flyweight; wrap it before use.
     */
    public PfabricHeaderFlyweight()
    {
        this(ADDRESS_CRC32C_AVAILABLE);
    }

    PfabricHeaderFlyweight(final boolean useAddressCrc32c)
    {
        this.useAddressCrc32c = useAddressCrc32c && ADDRESS_CRC32C_AVAILABLE;
        this.scratch = this.useAddressCrc32c ? null : new byte[SCRATCH_LENGTH];
    }

    boolean usesAddressCrc32c()
    {
        return useAddressCrc32c;
    }

    /**
     * Wrap a header.
     *
     * @param buffer holding the packet.
     * @param offset of the pFabric header in the buffer.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapHeader(buffer, offset);
        return this;
    }

    /**
     * Protocol version.
     *
     * @return the version nibble.
     */
    public int version()
    {
        return (buffer.getByte(offset + VERSION_TYPE_FIELD_OFFSET) >> 4) & 0xF;
    }

    /**
     * Set the protocol version, keeping the type.
     *
     * @param version nibble, normally {@link #VERSION}.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight version(final int version)
    {
        final int index = offset + VERSION_TYPE_FIELD_OFFSET;
        buffer.putByte(index, (byte)(((version & 0xF) << 4) | (buffer.getByte(index) & 0xF)));
        return this;
    }

    /**
     * Packet type.
     *
     * @return the type nibble, e.g. {@link #TYPE_DATA}.
     */
    public int type()
    {
        return buffer.getByte(offset + VERSION_TYPE_FIELD_OFFSET) & 0xF;
    }

    /**
     * Set the packet type, keeping the version.
     *
     * @param type nibble, one of {@link #TYPE_DATA}, {@link #TYPE_ACK}, {@link #TYPE_PROBE}, {@link #TYPE_CONTROL}.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight type(final int type)
    {
        final int index = offset + VERSION_TYPE_FIELD_OFFSET;
        buffer.putByte(index, (byte)((buffer.getByte(index) & 0xF0) | (type & 0xF)));
        return this;
    }

    /**
     * Flags.
     *
     * @return the unsigned 8-bit flags.
     */
    public int flags()
    {
        return buffer.getByte(offset + FLAGS_FIELD_OFFSET) & 0xFF;
    }

    /**
     * Set the flags.
     *
     * @param flags unsigned 8-bit value, a combination of {@link #FLAG_PATH}, {@link #FLAG_FIN} and
     *              {@link #FLAG_INCARNATION}.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight flags(final int flags)
    {
        buffer.putByte(offset + FLAGS_FIELD_OFFSET, (byte)flags);
        return this;
    }

    /**
     * Whether the PATH flag is set.
     *
     * @return true if the path hint names the spine to use.
     */
    public boolean pathFlag()
    {
        return 0 != (flags() & FLAG_PATH);
    }

    /**
     * Set or clear the PATH flag, keeping the other flags.
     *
     * @param value true to set the flag.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight pathFlag(final boolean value)
    {
        final int flags = flags();
        return flags(value ? flags | FLAG_PATH : flags & ~FLAG_PATH);
    }

    /**
     * Whether the FIN flag is set.
     *
     * @return true if this is the last segment of the flow.
     */
    public boolean finFlag()
    {
        return 0 != (flags() & FLAG_FIN);
    }

    /**
     * Set or clear the FIN flag, keeping the other flags.
     *
     * @param value true to set the flag.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight finFlag(final boolean value)
    {
        final int flags = flags();
        return flags(value ? flags | FLAG_FIN : flags & ~FLAG_FIN);
    }

    /**
     * Whether the INCARNATION flag is set: an ACK that carries {@link #receiverIncarnation()}.
     *
     * @return true if the flag is set.
     */
    public boolean incarnationFlag()
    {
        return 0 != (flags() & FLAG_INCARNATION);
    }

    /**
     * Set or clear the INCARNATION flag, keeping the other flags.
     *
     * @param value true to set the flag.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight incarnationFlag(final boolean value)
    {
        final int flags = flags();
        return flags(value ? flags | FLAG_INCARNATION : flags & ~FLAG_INCARNATION);
    }

    /**
     * Whether the DEADLINE flag is set: the priority is a deadline in microseconds.
     *
     * @return true if the flag is set.
     */
    public boolean deadlineFlag()
    {
        return 0 != (flags() & FLAG_DEADLINE);
    }

    /**
     * Set or clear the DEADLINE flag, keeping the other flags.
     *
     * @param value true to set the flag.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight deadlineFlag(final boolean value)
    {
        final int flags = flags();
        return flags(value ? flags | FLAG_DEADLINE : flags & ~FLAG_DEADLINE);
    }

    /**
     * Header length.
     *
     * @return header length in bytes, SACK blocks included.
     */
    public int headerLength()
    {
        return buffer.getShort(offset + HEADER_LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the header length.
     *
     * @param headerLength in bytes: {@link #HEADER_LENGTH}, or {@code 32 + 8 × SACK count} for an ACK.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight headerLength(final int headerLength)
    {
        buffer.putShort(offset + HEADER_LENGTH_FIELD_OFFSET, (short)headerLength, BIG_ENDIAN);
        return this;
    }

    /**
     * Priority number.
     *
     * @return the unsigned 32-bit priority; smaller is more urgent.
     */
    public long priority()
    {
        return buffer.getInt(offset + PRIORITY_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Set the priority number, saturated to [0, {@link #MAX_PRIORITY}].
     *
     * @param priority smaller is more urgent, e.g. the remaining flow size in bytes.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight priority(final long priority)
    {
        buffer.putInt(offset + PRIORITY_FIELD_OFFSET, (int)saturatePriority(priority), BIG_ENDIAN);
        return this;
    }

    /**
     * Flow id.
     *
     * @return source host id in the high 16 bits, the sender's incarnation in the next 16, its flow counter in the low
     * 32 ({@link #flowId(int, int, long)}).
     */
    public long flowId()
    {
        return buffer.getLong(offset + FLOW_ID_FIELD_OFFSET, BIG_ENDIAN);
    }

    /**
     * Set the flow id.
     *
     * @param flowId as made by {@link #flowId(int, long)}.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight flowId(final long flowId)
    {
        buffer.putLong(offset + FLOW_ID_FIELD_OFFSET, flowId, BIG_ENDIAN);
        return this;
    }

    /**
     * Offset of this segment's payload in the flow.
     *
     * @return the unsigned 32-bit offset in bytes.
     */
    public long segmentOffset()
    {
        return buffer.getInt(offset + SEGMENT_OFFSET_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Set the offset of this segment's payload in the flow.
     *
     * @param segmentOffset unsigned 32-bit offset in bytes.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight segmentOffset(final long segmentOffset)
    {
        buffer.putInt(offset + SEGMENT_OFFSET_FIELD_OFFSET, (int)segmentOffset, BIG_ENDIAN);
        return this;
    }

    /**
     * Cumulative ack of an ACK: every byte of the flow below it has been received. Same field as
     * {@link #segmentOffset()}.
     *
     * @return the unsigned 32-bit cumulative ack in bytes.
     */
    public long ack()
    {
        return buffer.getInt(offset + ACK_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Set the cumulative ack of an ACK. Same field as {@link #segmentOffset(long)}.
     *
     * @param ack unsigned 32-bit cumulative ack in bytes.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight ack(final long ack)
    {
        buffer.putInt(offset + ACK_FIELD_OFFSET, (int)ack, BIG_ENDIAN);
        return this;
    }

    /**
     * Size of the flow.
     *
     * @return the unsigned 32-bit flow size in bytes, 0 when unknown.
     */
    public long flowSize()
    {
        return buffer.getInt(offset + FLOW_SIZE_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Set the size of the flow.
     *
     * @param flowSize unsigned 32-bit size in bytes, 0 when unknown.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight flowSize(final long flowSize)
    {
        buffer.putInt(offset + FLOW_SIZE_FIELD_OFFSET, (int)flowSize, BIG_ENDIAN);
        return this;
    }

    /**
     * Incarnation of the receiving host's transport, carried by an ACK with {@link #incarnationFlag()} in the flow
     * size's place.
     *
     * @return the unsigned 16-bit incarnation.
     */
    public int receiverIncarnation()
    {
        return buffer.getShort(offset + RECEIVER_INCARNATION_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the incarnation of the receiving host's transport in an ACK, in the flow size's place (the two bytes after
     * it are zeroed); set {@link #incarnationFlag(boolean)} too.
     *
     * @param incarnation its low 16 bits are written.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight receiverIncarnation(final int incarnation)
    {
        buffer.putInt(offset + RECEIVER_INCARNATION_FIELD_OFFSET, (incarnation & 0xFFFF) << 16, BIG_ENDIAN);
        return this;
    }

    /**
     * Length of the payload that follows the header.
     *
     * @return the unsigned 16-bit payload length in bytes.
     */
    public int payloadLength()
    {
        return buffer.getShort(offset + PAYLOAD_LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the length of the payload that follows the header.
     *
     * @param payloadLength unsigned 16-bit length in bytes.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight payloadLength(final int payloadLength)
    {
        buffer.putShort(offset + PAYLOAD_LENGTH_FIELD_OFFSET, (short)payloadLength, BIG_ENDIAN);
        return this;
    }

    /**
     * Number of SACK blocks in an ACK.
     *
     * @return the unsigned 8-bit count.
     */
    public int sackCount()
    {
        return buffer.getByte(offset + SACK_COUNT_FIELD_OFFSET) & 0xFF;
    }

    /**
     * Set the number of SACK blocks; the header length is not changed.
     *
     * @param sackCount 0 to {@link #MAX_SACK_BLOCKS}.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight sackCount(final int sackCount)
    {
        buffer.putByte(offset + SACK_COUNT_FIELD_OFFSET, (byte)sackCount);
        return this;
    }

    /**
     * Path hint: the spine index to use, valid when {@link #pathFlag()} is set.
     *
     * @return the unsigned 8-bit hint.
     */
    public int pathHint()
    {
        return buffer.getByte(offset + PATH_HINT_FIELD_OFFSET) & 0xFF;
    }

    /**
     * Set the path hint; set {@link #pathFlag(boolean)} too for switches to use it.
     *
     * @param pathHint unsigned 8-bit spine index.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight pathHint(final int pathHint)
    {
        buffer.putByte(offset + PATH_HINT_FIELD_OFFSET, (byte)pathHint);
        return this;
    }

    /**
     * Checksum as stored.
     *
     * @return the unsigned 32-bit CRC32C.
     */
    public long checksum()
    {
        return buffer.getInt(offset + CHECKSUM_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Store a checksum.
     *
     * @param checksum unsigned 32-bit value.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight checksum(final long checksum)
    {
        buffer.putInt(offset + CHECKSUM_FIELD_OFFSET, (int)checksum, BIG_ENDIAN);
        return this;
    }

    /**
     * Start of a SACK block.
     *
     * @param index of the block, 0 to {@link #MAX_SACK_BLOCKS} - 1.
     * @return the unsigned 32-bit first byte of the block.
     */
    public long sackStart(final int index)
    {
        return buffer.getInt(sackBlockOffset(index), BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * End of a SACK block.
     *
     * @param index of the block, 0 to {@link #MAX_SACK_BLOCKS} - 1.
     * @return the unsigned 32-bit byte after the last byte of the block.
     */
    public long sackEnd(final int index)
    {
        return buffer.getInt(sackBlockOffset(index) + 4, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Set a SACK block; the count and header length are not changed.
     *
     * @param index of the block, 0 to {@link #MAX_SACK_BLOCKS} - 1.
     * @param start unsigned 32-bit first byte of the block.
     * @param end   unsigned 32-bit byte after the last byte of the block.
     * @return this for a fluent API.
     */
    public PfabricHeaderFlyweight sackBlock(final int index, final long start, final long end)
    {
        final int blockOffset = sackBlockOffset(index);
        buffer.putInt(blockOffset, (int)start, BIG_ENDIAN);
        buffer.putInt(blockOffset + 4, (int)end, BIG_ENDIAN);
        return this;
    }

    /**
     * Compute the CRC32C of header length + payload length bytes with the checksum field taken as zero, and store
     * it. The header length field must already be set.
     *
     * @param payloadLength bytes of payload after the header covered by the checksum.
     * @return this for a fluent API.
     * @throws IllegalStateException     if the header length field is below {@link #HEADER_LENGTH}.
     * @throws IndexOutOfBoundsException if the covered bytes run past the end of the buffer.
     */
    public PfabricHeaderFlyweight computeChecksum(final int payloadLength)
    {
        final int headerLength = headerLength();
        if (headerLength < HEADER_LENGTH)
        {
            throw new IllegalStateException("pFabric header length field below 32");
        }
        if (payloadLength < 0)
        {
            throw new IllegalArgumentException("negative payload length");
        }
        final int length = headerLength + payloadLength;
        buffer.boundsCheck(offset, length);
        return checksum(crc32c(length));
    }

    /**
     * Verify the checksum over header length + payload length bytes, both taken from the header.
     *
     * On an off-heap buffer the checksum field is transiently zeroed, so no other thread may read the packet
     * meanwhile.
     *
     * @return true if the stored checksum matches; false if it does not, or if the lengths are invalid or run past
     * the end of the buffer.
     */
    public boolean checksumValid()
    {
        final int headerLength = headerLength();
        final int length = headerLength + payloadLength();
        if (headerLength < HEADER_LENGTH || offset < 0 || length > buffer.capacity() - offset)
        {
            return false;
        }
        return checksum() == crc32c(length);
    }

    /**
     * Read the priority of a pFabric header without wrapping it.
     *
     * @param buffer        holding the packet.
     * @param pfabricOffset of the pFabric header in the buffer.
     * @return the unsigned 32-bit priority.
     */
    public static long priority(final DirectBuffer buffer, final int pfabricOffset)
    {
        return buffer.getInt(pfabricOffset + PRIORITY_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Read the priority of a frame at a fixed offset, without parsing it. Right only for frames known to carry
     * pFabric in IPv4 without options; use {@link FrameParser#priority()} otherwise.
     *
     * @param buffer              holding the frame.
     * @param frameOffset         of the Ethernet header in the buffer.
     * @param priorityFrameOffset {@link #PRIORITY_FRAME_OFFSET_IP} or {@link #PRIORITY_FRAME_OFFSET_UDP}.
     * @return the unsigned 32-bit priority.
     */
    public static long priorityAtFrameOffset(
        final DirectBuffer buffer, final int frameOffset, final int priorityFrameOffset)
    {
        return buffer.getInt(frameOffset + priorityFrameOffset, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * Read the flow id of a pFabric header without wrapping it.
     *
     * @param buffer        holding the packet.
     * @param pfabricOffset of the pFabric header in the buffer.
     * @return the flow id.
     */
    public static long flowId(final DirectBuffer buffer, final int pfabricOffset)
    {
        return buffer.getLong(pfabricOffset + FLOW_ID_FIELD_OFFSET, BIG_ENDIAN);
    }

    /**
     * Read the type of a pFabric header without wrapping it.
     *
     * @param buffer        holding the packet.
     * @param pfabricOffset of the pFabric header in the buffer.
     * @return the type nibble.
     */
    public static int type(final DirectBuffer buffer, final int pfabricOffset)
    {
        return buffer.getByte(pfabricOffset + VERSION_TYPE_FIELD_OFFSET) & 0xF;
    }

    /**
     * Make a flow id: the source host's index in the topology (16 bits), the sender's incarnation (16 bits, one per
     * start of its transport, so that a restarted sender's flows never take the ids of its earlier ones) and its flow
     * counter (32 bits).
     *
     * @param hostId      of the source host; its low 16 bits are used.
     * @param incarnation of the sending transport; its low 16 bits are used.
     * @param counter     per-incarnation flow counter; its low 32 bits are used.
     * @return {@code hostId << 48 | incarnation << 32 | counter}.
     */
    public static long flowId(final int hostId, final int incarnation, final long counter)
    {
        return ((hostId & 0xFFFFL) << 48) | ((incarnation & 0xFFFFL) << 32) | (counter & 0xFFFF_FFFFL);
    }

    /**
     * Source host id of a flow id.
     *
     * @param flowId as made by {@link #flowId(int, int, long)}.
     * @return the unsigned 16-bit host id.
     */
    public static int hostId(final long flowId)
    {
        return (int)(flowId >>> 48);
    }

    /**
     * Sender's incarnation of a flow id.
     *
     * @param flowId as made by {@link #flowId(int, int, long)}.
     * @return the unsigned 16-bit incarnation.
     */
    public static int incarnation(final long flowId)
    {
        return (int)(flowId >>> 32) & 0xFFFF;
    }

    /**
     * Per-incarnation flow counter of a flow id.
     *
     * @param flowId as made by {@link #flowId(int, int, long)}.
     * @return the unsigned 32-bit counter.
     */
    public static long flowCounter(final long flowId)
    {
        return flowId & 0xFFFF_FFFFL;
    }

    /**
     * Saturate a priority number to the range of the field.
     *
     * @param priority any value.
     * @return 0 for negative values, {@link #MAX_PRIORITY} for values above it, else the value.
     */
    public static long saturatePriority(final long priority)
    {
        return priority < 0 ? 0 : Math.min(priority, MAX_PRIORITY);
    }

    private int sackBlockOffset(final int index)
    {
        if (index < 0 || index >= MAX_SACK_BLOCKS)
        {
            throw new IndexOutOfBoundsException(index);
        }
        return offset + SACK_BLOCKS_FIELD_OFFSET + index * SACK_BLOCK_LENGTH;
    }

    private long crc32c(final int length)
    {
        final byte[] array = buffer.byteArray();
        if (null != array)
        {
            final int base = buffer.wrapAdjustment() + offset;
            crc32c.reset();
            crc32c.update(array, base, CHECKSUM_FIELD_OFFSET);
            crc32c.update(ZERO_CHECKSUM, 0, CHECKSUM_LENGTH);
            crc32c.update(array, base + CHECKSUM_END, length - CHECKSUM_END);
            return crc32c.getValue();
        }
        if (useAddressCrc32c)
        {
            final int index = offset + CHECKSUM_FIELD_OFFSET;
            final int stored = buffer.getInt(index, BIG_ENDIAN);
            buffer.putInt(index, 0, BIG_ENDIAN);
            final int crc = Crc32c.INSTANCE.compute(buffer.addressOffset(), offset, length);
            buffer.putInt(index, stored, BIG_ENDIAN);
            return crc & 0xFFFF_FFFFL;
        }
        return copyingCrc32c(length);
    }

    private long copyingCrc32c(final int length)
    {
        crc32c.reset();
        int position = 0;
        while (position < length)
        {
            final int chunk = Math.min(scratch.length, length - position);
            buffer.getBytes(offset + position, scratch, 0, chunk);
            if (0 == position)
            {
                System.arraycopy(ZERO_CHECKSUM, 0, scratch, CHECKSUM_FIELD_OFFSET, CHECKSUM_LENGTH);
            }
            crc32c.update(scratch, 0, chunk);
            position += chunk;
        }
        return crc32c.getValue();
    }

    private static boolean probeAddressCrc32c()
    {
        final byte[] bytes = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
        final CRC32C reference = new CRC32C();
        reference.update(bytes, 0, bytes.length);
        try
        {
            final UnsafeBuffer probe = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.length));
            probe.putBytes(0, bytes);
            return (int)reference.getValue() == Crc32c.INSTANCE.compute(probe.addressOffset(), 0, bytes.length);
        }
        catch (final LinkageError | RuntimeException ex)
        {
            return false;
        }
    }
}
