package io.pfabric.controllerd;

import io.pfabric.controllerd.session.ControlPolicy;
import io.pfabric.controllerd.session.ControllerSession;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * One duty cycle of the controller: take at most one read batch of datagrams from the socket (a flood of forged or
 * malformed ones included: each is judged and dropped on a pre-allocated flyweight), then run the policy's duty
 * (allocate, emit, heartbeat). However full the socket, the policy's duty runs after every read batch.
 */
final class ControllerAgent implements Agent
{
    private final ControllerSession session;
    private final ControlPolicy policy;
    private final String roleName;
    private final NanoClock clock;

    ControllerAgent(final ControllerSession session, final ControlPolicy policy, final String roleName,
        final NanoClock clock)
    {
        this.session = session;
        this.policy = policy;
        this.roleName = roleName;
        this.clock = clock;
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        final long nowNs = clock.nanoTime();
        policy.time(nowNs);
        int work = session.poll(policy);
        work += policy.duty(nowNs);
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return roleName;
    }
}
