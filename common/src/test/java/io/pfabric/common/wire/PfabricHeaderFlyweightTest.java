package io.pfabric.common.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PfabricHeaderFlyweightTest
{
    private static final long U32_MAX = 0xFFFF_FFFFL;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();

    @Test
    void shouldRoundTripEveryFieldOfAnAckWithFourSackBlocks()
    {
        header.wrap(buffer, 42)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(PfabricHeaderFlyweight.TYPE_ACK)
            .flags(0)
            .pathFlag(true)
            .finFlag(true)
            .headerLength(PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH)
            .priority(U32_MAX)
            .flowId(-1L)
            .ack(U32_MAX)
            .flowSize(U32_MAX)
            .payloadLength(0xFFFF)
            .sackCount(PfabricHeaderFlyweight.MAX_SACK_BLOCKS)
            .pathHint(255)
            .checksum(U32_MAX);
        for (int i = 0; i < PfabricHeaderFlyweight.MAX_SACK_BLOCKS; i++)
        {
            header.sackBlock(i, U32_MAX - 2 * i - 1, U32_MAX - 2 * i);
        }

        assertEquals(42, header.offset());
        assertEquals(1, header.version());
        assertEquals(PfabricHeaderFlyweight.TYPE_ACK, header.type());
        assertEquals(0x03, header.flags());
        assertTrue(header.pathFlag());
        assertTrue(header.finFlag());
        assertEquals(64, header.headerLength());
        assertEquals(U32_MAX, header.priority());
        assertEquals(-1L, header.flowId());
        assertEquals(U32_MAX, header.ack());
        assertEquals(U32_MAX, header.segmentOffset());
        assertEquals(U32_MAX, header.flowSize());
        assertEquals(0xFFFF, header.payloadLength());
        assertEquals(4, header.sackCount());
        assertEquals(255, header.pathHint());
        assertEquals(U32_MAX, header.checksum());
        for (int i = 0; i < PfabricHeaderFlyweight.MAX_SACK_BLOCKS; i++)
        {
            assertEquals(U32_MAX - 2 * i - 1, header.sackStart(i));
            assertEquals(U32_MAX - 2 * i, header.sackEnd(i));
        }
    }

    @Test
    void shouldRoundTripEveryFieldOfADataSegment()
    {
        final long flowId = PfabricHeaderFlyweight.flowId(0xFFFE, 0xFFFD, 0xFFFF_FFFFL);
        header.wrap(buffer, 0)
            .type(PfabricHeaderFlyweight.TYPE_DATA)
            .version(PfabricHeaderFlyweight.VERSION)
            .flags(PfabricHeaderFlyweight.FLAG_FIN)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH)
            .priority(0)
            .flowId(flowId)
            .segmentOffset(1_460)
            .flowSize(0)
            .payloadLength(1_460)
            .sackCount(0)
            .pathHint(3)
            .checksum(0);

        assertEquals(1, header.version());
        assertEquals(PfabricHeaderFlyweight.TYPE_DATA, header.type());
        assertFalse(header.pathFlag());
        assertTrue(header.finFlag());
        assertEquals(32, header.headerLength());
        assertEquals(0, header.priority());
        assertEquals(flowId, header.flowId());
        assertEquals(0xFFFE, PfabricHeaderFlyweight.hostId(flowId));
        assertEquals(0xFFFD, PfabricHeaderFlyweight.incarnation(flowId));
        assertEquals(0xFFFF_FFFFL, PfabricHeaderFlyweight.flowCounter(flowId));
        assertEquals(1_460, header.segmentOffset());
        assertEquals(0, header.flowSize());
        assertEquals(1_460, header.payloadLength());
        assertEquals(0, header.sackCount());
        assertEquals(3, header.pathHint());
        assertEquals(0, header.checksum());

        header.finFlag(false).pathFlag(true);
        assertEquals(PfabricHeaderFlyweight.FLAG_PATH, header.flags());
        header.pathFlag(false);
        assertEquals(0, header.flags());
        header.type(PfabricHeaderFlyweight.TYPE_CONTROL);
        assertEquals(1, header.version());
    }

    @Test
    void shouldSaturatePriority()
    {
        header.wrap(buffer, 0);

        assertEquals(U32_MAX, header.priority(U32_MAX + 1).priority());
        assertEquals(U32_MAX, header.priority(Long.MAX_VALUE).priority());
        assertEquals(0, header.priority(-1).priority());
        assertEquals(0, header.priority(Long.MIN_VALUE).priority());
        assertEquals(U32_MAX - 1, header.priority(U32_MAX - 1).priority());
        assertEquals(0x8000_0000L, header.priority(0x8000_0000L).priority());
        assertEquals(PfabricHeaderFlyweight.MAX_PRIORITY, PfabricHeaderFlyweight.saturatePriority(1L << 40));
    }

    @Test
    void shouldMakeAndSplitFlowIds()
    {
        final long flowId = PfabricHeaderFlyweight.flowId(7, 3, 42);

        assertEquals((7L << 48) | (3L << 32) | 42, flowId);
        assertEquals(7, PfabricHeaderFlyweight.hostId(flowId));
        assertEquals(3, PfabricHeaderFlyweight.incarnation(flowId));
        assertEquals(42, PfabricHeaderFlyweight.flowCounter(flowId));
        assertEquals(0xFFFF, PfabricHeaderFlyweight.hostId(PfabricHeaderFlyweight.flowId(-1, 0, 0)));
        assertEquals(0xFFFF, PfabricHeaderFlyweight.incarnation(PfabricHeaderFlyweight.flowId(0, -1, 0)));
        assertEquals(0, PfabricHeaderFlyweight.hostId(PfabricHeaderFlyweight.flowId(0, -1, -1)),
            "incarnation and counter never reach the host's bits");
        assertEquals(1, PfabricHeaderFlyweight.flowId(0, 0, (5L << 32) | 1), "counter keeps its low 32 bits");
    }

    @Test
    void shouldReadWithStaticAccessors()
    {
        header.wrap(buffer, 10).type(PfabricHeaderFlyweight.TYPE_PROBE).priority(U32_MAX).flowId(99);

        assertEquals(U32_MAX, PfabricHeaderFlyweight.priority(buffer, 10));
        assertEquals(99, PfabricHeaderFlyweight.flowId(buffer, 10));
        assertEquals(PfabricHeaderFlyweight.TYPE_PROBE, PfabricHeaderFlyweight.type(buffer, 10));
    }

    @Test
    void shouldRejectSackIndexOutsideTheHeader()
    {
        header.wrap(buffer, 0);

        assertThrows(IndexOutOfBoundsException.class, () -> header.sackStart(PfabricHeaderFlyweight.MAX_SACK_BLOCKS));
        assertThrows(IndexOutOfBoundsException.class, () -> header.sackEnd(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> header.sackBlock(4, 0, 0));
    }

    @Test
    void shouldDetectCorruptedPayloadOnHeapBuffer()
    {
        shouldDetectCorruption(new UnsafeBuffer(new byte[2048]), new PfabricHeaderFlyweight());
    }

    @Test
    void shouldDetectCorruptedPayloadOnOffHeapBuffer()
    {
        shouldDetectCorruption(new UnsafeBuffer(ByteBuffer.allocateDirect(2048)), new PfabricHeaderFlyweight());
    }

    @Test
    void shouldDetectCorruptedPayloadOnSlicedHeapByteBuffer()
    {
        final ByteBuffer slice = ByteBuffer.wrap(new byte[2100], 37, 2048).slice();
        shouldDetectCorruption(new UnsafeBuffer(slice), new PfabricHeaderFlyweight());
    }

    @Test
    void shouldDetectCorruptedPayloadOnOffHeapBufferWithCopyingFallback()
    {
        shouldDetectCorruption(new UnsafeBuffer(ByteBuffer.allocateDirect(2048)), new PfabricHeaderFlyweight(false));
    }

    @Test
    void shouldUseCopyFreeAddressPathOnOffHeapBuffersWhenJavaUtilZipIsOpen()
    {
        assertTrue(new PfabricHeaderFlyweight().usesAddressCrc32c());
        assertFalse(new PfabricHeaderFlyweight(false).usesAddressCrc32c());
    }

    @Test
    void shouldComputeTheSameChecksumOnEveryKindOfBuffer()
    {
        final MutableDirectBuffer[] buffers =
        {
            new UnsafeBuffer(new byte[2048]),
            new UnsafeBuffer(ByteBuffer.allocateDirect(2048)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(2048)),
            new UnsafeBuffer(ByteBuffer.wrap(new byte[2100], 11, 2048).slice()),
        };
        final PfabricHeaderFlyweight[] flyweights =
        {
            new PfabricHeaderFlyweight(),
            new PfabricHeaderFlyweight(),
            new PfabricHeaderFlyweight(false),
            new PfabricHeaderFlyweight(),
        };

        for (final int payloadLength : new int[]{ 0, 1, 479, 480, 481, 1_460 })
        {
            final long expected = writeDataSegment(buffer, header, 3, payloadLength);
            for (int i = 0; i < buffers.length; i++)
            {
                final long actual = writeDataSegment(buffers[i], flyweights[i], 3, payloadLength);
                assertEquals(expected, actual, "buffer " + i + ", payload " + payloadLength);
                assertTrue(flyweights[i].checksumValid());
            }
        }
    }

    @Test
    void shouldMatchReferenceCrc32cWithChecksumFieldZeroed()
    {
        final int payloadLength = 100;
        final long checksum = writeDataSegment(buffer, header, 5, payloadLength);
        final byte[] copy = new byte[PfabricHeaderFlyweight.HEADER_LENGTH + payloadLength];
        buffer.getBytes(5, copy);
        copy[28] = 0;
        copy[29] = 0;
        copy[30] = 0;
        copy[31] = 0;
        final CRC32C reference = new CRC32C();
        reference.update(copy, 0, copy.length);

        assertEquals(reference.getValue(), checksum);
    }

    @Test
    void shouldCoverSackBlocksInChecksum()
    {
        final TestFrames frames = new TestFrames(buffer);
        final int end = frames.pfabric(0, PfabricHeaderFlyweight.TYPE_ACK, 4, 0);
        header.wrap(buffer, 0);
        assertEquals(PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH, end);
        assertTrue(header.checksumValid());

        header.sackBlock(3, header.sackStart(3), header.sackEnd(3) + 1);
        assertFalse(header.checksumValid());
    }

    @Test
    void shouldRejectChecksumWhenLengthsAreInvalid()
    {
        final UnsafeBuffer small = new UnsafeBuffer(new byte[64]);
        header.wrap(small, 0).headerLength(PfabricHeaderFlyweight.HEADER_LENGTH).payloadLength(33);
        assertFalse(header.checksumValid());
        assertThrows(IndexOutOfBoundsException.class, () -> header.computeChecksum(33));

        header.headerLength(31).payloadLength(0);
        assertFalse(header.checksumValid());
        assertThrows(IllegalStateException.class, () -> header.computeChecksum(0));
    }

    private static void shouldDetectCorruption(final MutableDirectBuffer buffer, final PfabricHeaderFlyweight header)
    {
        final int offset = 7;
        final int payloadLength = 1_200;
        writeDataSegment(buffer, header, offset, payloadLength);
        final byte[] before = new byte[PfabricHeaderFlyweight.HEADER_LENGTH + payloadLength];
        buffer.getBytes(offset, before);
        assertTrue(header.checksumValid());
        final byte[] after = new byte[before.length];
        buffer.getBytes(offset, after);
        assertArrayEquals(before, after, "verification leaves the packet as it was");

        for (final int index : new int[]{ 32, 33, 700, 32 + payloadLength - 1, 0, 4, 27, 28, 31 })
        {
            final byte original = buffer.getByte(offset + index);
            buffer.putByte(offset + index, (byte)(original ^ 0x10));
            assertFalse(header.checksumValid(), "byte " + index);
            buffer.putByte(offset + index, original);
            assertTrue(header.checksumValid());
        }
    }

    private static long writeDataSegment(
        final MutableDirectBuffer buffer,
        final PfabricHeaderFlyweight header,
        final int offset,
        final int payloadLength)
    {
        header.wrap(buffer, offset)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(PfabricHeaderFlyweight.TYPE_DATA)
            .flags(0)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH)
            .priority(5_000)
            .flowId(PfabricHeaderFlyweight.flowId(1, 0, 2))
            .segmentOffset(0)
            .flowSize(5_000)
            .payloadLength(payloadLength)
            .sackCount(0)
            .pathHint(0)
            .checksum(0xDEAD_BEEFL);
        for (int i = 0; i < payloadLength; i++)
        {
            buffer.putByte(offset + PfabricHeaderFlyweight.HEADER_LENGTH + i, (byte)(i * 7 + 3));
        }
        return header.computeChecksum(payloadLength).checksum();
    }
}
