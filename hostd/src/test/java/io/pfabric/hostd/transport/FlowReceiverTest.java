package io.pfabric.hostd.transport;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowReceiverTest
{
    private static final int MSS = 100;

    private final long[] starts = new long[4];
    private final long[] ends = new long[4];

    private static UnsafeBuffer segment(final byte[] message, final int index)
    {
        final int length = Math.min(MSS, message.length - index * MSS);
        final byte[] bytes = new byte[length];
        System.arraycopy(message, index * MSS, bytes, 0, length);
        return new UnsafeBuffer(bytes);
    }

    private static int deliver(final FlowReceiver receiver, final byte[] message, final int index)
    {
        final UnsafeBuffer buffer = segment(message, index);
        return receiver.onData((long)index * MSS, buffer, 0, buffer.capacity());
    }

    private static byte[] message(final int length)
    {
        final byte[] message = new byte[length];
        for (int i = 0; i < length; i++)
        {
            message[i] = (byte)(i * 31 + 7);
        }
        return message;
    }

    @Test
    void reassemblesOutOfOrderSegmentsIntoTheMessage()
    {
        final byte[] message = message(1_050);
        final FlowReceiver receiver = new FlowReceiver(1, 2, message.length, MSS, true);
        for (final int index : new int[]{ 3, 0, 10, 7, 1, 2, 9, 4, 8, 6, 5 })
        {
            assertFalse(receiver.isComplete());
            assertEquals(FlowReceiver.NEW, deliver(receiver, message, index));
        }
        assertTrue(receiver.isComplete());
        assertEquals(message.length, receiver.cumulativeAckBytes());
        assertArrayEquals(message, receiver.message().toArray());
    }

    @Test
    void theCompleteMessagesArrayIsHandedOverAsItIsAndAnyOtherBufferCopied()
    {
        final byte[] message = message(250);
        final FlowReceiver receiver = new FlowReceiver(1, 2, message.length, MSS, true);
        for (int index = 0; index < 3; index++)
        {
            deliver(receiver, message, index);
        }
        final byte[] handedOver = receiver.message().toArray();
        assertSame(receiver.message().chunk(0), handedOver);
        assertArrayEquals(message, handedOver);

        final byte[] larger = new byte[message.length + 10];
        System.arraycopy(message, 0, larger, 5, message.length);
        final UnsafeBuffer slice = new UnsafeBuffer(larger, 5, message.length);
        final byte[] copied = TransportListener.messageArray(slice, message.length);
        assertNotSame(larger, copied);
        assertArrayEquals(message, copied);
    }

    @Test
    void theCumulativeAckAndSackBlocksDescribeWhatArrivedLatestBlockFirst()
    {
        final byte[] message = message(2_000);
        final FlowReceiver receiver = new FlowReceiver(1, 2, message.length, MSS, false);
        deliver(receiver, message, 0);
        deliver(receiver, message, 1);
        assertEquals(200, receiver.cumulativeAckBytes());
        assertEquals(0, receiver.sackBlocks(starts, ends));

        deliver(receiver, message, 4);
        deliver(receiver, message, 5);
        deliver(receiver, message, 9);
        deliver(receiver, message, 12);
        deliver(receiver, message, 7);
        assertEquals(200, receiver.cumulativeAckBytes());
        assertEquals(4, receiver.sackBlocks(starts, ends));
        assertArrayEquals(new long[]{ 700, 400, 900, 1200 }, starts);
        assertArrayEquals(new long[]{ 800, 600, 1000, 1300 }, ends);

        deliver(receiver, message, 2);
        deliver(receiver, message, 3);
        assertEquals(600, receiver.cumulativeAckBytes());
        assertEquals(3, receiver.sackBlocks(starts, ends));
        assertEquals(700, starts[0]);
    }

    @Test
    void theLastSegmentMayBeShortAndTheAckEndsAtTheSize()
    {
        final byte[] message = message(250);
        final FlowReceiver receiver = new FlowReceiver(1, 2, message.length, MSS, false);
        assertEquals(FlowReceiver.NEW, deliver(receiver, message, 2));
        assertEquals(1, receiver.sackBlocks(starts, ends));
        assertEquals(200, starts[0]);
        assertEquals(250, ends[0]);
        deliver(receiver, message, 0);
        deliver(receiver, message, 1);
        assertTrue(receiver.isComplete());
        assertEquals(250, receiver.cumulativeAckBytes());
        assertNull(receiver.message(), "the payload is not kept");
        assertEquals(250, receiver.receivedBytes());
    }

    @Test
    void duplicatesAreCountedAndChangeNothing()
    {
        final byte[] message = message(300);
        final FlowReceiver receiver = new FlowReceiver(1, 2, message.length, MSS, true);
        deliver(receiver, message, 1);
        assertEquals(FlowReceiver.DUPLICATE, deliver(receiver, message, 1));
        assertEquals(1, receiver.duplicatePackets());
        assertEquals(100, receiver.receivedBytes());
    }

    @Test
    void misalignedOrWrongLengthSegmentsAreRejected()
    {
        final FlowReceiver receiver = new FlowReceiver(1, 2, 300, MSS, true);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MSS]);
        assertEquals(FlowReceiver.INVALID, receiver.onData(50, buffer, 0, MSS));
        assertEquals(FlowReceiver.INVALID, receiver.onData(100, buffer, 0, 99));
        assertEquals(FlowReceiver.INVALID, receiver.onData(300, buffer, 0, MSS));
        assertEquals(FlowReceiver.INVALID, receiver.onData(-100, buffer, 0, MSS));
        assertEquals(0, receiver.receivedBytes());
    }
}
