package io.pfabric.sim;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Frames in flight, by index, reused: no allocation per packet once the pool has grown to the run's peak. Beside
 * each frame, what the switches read from it (its length, destination, DSCP, priority and flow id), its payload's
 * length, its path hint and the length of its content, packed in four longs so that a hop reads one cache line.
 * In a frame the Ethernet and IPv4 header bytes hold the simulator's routing (destination and source host) and the
 * frame's handle in this pool.
 */
final class PacketPool
{
    static final int FRAME_CAPACITY = 2_048;
    static final int DESTINATION_OFFSET = 0;
    static final int SOURCE_OFFSET = 4;
    static final int HANDLE_OFFSET = 8;

    private static final int STRIDE = 4;
    private static final int PRIORITY = 0;
    private static final int FLOW_ID = 1;
    private static final int LENGTH_AND_DESTINATION = 2;
    private static final int HINT_CONTENT_AND_PAYLOAD = 3;
    private static final int SHORT_MASK = 0xFFFF;
    private static final int LENGTH_MASK = 0xFF_FFFF;
    private static final int DSCP_SHIFT = 56;
    private static final int DSCP_MASK = 0x3F;
    private static final long DEADLINE_BIT = 1L << 62;

    private UnsafeBuffer[] frames = new UnsafeBuffer[1024];
    private long[] descriptions = new long[STRIDE * 1024];
    private int[] free = new int[1024];
    private int freeCount;
    private int allocated;

    int acquire()
    {
        if (freeCount > 0)
        {
            return free[--freeCount];
        }
        if (allocated == frames.length)
        {
            final int capacity = allocated * 2;
            frames = Arrays.copyOf(frames, capacity);
            descriptions = Arrays.copyOf(descriptions, STRIDE * capacity);
            free = Arrays.copyOf(free, capacity);
        }
        frames[allocated] = new UnsafeBuffer(new byte[FRAME_CAPACITY]);
        return allocated++;
    }

    void release(final int packet)
    {
        free[freeCount++] = packet;
    }

    UnsafeBuffer frame(final int packet)
    {
        return frames[packet];
    }

    int length(final int packet)
    {
        return (int)(descriptions[STRIDE * packet + LENGTH_AND_DESTINATION] >>> 32) & LENGTH_MASK;
    }

    int dscp(final int packet)
    {
        return (int)(descriptions[STRIDE * packet + LENGTH_AND_DESTINATION] >>> DSCP_SHIFT) & DSCP_MASK;
    }

    int pfabricFlags(final int packet)
    {
        return 0 != (descriptions[STRIDE * packet + LENGTH_AND_DESTINATION] & DEADLINE_BIT) ?
            PfabricHeaderFlyweight.FLAG_DEADLINE : 0;
    }

    int destination(final int packet)
    {
        return (int)descriptions[STRIDE * packet + LENGTH_AND_DESTINATION];
    }

    long priority(final int packet)
    {
        return descriptions[STRIDE * packet + PRIORITY];
    }

    long flowId(final int packet)
    {
        return descriptions[STRIDE * packet + FLOW_ID];
    }

    int payloadLength(final int packet)
    {
        return (int)descriptions[STRIDE * packet + HINT_CONTENT_AND_PAYLOAD] & SHORT_MASK;
    }

    int contentLength(final int packet)
    {
        return (int)(descriptions[STRIDE * packet + HINT_CONTENT_AND_PAYLOAD] >>> 16) & SHORT_MASK;
    }

    int pathHint(final int packet)
    {
        return (int)(descriptions[STRIDE * packet + HINT_CONTENT_AND_PAYLOAD] >> 32);
    }

    /**
     * Describe a frame about to leave its host.
     *
     * @param packet        the frame.
     * @param length        its length in queues and pacers, without FCS, preamble and gap.
     * @param destination   the receiving host.
     * @param priority      its pFabric priority, 0 for the baselines.
     * @param flowId        its flow.
     * @param payloadLength its payload bytes, 0 for ACKs and probes; below 2^16.
     * @param contentLength bytes after the simulator's headers; below 2^16.
     * @param pathHint      the spine it asks for, or -1.
     * @param dscp          the DSCP of its IPv4 header, 0 to 63.
     */
    void describe(final int packet, final int length, final int destination, final long priority, final long flowId,
        final int payloadLength, final int contentLength, final int pathHint, final int dscp)
    {
        describe(packet, length, destination, priority, flowId, payloadLength, contentLength, pathHint, dscp, 0);
    }

    void describe(final int packet, final int length, final int destination, final long priority, final long flowId,
        final int payloadLength, final int contentLength, final int pathHint, final int dscp, final int pfabricFlags)
    {
        final int base = STRIDE * packet;
        final long[] d = descriptions;
        d[base + PRIORITY] = priority;
        d[base + FLOW_ID] = flowId;
        d[base + LENGTH_AND_DESTINATION] = ((long)(dscp & DSCP_MASK) << DSCP_SHIFT) |
            ((long)(length & LENGTH_MASK) << 32) | (destination & 0xFFFF_FFFFL) |
            (0 != (pfabricFlags & PfabricHeaderFlyweight.FLAG_DEADLINE) ? DEADLINE_BIT : 0);
        d[base + HINT_CONTENT_AND_PAYLOAD] = ((long)pathHint << 32) | ((long)(contentLength & SHORT_MASK) << 16) |
            (payloadLength & SHORT_MASK);
    }
}
