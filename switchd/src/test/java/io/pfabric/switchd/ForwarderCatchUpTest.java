package io.pfabric.switchd;

import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.switchd.table.ForwardingTable;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A paced port whose forwarder comes late keeps its link's rate while it has a backlog: it makes up the time its
 * queue waited, and frames that arrived meanwhile (at the times their port stamped) meet the queue's limit after what
 * the link would have sent by then, not all at once on top of it. Time the port spent idle is not made up.
 */
class ForwarderCatchUpTest
{
    private static final int DESTINATION = 0x0A00_0202;
    private static final int FRAME_LENGTH = 1_500;
    private static final long RATE_BPS = 1_000_000_000L;
    private static final int BUFFER_FRAMES = 24;
    private static final long START_NS = 1_000_000_000L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final MemoryFramePort host = new MemoryFramePort();
    private final MemoryFramePort paced = new MemoryFramePort();
    private final SwitchPort[] ports = {
        new SwitchPort("p1", host, DisciplineKind.PFABRIC.newQueue(BUFFER_FRAMES * FRAME_LENGTH, 1514), null),
        new SwitchPort("p2", paced, DisciplineKind.PFABRIC.newQueue(BUFFER_FRAMES * FRAME_LENGTH, 1514),
            new EgressPacer(RATE_BPS)) };
    private final Forwarder forwarder = new Forwarder(ports,
        new ForwardingTable().addHost(DESTINATION, 0x02_00_00_00_00_09L, 1), false, clock);
    private final long wireNs = ports[1].pacer().wireTimeNs(FRAME_LENGTH);
    private int sequence;

    private static byte[] frame(final int sequence)
    {
        return DataFrames.frame(DESTINATION, FRAME_LENGTH, 1_000_000 - sequence, sequence * 1_400, false, 0);
    }

    private void arrive(final int frames)
    {
        for (int i = 0; i < frames; i++)
        {
            host.arriving.add(frame(sequence++));
        }
    }

    @Test
    void aBackloggedPortPolledLateSendsWhatItsLinkWouldHaveSentMeanwhile()
    {
        clock.update(START_NS);
        arrive(10);
        forwarder.doWork();
        assertEquals(EgressPacer.DEFAULT_BURST_FRAMES, paced.sent.size(), "a burst leaves at once");

        clock.update(START_NS + 6 * wireNs + wireNs / 2);
        forwarder.doWork();
        assertEquals(EgressPacer.DEFAULT_BURST_FRAMES + 6, paced.sent.size(),
            "six frame times late, six more frames leave back to back, not only a burst of two");
    }

    @Test
    void framesThatArrivedWhileTheForwarderWasLateMeetTheQueueAfterTheLinksDepartures()
    {
        clock.update(START_NS);
        arrive(BUFFER_FRAMES);
        forwarder.doWork();
        assertEquals(0, ports[1].queue().counters().droppedPackets());

        final int late = 30;
        for (int i = 0; i < late; i++)
        {
            host.arrivingAtNs.add(START_NS + i * wireNs);
        }
        arrive(late);
        clock.update(START_NS + late * wireNs);
        forwarder.doWork();
        assertEquals(0, ports[1].queue().counters().droppedPackets(),
            "a link that sends as fast as frames arrive drops none of them");
        assertTrue(paced.sent.size() >= late, "the link kept its rate: " + paced.sent.size());
        assertEquals(BUFFER_FRAMES + late, paced.sent.size() + ports[1].queue().packetCount());
    }

    @Test
    void timeThePortSpentIdleIsNotMadeUp()
    {
        clock.update(START_NS);
        arrive(1);
        forwarder.doWork();
        assertEquals(1, paced.sent.size());

        clock.update(START_NS + 100 * wireNs);
        arrive(10);
        forwarder.doWork();
        assertEquals(1 + EgressPacer.DEFAULT_BURST_FRAMES, paced.sent.size(),
            "after an idle stretch only a burst leaves at once");
    }
}
