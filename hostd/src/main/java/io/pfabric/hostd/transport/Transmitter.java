package io.pfabric.hostd.transport;

/**
 * One round of sending: while the pacer lets a packet leave, the next packet of the most urgent flow that may send
 * (within the traffic class whose turn it is, if the host has classes: {@link SendScheduler}), written by the
 * {@link PacketWriter} and handed to the {@link Egress}. Under an
 * {@link Admission}, a flow whose destination is not admitted is set aside for the rest of the round (at most
 * {@link HostTransport#BATCH} of them) and the next most urgent is tried; those set aside go back at the end of the
 * round.
 * <p>
 * It also measures how late the host sends against its own plan: when a round ends with a flow still ready (stopped by
 * the pacer or the batch), the transport means to send again at the pacer's next departure (or at once); the lag of
 * the next send after that time is counted ({@link TransportCounters#pacerWaits()}, {@link
 * TransportCounters#sendLagNs()}, {@link TransportCounters#lateSends()}, {@link TransportCounters#longestSendLagNs()}).
 * A lag beyond the pacer's slack means the host's link sat idle while the host had a packet for it: the machine, not
 * the transport, chose when it left.
 */
final class Transmitter
{
    private final FlowTable flows;
    private final SendScheduler scheduler;
    private final PacketWriter writer;
    private final Egress egress;
    private final TransportCounters counters;
    private final OutboundPacket outbound = new OutboundPacket();
    private final int[] heldSlots = new int[HostTransport.BATCH];
    private boolean heldBack;
    private boolean waitingToSend;
    private long intendedSendNs;

    Transmitter(
        final FlowTable flows,
        final SendScheduler scheduler,
        final PacketWriter writer,
        final Egress egress,
        final TransportCounters counters)
    {
        this.flows = flows;
        this.scheduler = scheduler;
        this.writer = writer;
        this.egress = egress;
        this.counters = counters;
    }

    /**
     * Send up to {@link HostTransport#BATCH} packets.
     *
     * @param admission consulted before each packet, or null for plain pFabric.
     * @return packets sent.
     */
    int transmit(final long nowNs, final Admission admission)
    {
        int sent = 0;
        int held = 0;
        while (sent < HostTransport.BATCH && scheduler.hasReady() && egress.mayRelease(nowNs))
        {
            final int slot = scheduler.mostUrgentSlot();
            final FlowSender sender = flows.sender(slot);
            int pathHint = Admission.NO_PATH;
            if (null != admission)
            {
                final int destination = sender.destinationHost();
                if (!admission.mayAdmit(destination, nowNs))
                {
                    scheduler.setAside(slot);
                    heldSlots[held++] = slot;
                    if (held == heldSlots.length)
                    {
                        break;
                    }
                    continue;
                }
                pathHint = admission.pathHint(destination);
            }
            if (waitingToSend)
            {
                onLateness(nowNs - intendedSendNs);
            }
            sender.nextPacket(nowNs, outbound);
            final int length = writer.writeData(sender, outbound, flows.payload(slot), pathHint);
            egress.send(sender.destinationHost(), length, nowNs, sender.dscp());
            scheduler.onSent(slot, egress.wireLength(length));
            if (null != admission)
            {
                admission.onAdmitted(sender.destinationHost(), nowNs, egress.wireLength(length));
            }
            counters.packetsSent++;
            scheduler.refresh(slot, sender);
            sent++;
        }
        heldBack = held > 0 && 0 == sent;
        waitingToSend = !heldBack && scheduler.hasReady();
        if (waitingToSend)
        {
            intendedSendNs = egress.mayRelease(nowNs) ? nowNs : egress.nextDepartureNs(nowNs);
        }
        if (held > 0)
        {
            counters.packetsHeldBack += held;
            for (int i = 0; i < held; i++)
            {
                final int slot = heldSlots[i];
                scheduler.refresh(slot, flows.sender(slot));
            }
        }
        return sent;
    }

    private void onLateness(final long lagNs)
    {
        waitingToSend = false;
        final long positiveLagNs = Math.max(0, lagNs);
        counters.pacerWaits++;
        counters.sendLagNs += positiveLagNs;
        if (positiveLagNs > counters.longestSendLagNs)
        {
            counters.longestSendLagNs = positiveLagNs;
        }
        if (positiveLagNs > egress.slackNs())
        {
            counters.lateSends++;
        }
    }

    /**
     * Whether the last round sent nothing because the admission held back every flow that could send.
     */
    boolean heldBack()
    {
        return heldBack;
    }
}
