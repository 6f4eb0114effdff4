package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlChannel;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.control.GrantLedger;
import io.pfabric.common.control.Timeslots;
import io.pfabric.hostd.transport.Admission;
import io.pfabric.hostd.transport.HostTransport;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A host's control session, polled from the transport's own thread (no thread of its own): its control socket and
 * inbox, the reports it sends, and the {@link Admission} the transport consults.
 * <p>
 * SYN: every report interval it reads the transport's backlog (packets each destination's flows could send now) and
 * raises its cumulative demand by what neither waiting grants nor slots already asked for cover; DEMAND carries the
 * totals when they change and every millisecond regardless. GRANTS feed {@link SynAdmission} and the
 * {@link GrantLedger}, whose cumulative totals reveal lost grants, asked for again. Each GRANTS message names the
 * controller's slot clock ({@link ControlMessageFlyweight#FLAG_CLOCK}: the start of slot 0 on its monotonic clock and
 * the slot length), which the host reads on its own: the two share {@code System.nanoTime} (CLOCK_MONOTONIC) when they
 * run on one machine, as on the loopback and namespace testbeds; on separate machines the clocks would need to be
 * synchronized (PTP, as Fastpass did). A grant admits one packet from the start of its slot until the grant lateness
 * after it and expires unused after that, so a host that wakes late leaves the slot empty rather than sending into a
 * later one; the expired grant no longer covers the packet it was for, which the next report asks for again. A grant
 * in a message without a clock (controllerd always names one) is used on arrival, for the same lateness.
 * ASY: OFFER reports the line rate
 * toward every destination with a flow in progress (0 otherwise), every interval; RATES, from the controller's newest
 * message only, set {@link AsyAdmission}'s buckets; packets take any path.
 * <p>
 * With no accepted message for the silence interval, admission is off and the host is plain pFabric
 * ({@link #fallback()} true, {@link #fallbacks()} counted); it resumes when messages come back.
 */
public final class HostControl implements Admission, AutoCloseable
{
    private static final long DEMAND_REFRESH_NS = 1_000_000L;
    private static final long HELD_BACK_WAIT_NS = 20_000L;

    private final ControlMode mode;
    private final int localHost;
    private final int hostCount;
    private final long linkRateBitsPerSec;
    private final ControlChannel channel;
    private final HostControlOptions options;
    private final ControlAuthenticator authenticator;
    private final ControlInbox inbox;
    private final ControlMessageFlyweight inbound = new ControlMessageFlyweight();
    private final ControlMessageFlyweight outbound = new ControlMessageFlyweight();
    private final UnsafeBuffer sendBuffer =
        new UnsafeBuffer(ByteBuffer.allocateDirect(ControlMessageFlyweight.MAX_MESSAGE_LENGTH));
    private final ControlChannel.DatagramHandler datagramHandler = this::onDatagram;
    private final SynAdmission syn;
    private final AsyAdmission asy;
    private final GrantLedger ledger;
    private final long reportIntervalNs;
    private final long heldBackWaitNs;
    private final long epochNs;
    private final long grantLatenessNs;
    private long slotClockStartNs;
    private long slotClockNs;
    private final int[] sendable;
    private final int[] active;
    private final long[] reportedDemand;
    private long sequence;
    private long nowNs;
    private long lastAcceptedNs;
    private long nextReportNs;
    private long nextRefreshNs;
    private final NanoClock clock;
    private boolean awaiting;
    private volatile boolean fallback;
    private long fallbacks;
    private long longestSilenceNs;
    private long resumptions;
    private long reportsSent;
    private long packetsAdmittedInFallback;

    private HostControl(
        final HostControlOptions options,
        final ControlChannel channel,
        final int localHost,
        final int hostCount,
        final long linkRateBitsPerSec,
        final NanoClock clock)
    {
        this.options = options;
        this.clock = clock;
        final long nowNs = clock.nanoTime();
        this.mode = options.mode();
        this.channel = channel;
        this.localHost = localHost;
        this.hostCount = hostCount;
        this.linkRateBitsPerSec = linkRateBitsPerSec;
        this.authenticator = new ControlAuthenticator(options.key());
        this.inbox = ControlInbox.forHost(authenticator, localHost);
        final long slotNs = Timeslots.synSlotNs(linkRateBitsPerSec);
        grantLatenessNs = options.grantLatenessNs();
        if (ControlMode.SYN == mode)
        {
            syn = new SynAdmission(hostCount, grantLatenessNs > 0 ? grantLatenessNs : slotNs);
            ledger = new GrantLedger(hostCount);
            asy = null;
            reportIntervalNs = options.reportIntervalNs() > 0 ? options.reportIntervalNs() : slotNs;
            heldBackWaitNs = 0;
        }
        else
        {
            syn = null;
            ledger = null;
            asy = new AsyAdmission(hostCount, AsyAdmission.DEFAULT_DEPTH_BYTES, nowNs);
            reportIntervalNs = options.reportIntervalNs() > 0 ?
                options.reportIntervalNs() : HostControlOptions.DEFAULT_ASY_REPORT_NS;
            heldBackWaitNs = Math.max(1_000, Math.min(HELD_BACK_WAIT_NS, slotNs / 2));
        }
        sendable = new int[hostCount];
        active = new int[hostCount];
        reportedDemand = new long[hostCount];
        epochNs = System.currentTimeMillis() * 1_000_000L;
        this.nowNs = nowNs;
        lastAcceptedNs = nowNs;
        nextReportNs = nowNs;
        nextRefreshNs = nowNs;
    }

    /**
     * Open a host's control socket; the calling thread (the transport's) becomes its owner.
     *
     * @param options            how to take part.
     * @param localHost          this host's index.
     * @param hostCount          hosts of the fabric.
     * @param linkRateBitsPerSec the host link rate, positive.
     * @param clock              the transport's clock.
     * @return the session.
     * @throws IOException if the socket cannot be bound.
     */
    public static HostControl open(
        final HostControlOptions options,
        final int localHost,
        final int hostCount,
        final long linkRateBitsPerSec,
        final NanoClock clock) throws IOException
    {
        if (linkRateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("central control needs the host link rate");
        }
        final ControlChannel channel = ControlChannel.open(options.listen(), options.transport());
        return new HostControl(options, channel, localHost, hostCount, linkRateBitsPerSec, clock);
    }

    /**
     * {@inheritDoc}
     */
    public int poll(final long nowNs, final HostTransport transport)
    {
        this.nowNs = nowNs;
        int work = channel.poll(datagramHandler);
        if (!fallback && nowNs - lastAcceptedNs > options.silenceNs())
        {
            fallback = true;
            fallbacks++;
        }
        if (nowNs - nextReportNs >= 0)
        {
            nextReportNs = nowNs + reportIntervalNs;
            transport.destinationBacklog(sendable, active);
            work += ControlMode.SYN == mode ? reportDemand() : reportOffers();
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public boolean mayAdmit(final int destinationHost, final long nowNs)
    {
        if (fallback)
        {
            return true;
        }
        return null != syn ? syn.mayAdmit(destinationHost, nowNs) : asy.mayAdmit(destinationHost, nowNs);
    }

    /**
     * {@inheritDoc}
     */
    public int pathHint(final int destinationHost)
    {
        return fallback || null == syn ? NO_PATH : syn.pathHint(destinationHost);
    }

    /**
     * {@inheritDoc}
     */
    public void onAdmitted(final int destinationHost, final long nowNs, final int wireLength)
    {
        if (fallback)
        {
            packetsAdmittedInFallback++;
        }
        else if (null != syn)
        {
            syn.onAdmitted(destinationHost);
        }
        else
        {
            asy.onAdmitted(destinationHost, nowNs, wireLength);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * SYN: in the control socket, woken by the next message or when the next grant held opens; fallback: woken by the
     * next message; ASY: at most {@value #HELD_BACK_WAIT_NS} ns, since a bucket fills with time.
     */
    public int awaitHeldBack(final long nowNs, final long timeoutNs)
    {
        this.nowNs = nowNs;
        long waitNs = timeoutNs;
        if (null != asy)
        {
            waitNs = Math.min(timeoutNs, heldBackWaitNs);
        }
        else if (!fallback)
        {
            final long opensNs = syn.nextOpensNs(nowNs);
            if (Long.MAX_VALUE != opensNs)
            {
                waitNs = Math.max(0, Math.min(timeoutNs, opensNs - nowNs));
            }
        }
        awaiting = true;
        try
        {
            return channel.await(datagramHandler, waitNs);
        }
        finally
        {
            awaiting = false;
        }
    }

    private void onDatagram(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        if (awaiting)
        {
            nowNs = clock.nanoTime();
        }
        if (ControlInbox.Outcome.ACCEPTED != inbox.accept(buffer, offset, length, inbound))
        {
            return;
        }
        longestSilenceNs = Math.max(longestSilenceNs, nowNs - lastAcceptedNs);
        lastAcceptedNs = nowNs;
        if (fallback)
        {
            fallback = false;
            resumptions++;
        }
        final int count = inbound.entryCount();
        if (ControlMessageFlyweight.TYPE_GRANTS == inbound.type() && null != syn)
        {
            for (int i = 0; i < count; i++)
            {
                if (0 != (inbound.entryFlags(i) & ControlMessageFlyweight.FLAG_CLOCK) && inbound.entryExtra(i) > 0)
                {
                    slotClockStartNs = inbound.entryValue(i);
                    slotClockNs = inbound.entryExtra(i);
                }
            }
            for (int i = 0; i < count; i++)
            {
                final int flags = inbound.entryFlags(i);
                if (0 != (flags & ControlMessageFlyweight.FLAG_CLOCK))
                {
                    continue;
                }
                final int destination = inbound.entryPeer(i);
                if (destination >= hostCount || destination == localHost)
                {
                    continue;
                }
                if (0 != (flags & ControlMessageFlyweight.FLAG_TOTAL))
                {
                    ledger.onGrantedTotal(destination, inbound.entryValue(i));
                }
                else
                {
                    ledger.onGrant(destination);
                    onSlotGrant(destination, inbound.entrySpine(i), inbound.entryValue(i));
                }
            }
        }
        else if (ControlMessageFlyweight.TYPE_RATES == inbound.type() && null != asy && inbox.newest())
        {
            for (int i = 0; i < count; i++)
            {
                final int destination = inbound.entryPeer(i);
                if (destination < hostCount && destination != localHost)
                {
                    asy.rate(destination, inbound.entryValue(i), nowNs);
                }
            }
        }
    }

    private void onSlotGrant(final int destination, final int spine, final long slot)
    {
        if (0 == slotClockNs)
        {
            syn.onGrant(destination, spine, nowNs);
            return;
        }
        final long opensNs = Timeslots.slotStartNs(slotClockStartNs, slotClockNs, slot);
        syn.onSlotGrant(destination, spine, opensNs, opensNs + (grantLatenessNs > 0 ? grantLatenessNs : slotClockNs));
    }

    private int reportDemand()
    {
        boolean changed = false;
        for (int d = 0; d < hostCount; d++)
        {
            final long covered = syn.queued(d) + ledger.outstanding(d);
            if (sendable[d] > covered)
            {
                ledger.addDemand(d, sendable[d] - covered);
            }
            changed |= ledger.demandTotal(d) != reportedDemand[d];
        }
        final boolean refresh = nowNs - nextRefreshNs >= 0;
        if (!changed && !refresh)
        {
            return 0;
        }
        if (refresh)
        {
            nextRefreshNs = nowNs + DEMAND_REFRESH_NS;
        }
        int sent = 0;
        startMessage(ControlMessageFlyweight.TYPE_DEMAND);
        for (int d = 0; d < hostCount; d++)
        {
            final long total = ledger.demandTotal(d);
            if (0 == total || (!refresh && total == reportedDemand[d]))
            {
                continue;
            }
            if (!outbound.hasRoom())
            {
                sent += sendMessage();
                startMessage(ControlMessageFlyweight.TYPE_DEMAND);
            }
            outbound.appendEntry(d, 0, 0, total);
            reportedDemand[d] = total;
        }
        if (outbound.entryCount() > 0)
        {
            sent += sendMessage();
        }
        return sent;
    }

    private int reportOffers()
    {
        int sent = 0;
        startMessage(ControlMessageFlyweight.TYPE_OFFER);
        for (int d = 0; d < hostCount; d++)
        {
            if (d == localHost)
            {
                continue;
            }
            if (!outbound.hasRoom())
            {
                sent += sendMessage();
                startMessage(ControlMessageFlyweight.TYPE_OFFER);
            }
            outbound.appendEntry(d, 0, 0, active[d] > 0 ? linkRateBitsPerSec : 0);
        }
        return sent + sendMessage();
    }

    private void startMessage(final int type)
    {
        outbound.wrap(sendBuffer, 0).start(type, localHost, ++sequence, epochNs);
    }

    private int sendMessage()
    {
        final int length = authenticator.sign(sendBuffer, 0, outbound.bodyLength());
        channel.send(options.controller(), sendBuffer, 0, length);
        reportsSent++;
        return 1;
    }

    /**
     * @return the address the control socket is bound to.
     */
    public java.net.InetSocketAddress localAddress()
    {
        return channel.localAddress();
    }

    /**
     * @return true while the controller has been silent too long and the host is plain pFabric.
     */
    public boolean fallback()
    {
        return fallback;
    }

    /**
     * @return times the host fell back to pFabric.
     */
    public long fallbacks()
    {
        return fallbacks;
    }

    /**
     * @return the longest time between two accepted messages (or from the start to the first), ns.
     */
    public long longestSilenceNs()
    {
        return longestSilenceNs;
    }

    /**
     * @return times admission resumed after a fallback.
     */
    public long resumptions()
    {
        return resumptions;
    }

    /**
     * @return DEMAND or OFFER messages sent.
     */
    public long reportsSent()
    {
        return reportsSent;
    }

    /**
     * @return data packets sent while fallen back.
     */
    public long packetsAdmittedInFallback()
    {
        return packetsAdmittedInFallback;
    }

    /**
     * @return the inbox: messages accepted and refused by reason.
     */
    public ControlInbox inbox()
    {
        return inbox;
    }

    /**
     * @return the slot length the controller named, ns; 0 before a GRANTS message named one.
     */
    public long slotClockNs()
    {
        return slotClockNs;
    }

    /**
     * @return SYN's grant queues and counts, or null under ASY.
     */
    public SynAdmission syn()
    {
        return syn;
    }

    /**
     * @return SYN's cumulative slot account, or null under ASY.
     */
    public GrantLedger ledger()
    {
        return ledger;
    }

    /**
     * @return ASY's buckets, or null under SYN.
     */
    public AsyAdmission asy()
    {
        return asy;
    }

    /**
     * @return SYN or ASY.
     */
    public ControlMode mode()
    {
        return mode;
    }

    /**
     * Close the control socket; from the transport's thread.
     */
    public void close()
    {
        channel.close();
    }
}
