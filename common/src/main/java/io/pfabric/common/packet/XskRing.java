package io.pfabric.common.packet;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One of an AF_XDP socket's four rings, as the kernel maps it: a producer index, a consumer index, a flags word and a
 * power-of-two array of entries (UMEM addresses of 8 bytes for the fill and completion rings, {@code xdp_desc}
 * descriptors of 16 for the receive and transmit rings). The indices are free-running 32-bit counters that wrap; an
 * entry's slot is its index masked by the size. This process is the producer of the fill and transmit rings and the
 * consumer of the receive and completion rings, and keeps a cached copy of both indices so that it reads the
 * kernel's only when the cached one says the ring is empty (or full). Single-threaded.
 */
final class XskRing
{
    /**
     * Length of a fill or completion ring entry: a UMEM address.
     */
    static final int ADDRESS_ENTRY_LENGTH = 8;

    /**
     * Length of a receive or transmit ring entry: {@code struct xdp_desc} (address, length, options).
     */
    static final int DESCRIPTOR_ENTRY_LENGTH = 16;

    /**
     * The flag the kernel sets when it wants a system call to go on with the ring ({@code XDP_RING_NEED_WAKEUP}).
     */
    static final int NEED_WAKEUP = 1;

    private static final int DESCRIPTOR_LENGTH_OFFSET = 8;
    private static final int DESCRIPTOR_OPTIONS_OFFSET = 12;

    final int size;
    private final int mask;
    private final int entryShift;
    private final UnsafeBuffer producer;
    private final UnsafeBuffer consumer;
    private final UnsafeBuffer flags;
    private final UnsafeBuffer entries;
    private int cachedProducer;
    private int cachedConsumer;
    private int index;

    private XskRing(
        final int size,
        final int entryLength,
        final UnsafeBuffer producer,
        final UnsafeBuffer consumer,
        final UnsafeBuffer flags,
        final UnsafeBuffer entries,
        final boolean producerSide)
    {
        if (size < 1 || 0 != (size & (size - 1)))
        {
            throw new IllegalArgumentException("ring size must be a power of two: " + size);
        }
        if (entries.capacity() < size * entryLength)
        {
            throw new IllegalArgumentException("ring memory of " + entries.capacity() + " bytes is shorter than " +
                size + " entries of " + entryLength);
        }
        this.size = size;
        this.mask = size - 1;
        this.entryShift = Integer.numberOfTrailingZeros(entryLength);
        this.producer = producer;
        this.consumer = consumer;
        this.flags = flags;
        this.entries = entries;
        cachedProducer = producer.getIntVolatile(0);
        // A producer keeps its cached consumer one ring ahead, so that free entries are one subtraction.
        cachedConsumer = consumer.getIntVolatile(0) + (producerSide ? size : 0);
    }

    /**
     * A ring this process fills (fill, transmit).
     *
     * @param size        entries, a power of two.
     * @param entryLength {@link #ADDRESS_ENTRY_LENGTH} or {@link #DESCRIPTOR_ENTRY_LENGTH}.
     * @param producer    the producer index, 4 bytes.
     * @param consumer    the consumer index, 4 bytes.
     * @param flags       the flags word, 4 bytes.
     * @param entries     the entries.
     * @return the ring.
     */
    static XskRing producer(
        final int size, final int entryLength, final UnsafeBuffer producer, final UnsafeBuffer consumer,
        final UnsafeBuffer flags, final UnsafeBuffer entries)
    {
        return new XskRing(size, entryLength, producer, consumer, flags, entries, true);
    }

    /**
     * A ring this process empties (receive, completion).
     *
     * @param size        entries, a power of two.
     * @param entryLength {@link #ADDRESS_ENTRY_LENGTH} or {@link #DESCRIPTOR_ENTRY_LENGTH}.
     * @param producer    the producer index, 4 bytes.
     * @param consumer    the consumer index, 4 bytes.
     * @param flags       the flags word, 4 bytes.
     * @param entries     the entries.
     * @return the ring.
     */
    static XskRing consumer(
        final int size, final int entryLength, final UnsafeBuffer producer, final UnsafeBuffer consumer,
        final UnsafeBuffer flags, final UnsafeBuffer entries)
    {
        return new XskRing(size, entryLength, producer, consumer, flags, entries, false);
    }

    /**
     * Entries free for the producer, reading the kernel's consumer index only if the cached one shows fewer than
     * wanted.
     *
     * @param wanted entries the caller needs.
     * @return free entries.
     */
    int free(final int wanted)
    {
        final int free = cachedConsumer - cachedProducer;
        if (free >= wanted)
        {
            return free;
        }
        cachedConsumer = consumer.getIntVolatile(0) + size;
        return cachedConsumer - cachedProducer;
    }

    /**
     * Reserve entries to produce; their first index is then {@link #index()}.
     *
     * @param count entries.
     * @return count, or 0 if fewer are free (nothing reserved).
     */
    int reserve(final int count)
    {
        if (free(count) < count)
        {
            return 0;
        }
        index = cachedProducer;
        cachedProducer += count;
        return count;
    }

    /**
     * Hand reserved and written entries to the kernel.
     *
     * @param count entries, from the oldest reserved.
     */
    void submit(final int count)
    {
        producer.putIntRelease(0, producer.getInt(0) + count);
    }

    /**
     * Entries the kernel has produced and this process not yet taken, up to a limit, reading the kernel's producer
     * index only when the cached one shows none.
     *
     * @param limit most entries.
     * @return available entries.
     */
    int available(final int limit)
    {
        int entries = cachedProducer - cachedConsumer;
        if (0 == entries)
        {
            cachedProducer = producer.getIntVolatile(0);
            entries = cachedProducer - cachedConsumer;
        }
        return Math.min(entries, limit);
    }

    /**
     * Take produced entries; their first index is then {@link #index()}. Read them, then {@link #release(int)}.
     *
     * @param limit most entries.
     * @return entries taken.
     */
    int peek(final int limit)
    {
        final int entries = available(limit);
        if (entries > 0)
        {
            index = cachedConsumer;
            cachedConsumer += entries;
        }
        return entries;
    }

    /**
     * Give taken entries back to the kernel.
     *
     * @param count entries, from the oldest taken.
     */
    void release(final int count)
    {
        consumer.putIntRelease(0, consumer.getInt(0) + count);
    }

    /**
     * Whether the kernel's producer index differs from the consumer's: entries wait (a consumer ring), or the kernel
     * has not yet taken all that was submitted (a producer ring).
     *
     * @return true if the ring is not empty.
     */
    boolean pending()
    {
        return producer.getIntVolatile(0) != consumer.getIntVolatile(0);
    }

    /**
     * The first index of the last {@link #reserve(int)} or {@link #peek(int)}.
     *
     * @return the index; entries follow it.
     */
    int index()
    {
        return index;
    }

    /**
     * Whether the kernel asks for a system call to go on with the ring.
     *
     * @return true if {@link #NEED_WAKEUP} is set.
     */
    boolean needsWakeup()
    {
        return 0 != (flags.getIntVolatile(0) & NEED_WAKEUP);
    }

    /**
     * A fill or completion entry.
     *
     * @param entryIndex free-running index.
     * @return the UMEM address.
     */
    long address(final int entryIndex)
    {
        return entries.getLong((entryIndex & mask) << entryShift);
    }

    /**
     * Write a fill or completion entry.
     *
     * @param entryIndex free-running index.
     * @param address    UMEM address.
     */
    void putAddress(final int entryIndex, final long address)
    {
        entries.putLong((entryIndex & mask) << entryShift, address);
    }

    /**
     * A descriptor's UMEM address.
     *
     * @param entryIndex free-running index.
     * @return the address of the frame's first byte.
     */
    long descriptorAddress(final int entryIndex)
    {
        return entries.getLong((entryIndex & mask) << entryShift);
    }

    /**
     * A descriptor's frame length.
     *
     * @param entryIndex free-running index.
     * @return bytes.
     */
    int descriptorLength(final int entryIndex)
    {
        return entries.getInt(((entryIndex & mask) << entryShift) + DESCRIPTOR_LENGTH_OFFSET);
    }

    /**
     * Write a descriptor, with no options.
     *
     * @param entryIndex free-running index.
     * @param address    UMEM address of the frame's first byte.
     * @param length     bytes.
     */
    void putDescriptor(final int entryIndex, final long address, final int length)
    {
        final int at = (entryIndex & mask) << entryShift;
        entries.putLong(at, address);
        entries.putInt(at + DESCRIPTOR_LENGTH_OFFSET, length);
        entries.putInt(at + DESCRIPTOR_OPTIONS_OFFSET, 0);
    }
}
