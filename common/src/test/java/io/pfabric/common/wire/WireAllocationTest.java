package io.pfabric.common.wire;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The parser and the flyweights are on the packet path: after warm-up they must not allocate at all.
 */
class WireAllocationTest
{
    private static final int ROUNDS = 50_000;

    private final UnsafeBuffer heap = new UnsafeBuffer(new byte[2048]);
    private final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final TestFrames heapFrames = new TestFrames(heap);
    private final TestFrames directFrames = new TestFrames(direct);
    private final FrameParser parser = new FrameParser();
    private final PfabricHeaderFlyweight heapHeader = new PfabricHeaderFlyweight();
    private final PfabricHeaderFlyweight directHeader = new PfabricHeaderFlyweight();
    private final Ipv4Flyweight ip = new Ipv4Flyweight();
    private int ackLength;
    private int dataLength;
    private long sink;

    @Test
    void shouldNotAllocateOnThePacketPath()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        ackLength = heapFrames.pfabricUdpFrame(0, PfabricHeaderFlyweight.TYPE_ACK, 4, 0);
        dataLength = directFrames.pfabricIpFrame(0, PfabricHeaderFlyweight.TYPE_DATA, 0, 1_460);
        heapHeader.wrap(heap, TestFrames.pfabricUdpOffset(0));
        directHeader.wrap(direct, TestFrames.pfabricIpOffset(0));

        run(ROUNDS);
        final long threadId = Thread.currentThread().threadId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        run(ROUNDS);
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertEquals(0, allocated, "bytes allocated in " + ROUNDS + " rounds");
        assertEquals(0, sink & 0);
    }

    private void run(final int rounds)
    {
        for (int i = 0; i < rounds; i++)
        {
            sink += parser.parse(heap, 0, ackLength);
            sink += parser.flowHash();
            sink += parser.parse(direct, 0, dataLength);
            sink += parser.priority();
            sink += parser.parse(heap, 0, i & 63);
            sink += heapHeader.checksumValid() ? 1 : 0;
            sink += directHeader.computeChecksum(1_460).checksum();
            sink += directHeader.checksumValid() ? 1 : 0;
            sink += Ipv4Flyweight.markCongestionExperienced(direct, 14) ? 1 : 0;
            sink += ip.wrap(direct, 14).ecn(Ipv4Flyweight.ECN_ECT0).computeChecksum().checksumValid() ? 1 : 0;
            sink += PfabricHeaderFlyweight.priorityAtFrameOffset(
                heap, 0, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_UDP);
        }
    }
}
