package io.pfabric.common.packet;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ring index arithmetic over plain memory, the test playing the kernel's side: free and available entries,
 * reserve and peek, submit and release, across the wrap of the 32-bit indices.
 */
class XskRingTest
{
    private static final int SIZE = 8;

    private final UnsafeBuffer producer = new UnsafeBuffer(ByteBuffer.allocateDirect(4));
    private final UnsafeBuffer consumer = new UnsafeBuffer(ByteBuffer.allocateDirect(4));
    private final UnsafeBuffer flags = new UnsafeBuffer(ByteBuffer.allocateDirect(4));
    private final UnsafeBuffer entries =
        new UnsafeBuffer(ByteBuffer.allocateDirect(SIZE * XskRing.DESCRIPTOR_ENTRY_LENGTH));

    private void startAt(final int index)
    {
        producer.putInt(0, index);
        consumer.putInt(0, index);
    }

    @Test
    void aProducerFillsTheRingAcrossTheWrapAndWaitsForTheKernelToConsume()
    {
        startAt(-3);
        final XskRing fill = XskRing.producer(SIZE, XskRing.ADDRESS_ENTRY_LENGTH, producer, consumer, flags, entries);
        assertEquals(SIZE, fill.free(1));
        assertEquals(5, fill.reserve(5));
        assertEquals(-3, fill.index());
        for (int i = 0; i < 5; i++)
        {
            fill.putAddress(fill.index() + i, 1000 + i);
        }
        fill.submit(5);
        assertEquals(2, producer.getInt(0), "the producer index wrapped past zero");
        assertEquals(3, fill.reserve(3));
        assertEquals(2, fill.index());
        for (int i = 0; i < 3; i++)
        {
            fill.putAddress(fill.index() + i, 2000 + i);
        }
        fill.submit(3);
        assertEquals(0, fill.reserve(1), "eight entries in an eight-entry ring: full");
        assertEquals(0, fill.free(1));

        // The kernel takes three: from slot (-3 & 7) = 5 on.
        assertEquals(1000, entries.getLong(5 * 8));
        assertEquals(1003, entries.getLong(0));
        assertEquals(2000, entries.getLong(2 * 8));
        consumer.putInt(0, 0);
        assertEquals(3, fill.free(1), "the kernel's consumer index read again once the cached one showed it full");
        assertEquals(3, fill.reserve(3));
        assertEquals(5, fill.index());
        fill.putAddress(fill.index(), 3000);
        assertEquals(3000, entries.getLong(5 * 8), "index 5 reuses the slot of index -3");
    }

    @Test
    void aConsumerTakesWhatTheKernelProducedAcrossTheWrapAndReleasesIt()
    {
        startAt(Integer.MAX_VALUE - 1);
        final XskRing rx = XskRing.consumer(SIZE, XskRing.DESCRIPTOR_ENTRY_LENGTH, producer, consumer, flags, entries);
        assertEquals(0, rx.peek(32));
        assertFalse(rx.pending());

        for (int i = 0; i < 6; i++)
        {
            final int slot = (Integer.MAX_VALUE - 1 + i) & (SIZE - 1);
            entries.putLong(slot * 16, 4096L * i + 256);
            entries.putInt(slot * 16 + 8, 60 + i);
        }
        producer.putInt(0, Integer.MAX_VALUE - 1 + 6);
        assertTrue(rx.pending());
        assertEquals(4, rx.peek(4), "at most the limit");
        assertEquals(Integer.MAX_VALUE - 1, rx.index());
        assertEquals(256, rx.descriptorAddress(rx.index()));
        assertEquals(63, rx.descriptorLength(rx.index() + 3));
        assertEquals(2, rx.peek(32), "the rest, past the signed overflow of the index");
        assertEquals(Integer.MIN_VALUE + 2, rx.index());
        assertEquals(4096L * 5 + 256, rx.descriptorAddress(rx.index() + 1));
        assertEquals(0, rx.peek(32));
        rx.release(6);
        assertEquals(Integer.MIN_VALUE + 4, consumer.getInt(0));
        assertFalse(rx.pending());
    }

    @Test
    void aTransmitDescriptorIsWrittenWholeAndTheWakeupFlagRead()
    {
        startAt(0);
        final XskRing tx = XskRing.producer(SIZE, XskRing.DESCRIPTOR_ENTRY_LENGTH, producer, consumer, flags, entries);
        entries.setMemory(0, entries.capacity(), (byte)0x5A);
        assertEquals(1, tx.reserve(1));
        tx.putDescriptor(tx.index(), 8192, 1514);
        assertEquals(8192, entries.getLong(0));
        assertEquals(1514, entries.getInt(8));
        assertEquals(0, entries.getInt(12), "no options");
        assertFalse(tx.pending(), "nothing submitted yet");
        tx.submit(1);
        assertTrue(tx.pending(), "submitted, not yet taken by the kernel");
        assertFalse(tx.needsWakeup());
        flags.putInt(0, XskRing.NEED_WAKEUP);
        assertTrue(tx.needsWakeup());
    }
}
