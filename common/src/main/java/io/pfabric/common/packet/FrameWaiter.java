package io.pfabric.common.packet;

import com.sun.jna.Memory;

import java.util.ArrayList;
import java.util.List;

/**
 * Blocks the calling thread in {@code poll(2)} until one of several ports has frames to receive or a timeout
 * passes: how an idle data-path thread sleeps without adding a park's wake-up delay to the next frame.
 */
public final class FrameWaiter
{
    private static final int POLL_FD_LENGTH = 8;

    private final Memory pollFds;
    private final int count;

    private FrameWaiter(final int[] descriptors)
    {
        count = descriptors.length;
        pollFds = new Memory((long)POLL_FD_LENGTH * count);
        for (int i = 0; i < count; i++)
        {
            pollFds.setInt((long)i * POLL_FD_LENGTH, descriptors[i]);
            pollFds.setShort((long)i * POLL_FD_LENGTH + 4, (short)LibC.POLLIN);
            pollFds.setShort((long)i * POLL_FD_LENGTH + 6, (short)0);
        }
    }

    /**
     * A waiter over ports, if every one of them offers a descriptor.
     *
     * @param ports the ports.
     * @return the waiter, or null if some port has no descriptor (the caller then parks instead).
     */
    public static FrameWaiter of(final Iterable<? extends FramePort> ports)
    {
        final List<Integer> descriptors = new ArrayList<>();
        for (final FramePort port : ports)
        {
            final int descriptor = port.receiveDescriptor();
            if (descriptor < 0)
            {
                return null;
            }
            descriptors.add(descriptor);
        }
        if (descriptors.isEmpty())
        {
            return null;
        }
        return new FrameWaiter(descriptors.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * Wait.
     *
     * @param timeoutMs longest wait in milliseconds.
     * @return true if some port has frames to receive.
     */
    public boolean await(final int timeoutMs)
    {
        return LibC.poll(pollFds, count, timeoutMs) > 0;
    }
}
