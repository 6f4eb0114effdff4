package io.pfabric.common.control;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over a control message between hosts and the controller, one UDP datagram:
 * <pre>
 *   0  magic u16 (0x5043)  | version u8 (1) | type u8 (DEMAND, OFFER, GRANTS, RATES)
 *   4  host u16 (the host it is from, or for) | entry count u16
 *   8  sequence u64: strictly increasing per sender and epoch
 *  16  epoch u64: the sender's start, ns since the Unix epoch; a newer epoch restarts the receiver's window
 *  24  entries, 16 bytes each: peer u16 | spine u8 | flags u8 | extra u32 | value u64
 *  ..  HMAC-SHA256 of everything before it, 32 bytes
 * </pre>
 * The values are cumulative or absolute, never deltas, so that a lost or duplicated message is repaired by the next:
 * DEMAND carries the slots ever requested toward a peer; OFFER the offered rate in bits per second; GRANTS one entry
 * per granted slot (value = slot number, spine = path) plus, with {@link #FLAG_TOTAL}, the slots ever granted toward
 * a peer; RATES the rate granted toward a peer in bits per second. Every GRANTS message from the controller starts
 * with a {@link #FLAG_CLOCK} entry that says when its slots begin: value = the start of slot 0 on the controller's
 * monotonic clock in ns, extra = the slot length in ns. {@code extra} is 0 in every other entry.
 */
public final class ControlMessageFlyweight
{
    /**
     * The first two bytes of every message.
     */
    public static final int MAGIC = 0x5043;

    /**
     * The format's version.
     */
    public static final int VERSION = 1;

    /**
     * Host to controller, SYN: cumulative slots requested per destination.
     */
    public static final int TYPE_DEMAND = 1;

    /**
     * Host to controller, ASY: offered rate per destination.
     */
    public static final int TYPE_OFFER = 2;

    /**
     * Controller to host, SYN: granted slots, and cumulative grants per destination.
     */
    public static final int TYPE_GRANTS = 3;

    /**
     * Controller to host, ASY: granted rate per destination.
     */
    public static final int TYPE_RATES = 4;

    /**
     * Entry flag of a GRANTS entry whose value is the cumulative count of slots granted toward the peer.
     */
    public static final int FLAG_TOTAL = 0x01;

    /**
     * GRANTS entry flag: the controller's slot clock, value = start of slot 0 in ns on its monotonic clock
     * ({@code System.nanoTime}, CLOCK_MONOTONIC), {@link #entryExtra extra} = slot length in ns.
     */
    public static final int FLAG_CLOCK = 0x02;

    /**
     * The spine of a GRANTS entry whose slot stays within one leaf: no path hint.
     */
    public static final int NO_SPINE = 0xFF;

    /**
     * Bytes before the entries.
     */
    public static final int HEADER_LENGTH = 24;

    /**
     * Bytes of one entry.
     */
    public static final int ENTRY_LENGTH = 16;

    /**
     * Bytes of the HMAC-SHA256 that ends a message.
     */
    public static final int MAC_LENGTH = 32;

    /**
     * Longest message: what one 1500-byte MTU carries in UDP over IPv4.
     */
    public static final int MAX_MESSAGE_LENGTH = 1_472;

    /**
     * Most entries in one message.
     */
    public static final int MAX_ENTRIES = (MAX_MESSAGE_LENGTH - HEADER_LENGTH - MAC_LENGTH) / ENTRY_LENGTH;

    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 2;
    private static final int TYPE_OFFSET = 3;
    private static final int HOST_OFFSET = 4;
    private static final int COUNT_OFFSET = 6;
    private static final int SEQUENCE_OFFSET = 8;
    private static final int EPOCH_OFFSET = 16;
    private static final int ENTRY_PEER_OFFSET = 0;
    private static final int ENTRY_SPINE_OFFSET = 2;
    private static final int ENTRY_FLAGS_OFFSET = 3;
    private static final int ENTRY_EXTRA_OFFSET = 4;
    private static final int ENTRY_VALUE_OFFSET = 8;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * Wrap a message.
     *
     * @param buffer holding it.
     * @param offset of its first byte.
     * @return this.
     */
    public ControlMessageFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * The wrapped buffer.
     *
     * @return the buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Start a message: magic, version, type, host, sequence and epoch, no entries.
     *
     * @param type     {@link #TYPE_DEMAND}, {@link #TYPE_OFFER}, {@link #TYPE_GRANTS} or {@link #TYPE_RATES}.
     * @param host     the host it is from or for.
     * @param sequence the sender's next sequence number.
     * @param epochNs  the sender's epoch.
     * @return this.
     */
    public ControlMessageFlyweight start(final int type, final int host, final long sequence, final long epochNs)
    {
        buffer.putShort(offset + MAGIC_OFFSET, (short)MAGIC, BIG_ENDIAN);
        buffer.putByte(offset + VERSION_OFFSET, (byte)VERSION);
        buffer.putByte(offset + TYPE_OFFSET, (byte)type);
        buffer.putShort(offset + HOST_OFFSET, (short)host, BIG_ENDIAN);
        buffer.putShort(offset + COUNT_OFFSET, (short)0, BIG_ENDIAN);
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, BIG_ENDIAN);
        buffer.putLong(offset + EPOCH_OFFSET, epochNs, BIG_ENDIAN);
        return this;
    }

    /**
     * Append an entry; the caller keeps to {@link #MAX_ENTRIES}.
     *
     * @param peer  the other host.
     * @param spine the path (GRANTS), else 0.
     * @param flags entry flags.
     * @param value the entry's value.
     * @return the index of the entry.
     * @throws IllegalStateException if the message is full.
     */
    public int appendEntry(final int peer, final int spine, final int flags, final long value)
    {
        return appendEntry(peer, spine, flags, 0, value);
    }

    /**
     * Append an entry with its 32-bit extra field (the slot length of a {@link #FLAG_CLOCK} entry); the caller keeps
     * to {@link #MAX_ENTRIES}.
     *
     * @param peer  the other host.
     * @param spine the path (GRANTS), else 0.
     * @param flags entry flags.
     * @param extra unsigned 32 bits.
     * @param value the entry's value.
     * @return the index of the entry.
     * @throws IllegalStateException if the message is full.
     */
    public int appendEntry(final int peer, final int spine, final int flags, final long extra, final long value)
    {
        final int index = entryCount();
        if (index >= MAX_ENTRIES)
        {
            throw new IllegalStateException("a control message holds at most " + MAX_ENTRIES + " entries");
        }
        final int at = entryOffset(index);
        buffer.putShort(at + ENTRY_PEER_OFFSET, (short)peer, BIG_ENDIAN);
        buffer.putByte(at + ENTRY_SPINE_OFFSET, (byte)spine);
        buffer.putByte(at + ENTRY_FLAGS_OFFSET, (byte)flags);
        buffer.putInt(at + ENTRY_EXTRA_OFFSET, (int)extra, BIG_ENDIAN);
        buffer.putLong(at + ENTRY_VALUE_OFFSET, value, BIG_ENDIAN);
        buffer.putShort(offset + COUNT_OFFSET, (short)(index + 1), BIG_ENDIAN);
        return index;
    }

    /**
     * Whether another entry fits.
     *
     * @return true if fewer than {@link #MAX_ENTRIES} are present.
     */
    public boolean hasRoom()
    {
        return entryCount() < MAX_ENTRIES;
    }

    /**
     * Bytes of the message once signed: header, entries and MAC.
     *
     * @return the length.
     */
    public int messageLength()
    {
        return bodyLength() + MAC_LENGTH;
    }

    /**
     * Bytes the MAC covers: header and entries.
     *
     * @return the length.
     */
    public int bodyLength()
    {
        return HEADER_LENGTH + entryCount() * ENTRY_LENGTH;
    }

    /**
     * The magic number as read.
     *
     * @return unsigned 16 bits.
     */
    public int magic()
    {
        return buffer.getShort(offset + MAGIC_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * The version as read.
     *
     * @return unsigned 8 bits.
     */
    public int version()
    {
        return buffer.getByte(offset + VERSION_OFFSET) & 0xFF;
    }

    /**
     * The message type.
     *
     * @return unsigned 8 bits.
     */
    public int type()
    {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    /**
     * The host the message is from or for.
     *
     * @return unsigned 16 bits.
     */
    public int host()
    {
        return buffer.getShort(offset + HOST_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Entries in the message.
     *
     * @return unsigned 16 bits.
     */
    public int entryCount()
    {
        return buffer.getShort(offset + COUNT_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * The sender's sequence number.
     *
     * @return the number.
     */
    public long sequence()
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET, BIG_ENDIAN);
    }

    /**
     * The sender's epoch.
     *
     * @return ns since the Unix epoch at the sender's start.
     */
    public long epochNs()
    {
        return buffer.getLong(offset + EPOCH_OFFSET, BIG_ENDIAN);
    }

    /**
     * An entry's peer host.
     *
     * @param index entry index.
     * @return unsigned 16 bits.
     */
    public int entryPeer(final int index)
    {
        return buffer.getShort(entryOffset(index) + ENTRY_PEER_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * An entry's spine.
     *
     * @param index entry index.
     * @return unsigned 8 bits.
     */
    public int entrySpine(final int index)
    {
        return buffer.getByte(entryOffset(index) + ENTRY_SPINE_OFFSET) & 0xFF;
    }

    /**
     * An entry's flags.
     *
     * @param index entry index.
     * @return unsigned 8 bits.
     */
    public int entryFlags(final int index)
    {
        return buffer.getByte(entryOffset(index) + ENTRY_FLAGS_OFFSET) & 0xFF;
    }

    /**
     * An entry's extra field: the slot length in ns of a {@link #FLAG_CLOCK} entry, else 0.
     *
     * @param index entry index.
     * @return unsigned 32 bits.
     */
    public long entryExtra(final int index)
    {
        return buffer.getInt(entryOffset(index) + ENTRY_EXTRA_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * An entry's value.
     *
     * @param index entry index.
     * @return the value.
     */
    public long entryValue(final int index)
    {
        return buffer.getLong(entryOffset(index) + ENTRY_VALUE_OFFSET, BIG_ENDIAN);
    }

    private int entryOffset(final int index)
    {
        return offset + HEADER_LENGTH + index * ENTRY_LENGTH;
    }
}
