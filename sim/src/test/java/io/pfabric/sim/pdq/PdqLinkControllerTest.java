package io.pfabric.sim.pdq;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PDQ's per-link flow and rate controller on scripted time, one rule per test (PDQ §3.3, Algorithms 1-3).
 */
class PdqLinkControllerTest
{
    private static final long RATE_BITS_PER_SEC = 10_000_000_000L;
    private static final long RTT_NS = 20_000;
    private static final int LINK = 3;
    private static final int OTHER_LINK_PAUSE_ID = 42;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final PdqPacketFlyweight packet = new PdqPacketFlyweight().wrap(buffer, 0);

    private static PdqSettings settings(final String variant)
    {
        return PdqSettings.forScheme(variant, RTT_NS, false);
    }

    /**
     * A forward packet as a sender writes it: R_H = the NIC's rate, P_H = P_S, D_H, T_H.
     */
    private PdqPacketFlyweight forward(final long flowId, final long deadlineUs, final long expectedNs,
        final int pausedBy)
    {
        packet.type(PdqPacketFlyweight.TYPE_DATA).selector(0).payloadLength(0).flowId(flowId)
            .rateKbps((int)(RATE_BITS_PER_SEC / 1_000)).pausedBy(pausedBy).deadlineField((int)deadlineUs)
            .expectedField((int)expectedNs);
        return packet;
    }

    /**
     * The receiver's ACK of the forward packet just processed: its R_H and P_H, I_H, the RTT.
     */
    private PdqPacketFlyweight ackOfForward(final long intervalNs)
    {
        packet.type(PdqPacketFlyweight.TYPE_ACK).deadlineField((int)intervalNs).expectedField((int)RTT_NS);
        return packet;
    }

    /**
     * Run a forward packet then its ACK through the link: the flow's decision, committed.
     */
    private void roundTrip(final PdqLinkController link, final long nowNs, final long flowId, final long deadlineUs,
        final long expectedNs)
    {
        link.onForward(nowNs, forward(flowId, deadlineUs, expectedNs, 0));
        link.onReverse(nowNs + RTT_NS / 2, ackOfForward(RTT_NS));
    }

    @Test
    void aMoreCriticalFlowPreemptsTheOneSending()
    {
        final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-basic"));
        roundTrip(link, 0, 1, 0, 400_000);
        assertEquals(RATE_BITS_PER_SEC, link.rateBitsPerSec(1), "the only flow gets the link");

        link.onForward(100_000, forward(2, 0, 50_000, 0));
        assertEquals(0, packet.pausedBy(), "a shorter flow is accepted");
        assertEquals(RATE_BITS_PER_SEC / 1_000, packet.rateKbps(), "at the whole link: nothing more critical");
        link.onReverse(110_000, ackOfForward(RTT_NS));

        link.onForward(120_000, forward(1, 0, 300_000, 0));
        assertEquals(link.pauseId(), packet.pausedBy(), "the longer flow is paused by this link");
        assertEquals(0, packet.rateKbps());
        link.onReverse(130_000, ackOfForward(RTT_NS));
        assertEquals(0, link.rateBitsPerSec(1));
        assertEquals(link.pauseId(), link.pausedBy(1));
        assertEquals(0, link.indexOf(2), "the shorter flow is the more critical");

        link.onForward(140_000, forward(3, 500, 900_000, 0));
        assertEquals(0, packet.pausedBy(), "a flow with a deadline beats flows without, however long (EDF first)");
        assertEquals(0, link.indexOf(3));
    }

    @Test
    void aLinkDropsAFlowPausedByAnotherLink()
    {
        final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-basic"));
        roundTrip(link, 0, 1, 0, 400_000);
        roundTrip(link, 1_000, 2, 0, 500_000);
        assertEquals(2, link.listSize());

        link.onForward(50_000, forward(1, 0, 390_000, OTHER_LINK_PAUSE_ID));
        assertEquals(-1, link.indexOf(1), "paused elsewhere (P_H on the forward path): out of the list");
        assertEquals(OTHER_LINK_PAUSE_ID, packet.pausedBy(), "and the header left as it came");
        assertEquals(RATE_BITS_PER_SEC / 1_000, packet.rateKbps());

        link.onForward(60_000, forward(2, 0, 500_000, 0));
        packet.pausedBy(OTHER_LINK_PAUSE_ID).rateKbps(0);
        link.onReverse(70_000, ackOfForward(RTT_NS));
        assertEquals(-1, link.indexOf(2), "paused downstream (P_H on the reverse path): out of the list");
        assertEquals(0, link.listSize());
    }

    @Test
    void earlyStartAdmitsTheNextFlowWhenTheCurrentOneIsWithinKRttsOfFinishing()
    {
        for (final String variant : new String[]{ "pdq-basic", "pdq-es" })
        {
            final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings(variant));
            roundTrip(link, 0, 1, 0, 10 * RTT_NS);
            roundTrip(link, 1_000, 2, 0, 20 * RTT_NS);
            assertEquals(0, link.rateBitsPerSec(2), variant + ": the second flow waits while the first is far off");

            link.onForward(100_000, forward(1, 0, 3 * RTT_NS / 2, 0));
            link.onReverse(110_000, ackOfForward(RTT_NS));
            link.onForward(120_000, forward(2, 0, 20 * RTT_NS, link.pauseId()));
            if ("pdq-es".equals(variant))
            {
                assertEquals(0, packet.pausedBy(), "Early Start: the first flow is 1.5 RTTs from done, K = 2");
                assertEquals(RATE_BITS_PER_SEC / 1_000, packet.rateKbps());
            }
            else
            {
                assertEquals(link.pauseId(), packet.pausedBy(), "without Early Start it waits for the TERM");
                link.onTerm(1);
                link.onForward(130_000, forward(2, 0, 20 * RTT_NS, link.pauseId()));
                assertEquals(0, packet.pausedBy(), "the TERM frees the link");
            }
        }
    }

    @Test
    void dampeningHoldsBackASecondWaitingFlowForAFifthOfAnRtt()
    {
        final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-basic"));
        final PdqLinkController other = new PdqLinkController(LINK + 1, RATE_BITS_PER_SEC / 2, settings("pdq-basic"));
        link.onForward(0, forward(1, 0, 100_000, 0));
        assertEquals(0, packet.pausedBy(), "the first flow not yet sending is accepted");
        other.onForward(0, packet);
        link.onReverse(RTT_NS / 2, ackOfForward(RTT_NS));
        assertEquals(RATE_BITS_PER_SEC / 2, link.rateBitsPerSec(1), "its rate is the path's smallest");

        link.onForward(RTT_NS / 10, forward(2, 0, 200_000, 0));
        assertEquals(link.pauseId(), packet.pausedBy(), "a second one within a fifth of an RTT of the first is paused");
        link.onForward(RTT_NS / 5 + 1, forward(2, 0, 200_000, link.pauseId()));
        assertEquals(0, packet.pausedBy(), "after it, the second takes what the first left");
        assertEquals(RATE_BITS_PER_SEC / 2 / 1_000, packet.rateKbps());
    }

    @Test
    void theRateControllerHandsOutLessThanTheLinkUntilAStandingQueueDrains()
    {
        final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-basic"));
        final long queueLength = 25_000;
        link.onFrame(0, 1_500, queueLength);
        link.onFrame(2 * RTT_NS - 1, 1_500, queueLength);
        assertEquals(RATE_BITS_PER_SEC, link.capacityBitsPerSec(), "C changes only every 2 RTTs");
        link.onFrame(2 * RTT_NS, 1_500, queueLength);
        final long drainBitsPerSec = 8 * queueLength * 1_000_000_000L / (2 * RTT_NS);
        assertEquals(RATE_BITS_PER_SEC - drainBitsPerSec, link.capacityBitsPerSec(), "C = r - q / (2 RTT)");

        link.onForward(2 * RTT_NS, forward(1, 0, 400_000, 0));
        assertEquals((RATE_BITS_PER_SEC - drainBitsPerSec) / 1_000, packet.rateKbps());
        final double queueAfterBits = 8.0 * queueLength - (RATE_BITS_PER_SEC - packet.rateKbps() * 1_000L) *
            (2 * RTT_NS) / 1e9;
        assertEquals(0, queueAfterBits, 1, "the link out-runs its input by q in 2 RTTs: the queue drains");

        link.onFrame(4 * RTT_NS, 1_500, 0);
        assertEquals(RATE_BITS_PER_SEC, link.capacityBitsPerSec(), "an empty queue gives the whole link back");
    }

    @Test
    void aFullListSendsFurtherFlowsToTheRcpShareOfWhatItLeaves()
    {
        final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-basic"));
        roundTrip(link, 0, 1, 0, 100_000);
        roundTrip(link, 1_000, 2, 0, 200_000);
        assertEquals(2, link.listCapacity(), "2κ with one flow sending");
        assertEquals(2, link.listSize());

        link.onForward(2_000, forward(3, 0, 300_000, 0));
        assertEquals(-1, link.indexOf(3), "a less critical third flow stays out of the full list");
        assertEquals(link.pauseId(), packet.pausedBy(), "the sending flow leaves nothing: paused");

        final PdqLinkController half = new PdqLinkController(LINK + 1, RATE_BITS_PER_SEC, settings("pdq-basic"));
        half.onForward(0, forward(1, 0, 100_000, 0));
        packet.rateKbps((int)(RATE_BITS_PER_SEC / 2 / 1_000));
        half.onReverse(RTT_NS, ackOfForward(RTT_NS));
        roundTrip(half, 1_000, 2, 0, 200_000);
        assertEquals(RATE_BITS_PER_SEC / 2, half.rateBitsPerSec(1), "held to half elsewhere on its path");
        assertEquals(0, half.rateBitsPerSec(2), "dampened");
        half.onForward(RTT_NS, forward(3, 0, 300_000, 0));
        assertEquals(-1, half.indexOf(3));
        assertEquals(0, packet.pausedBy(), "outside the list, the RCP share of what the list leaves");
        assertEquals(RATE_BITS_PER_SEC / 2 / 1_000, packet.rateKbps());
        half.onForward(RTT_NS + 1, forward(3, 0, 300_000, half.pauseId()));
        assertEquals(0, packet.pausedBy(), "a share lifts this link's own earlier pause");

        link.onForward(3_000, forward(4, 0, 50_000, 0));
        assertEquals(0, link.indexOf(4), "a more critical flow enters a full list");
        assertEquals(-1, link.indexOf(2), "and the least critical leaves it");
        assertEquals(2, link.listSize());
    }

    @Test
    void suppressedProbingStretchesAPausedFlowsIntervalByItsPlaceInTheList()
    {
        final PdqLinkController link = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-full"));
        final PdqLinkController plain = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-es-et"));
        for (final PdqLinkController l : new PdqLinkController[]{ link, plain })
        {
            roundTrip(l, 0, 1, 0, 100 * RTT_NS);
            l.onForward(1_000, forward(2, 0, 200 * RTT_NS, 0));
            l.onReverse(2_000, ackOfForward(RTT_NS));
        }
        link.onForward(3_000, forward(2, 0, 200 * RTT_NS, link.pauseId()));
        link.onReverse(4_000, ackOfForward(1_000));
        assertEquals((long)(0.2 * RTT_NS), packet.deadlineField(), "I_H = max(I_H, 0.2 RTT x index 1)");
        plain.onForward(3_000, forward(2, 0, 200 * RTT_NS, plain.pauseId()));
        plain.onReverse(4_000, ackOfForward(1_000));
        assertEquals(1_000, packet.deadlineField(), "without Suppressed Probing I_H is left alone");
        assertTrue(link.listSize() == 2 && plain.listSize() == 2);
    }

    @Test
    void aSendersNicCapsAFlowPausedElsewhereRatherThanDropIt()
    {
        final PdqLinkController nic = new PdqLinkController(LINK, RATE_BITS_PER_SEC, settings("pdq-basic"), true);
        roundTrip(nic, 0, 1, 0, 100_000);
        nic.onForward(1_000, forward(2, 0, 200_000, 0));
        packet.pausedBy(OTHER_LINK_PAUSE_ID).rateKbps(0);
        nic.onReverse(2_000, ackOfForward(RTT_NS));
        assertEquals(1, nic.indexOf(2), "paused downstream, the flow stays in its NIC's list");
        assertEquals(OTHER_LINK_PAUSE_ID, nic.pausedBy(2));

        nic.onForward(3_000, forward(2, 0, 200_000, OTHER_LINK_PAUSE_ID));
        assertEquals(OTHER_LINK_PAUSE_ID, packet.pausedBy(), "the pause stays the other link's");
        assertEquals(0, packet.rateKbps(), "but the NIC's other flow leaves it nothing: R_H capped to 0");
        nic.onTerm(1);
        nic.onForward(4_000, forward(2, 0, 200_000, OTHER_LINK_PAUSE_ID));
        assertEquals(OTHER_LINK_PAUSE_ID, packet.pausedBy());
        assertEquals(RATE_BITS_PER_SEC / 1_000, packet.rateKbps(), "the NIC free, the other link decides");
    }
}
