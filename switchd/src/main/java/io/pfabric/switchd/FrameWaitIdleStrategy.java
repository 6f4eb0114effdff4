package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.FrameWaiter;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;

/**
 * The forwarder's idle strategy: spin a little after the last work, then block in {@code poll(2)} on the ports'
 * receive sockets for at most a millisecond, so that an idle switch uses no CPU and still wakes for the next frame
 * as soon as the kernel has it, not after a park. Ports without a descriptor (VXLAN) fall back to a backoff park.
 */
public final class FrameWaitIdleStrategy implements IdleStrategy
{
    private static final int SPINS = 100;
    private static final int WAIT_MS = 1;

    private final FrameWaiter waiter;
    private final BackoffIdleStrategy fallback = new BackoffIdleStrategy(10, 20, 1_000, 50_000);
    private int idleCycles;

    /**
     * A strategy for the forwarders of these ports.
     *
     * @param ports every port of every forwarder the thread runs.
     */
    public FrameWaitIdleStrategy(final Iterable<SwitchPort> ports)
    {
        final List<FramePort> frames = new ArrayList<>();
        ports.forEach(port -> frames.add(port.io()));
        waiter = FrameWaiter.of(frames);
    }

    /**
     * {@inheritDoc}
     */
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
            return;
        }
        idle();
    }

    /**
     * {@inheritDoc}
     */
    public void idle()
    {
        if (null == waiter)
        {
            fallback.idle();
            return;
        }
        if (++idleCycles <= SPINS)
        {
            Thread.onSpinWait();
            return;
        }
        waiter.await(WAIT_MS);
    }

    /**
     * {@inheritDoc}
     */
    public void reset()
    {
        idleCycles = 0;
        fallback.reset();
    }

    /**
     * {@inheritDoc}
     */
    public String alias()
    {
        return "frame-wait";
    }
}
