package io.pfabric.switchd;

import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.switchd.table.ForwardingTable;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How long a forwarder may sleep between duty cycles ({@link Forwarder#idleWaitNs}): not after a cycle that did
 * something or while a command waits, until its pacer's next departure while a paced port holds frames, and until
 * its next link check when it holds none; an offered command wakes its idle strategy.
 */
class ForwarderIdleWaitTest
{
    private static final int DESTINATION = 0x0A00_0202;
    private static final int FRAME_LENGTH = 1_500;
    private static final long RATE_BPS = 100_000_000L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final MemoryFramePort host = new MemoryFramePort();
    private final MemoryFramePort paced = new MemoryFramePort();
    private final SwitchPort[] ports = {
        new SwitchPort("p1", host, DisciplineKind.PFABRIC.newQueue(36_000, 1514), null),
        new SwitchPort("p2", paced, DisciplineKind.PFABRIC.newQueue(36_000, 1514), new EgressPacer(RATE_BPS)) };
    private final Forwarder forwarder = new Forwarder(ports,
        new ForwardingTable().addHost(DESTINATION, 0x02_00_00_00_00_09L, 1), false, clock);

    private static byte[] frame(final int sequence)
    {
        return DataFrames.frame(DESTINATION, FRAME_LENGTH, 1_000_000 - sequence, sequence * 1_400, false, 0);
    }

    @Test
    void aBackloggedPacedPortLetsTheForwarderSleepUntilItsNextDeparture()
    {
        clock.update(1_000_000_000L);
        for (int i = 0; i < 5; i++)
        {
            host.arriving.add(frame(i));
        }
        forwarder.doWork();
        final int sentAtOnce = paced.sent.size();
        assertTrue(sentAtOnce > 0 && sentAtOnce < 5, "the pacer let a burst go and holds the rest");
        assertEquals(0, forwarder.idleWaitNs(clock.nanoTime()), "no sleep right after a cycle that did work");

        clock.update(1_000_001_000L);
        assertEquals(1, forwarder.doWork(), "a backlog still reports work, for idle strategies that poll");
        final long waitNs = forwarder.idleWaitNs(clock.nanoTime());
        assertEquals(ports[1].pacer().nextDepartureNs() - clock.nanoTime(), waitNs, "until the next departure");
        assertTrue(waitNs > 0 && waitNs <= ports[1].pacer().wireTimeNs(FRAME_LENGTH), "at most one frame's time");

        clock.update(ports[1].pacer().nextDepartureNs());
        forwarder.doWork();
        assertEquals(sentAtOnce + 1, paced.sent.size(), "the next frame leaves at the departure slept until");
    }

    @Test
    void anIdleForwarderSleepsUntilItsNextLinkCheckAndACommandEndsIt()
    {
        clock.update(5_000_000_000L);
        forwarder.doWork();
        forwarder.doWork();
        final long waitNs = forwarder.idleWaitNs(clock.nanoTime());
        assertTrue(waitNs > 0 && waitNs <= Forwarder.LINK_CHECK_INTERVAL_NS, "sleeps until the next link check");

        final AtomicInteger wakes = new AtomicInteger();
        forwarder.wakeOnOffer(wakes::incrementAndGet);
        assertTrue(forwarder.offer(() -> { }));
        assertEquals(1, wakes.get(), "an offer wakes the idle strategy");
        assertEquals(0, forwarder.idleWaitNs(clock.nanoTime()), "no sleep while a command waits");
        forwarder.doWork();
        forwarder.doWork();
        assertFalse(forwarder.idleWaitNs(clock.nanoTime()) <= 0, "sleeps again once the command ran");
    }
}
