package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.TrafficClasses;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds test frames that carry an id in their first 8 bytes and records what a queue drops and sends.
 */
final class QueueRecorder implements DropHandler
{
    final List<Long> droppedIds = new ArrayList<>();
    final List<DropReason> dropReasons = new ArrayList<>();
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[16 * 1024]);
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[16 * 1024]);

    public void onDrop(final DirectBuffer buffer, final int offset, final int length, final DropReason reason)
    {
        droppedIds.add(length >= Long.BYTES ? buffer.getLong(offset, ByteOrder.BIG_ENDIAN) : -1L);
        dropReasons.add(reason);
    }

    /**
     * A class queue for frames of up to 1514 bytes whose drops this records.
     */
    PfabricClassQueue classQueue(final long capacityLength, final String classes)
    {
        final PfabricClassQueue queue = new PfabricClassQueue(capacityLength,
            QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH, TrafficClasses.parse(classes));
        queue.dropHandler(this);
        return queue;
    }

    UnsafeBuffer frame(final long id, final int length)
    {
        frame.setMemory(0, Math.max(length, 0), (byte)(id * 31));
        if (length >= Long.BYTES)
        {
            frame.putLong(0, id, ByteOrder.BIG_ENDIAN);
        }
        return frame;
    }

    boolean offer(final QueueDiscipline queue, final long id, final int length, final long priority, final long flowId)
    {
        return queue.enqueue(frame(id, length), 0, length, priority, flowId);
    }

    boolean offer(
        final QueueDiscipline queue,
        final long id,
        final int length,
        final long priority,
        final long flowId,
        final int dscp)
    {
        return queue.enqueue(frame(id, length), 0, length, length, priority, flowId, dscp);
    }

    long take(final QueueDiscipline queue)
    {
        final int length = queue.dequeue(out, 0);
        if (0 == length)
        {
            return -1;
        }
        for (int i = Long.BYTES; i < length; i++)
        {
            if (out.getByte(i) != (byte)(out.getLong(0, ByteOrder.BIG_ENDIAN) * 31))
            {
                throw new AssertionError("frame bytes changed in the queue at offset " + i);
            }
        }
        return out.getLong(0, ByteOrder.BIG_ENDIAN);
    }

    List<Long> drain(final QueueDiscipline queue)
    {
        final List<Long> ids = new ArrayList<>();
        long id;
        while (-1 != (id = take(queue)))
        {
            ids.add(id);
        }
        return ids;
    }
}
