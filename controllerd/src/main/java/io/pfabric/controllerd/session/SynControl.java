package io.pfabric.controllerd.session;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.controllerd.syn.DemandTable;
import io.pfabric.controllerd.syn.GrantHandler;
import io.pfabric.controllerd.syn.LeafSpineFabric;
import io.pfabric.controllerd.syn.Metric;
import io.pfabric.controllerd.syn.TimeslotAllocator;

import java.util.Arrays;

/**
 * SYN control, Fastpass-style. DEMAND entries (cumulative slots per destination) go into a {@link DemandTable}; the
 * {@link TimeslotAllocator} keeps allocation a few batches ahead of the current slot; each slot's grants leave, per
 * source host in GRANTS messages, at most {@code emitAheadSlots} and at least half that before the slot starts (one
 * message per source every {@code emitAheadSlots / 2} slots, so that on a fabric where control messages share the
 * hosts' links they take a small share of each slot), and the hosts send on them in their slot, so that no
 * destination or spine gets more than it can take in a slot. Every GRANTS message starts with a
 * {@link ControlMessageFlyweight#FLAG_CLOCK} entry (when slot 0 starts and the slot length) and ends with a
 * {@link ControlMessageFlyweight#FLAG_TOTAL} entry per destination it names (slots ever granted toward it), and each
 * host gets the totals at least every heartbeat, so a host repairs lost grants by asking again.
 * <p>
 * Slot numbers count from the controller's start: slot {@code s} starts at {@code startNs + s * slotNs}.
 */
public final class SynControl implements ControlPolicy, GrantHandler
{
    private static final int MAX_BATCHES_PER_DUTY = 4;

    /**
     * A grant whose slot began more than this many slots before the current one when the controller gets to send it
     * (its thread was late) is not sent: its slot is over, and a host sends only in the slot. It is counted in the
     * cumulative total all the same, so the host finds it lost and asks again.
     */
    public static final int LATE_SLOTS = 0;

    /**
     * Every host hears from the controller at least every heartbeat interval and at least every this many slots,
     * whichever is longer: totals every millisecond would take a tenth of a 10 Mb/s link.
     */
    public static final int HEARTBEAT_SLOTS = 8;

    private final ControllerSession session;
    private final ControllerCounters counters;
    private final int hostCount;
    private final DemandTable demand;
    private final TimeslotAllocator allocator;
    private final long slotNs;
    private final long startNs;
    private final int lookaheadSlots;
    private final int emitAheadSlots;
    private final int emitEverySlots;
    private final long heartbeatNs;

    private final int ringMask;
    private final long[] ringSlot;
    private final int[] ringSrc;
    private final int[] ringDst;
    private final int[] ringSpine;
    private long ringHead;
    private long ringTail;

    private final int[] emitCount;
    private final int[] emitDst;
    private final int[] emitSpine;
    private final long[] emitSlot;
    private final long[] grantedTotal;
    private final int[] touched = new int[ControlMessageFlyweight.MAX_ENTRIES];
    private final long[] touchedMark;
    private long messageMark;

    private long nowNs;
    private long currentSlot;
    private long nextHeartbeatNs;
    private long nextEmitSlot;

    /**
     * SYN control over a session.
     *
     * @param session        the controller's socket.
     * @param counters       written as it works.
     * @param fabric         the hosts, leaves and paths.
     * @param metric         order of service.
     * @param batchSlots     slots per allocation batch.
     * @param lookahead      batches allocated ahead of the current slot; if that is not beyond the emit-ahead, one
     *                       batch beyond it.
     * @param emitAheadSlots how many slots before its slot a grant leaves.
     * @param slotNs         slot length.
     * @param heartbeatNs    longest time a host goes without a message, or {@value #HEARTBEAT_SLOTS} slots if longer.
     * @param startNs        the clock at slot 0.
     */
    public SynControl(
        final ControllerSession session,
        final ControllerCounters counters,
        final LeafSpineFabric fabric,
        final Metric metric,
        final int batchSlots,
        final int lookahead,
        final int emitAheadSlots,
        final long slotNs,
        final long heartbeatNs,
        final long startNs)
    {
        this.session = session;
        this.counters = counters;
        this.hostCount = fabric.hostCount();
        this.demand = new DemandTable(hostCount, hostCount * (hostCount - 1));
        this.allocator = new TimeslotAllocator(fabric, demand, metric, batchSlots, 0);
        this.slotNs = slotNs;
        this.startNs = startNs;
        this.lookaheadSlots = lookahead * batchSlots > emitAheadSlots ?
            lookahead * batchSlots : emitAheadSlots + batchSlots;
        this.emitAheadSlots = emitAheadSlots;
        this.emitEverySlots = Math.max(1, emitAheadSlots / 2);
        this.heartbeatNs = Math.max(heartbeatNs, HEARTBEAT_SLOTS * slotNs);
        this.nextHeartbeatNs = startNs;

        final long grantsInFlight = (long)hostCount * (lookaheadSlots + batchSlots * (MAX_BATCHES_PER_DUTY + 1));
        final int capacity = 1 << (64 - Long.numberOfLeadingZeros(Math.max(2, grantsInFlight) - 1));
        ringMask = capacity - 1;
        ringSlot = new long[capacity];
        ringSrc = new int[capacity];
        ringDst = new int[capacity];
        ringSpine = new int[capacity];
        emitCount = new int[hostCount + 1];
        emitDst = new int[capacity];
        emitSpine = new int[capacity];
        emitSlot = new long[capacity];
        grantedTotal = new long[hostCount * hostCount];
        touchedMark = new long[hostCount];
    }

    /**
     * {@inheritDoc}
     */
    public void time(final long nowNs)
    {
        this.nowNs = nowNs;
        currentSlot = Math.max(0, (nowNs - startNs) / slotNs);
    }

    /**
     * {@inheritDoc}
     */
    public void onMessage(final ControlMessageFlyweight message, final boolean newest)
    {
        if (ControlMessageFlyweight.TYPE_DEMAND != message.type())
        {
            return;
        }
        final int src = message.host();
        for (int i = 0, count = message.entryCount(); i < count; i++)
        {
            final int dst = message.entryPeer(i);
            if (dst >= hostCount || dst == src)
            {
                counters.invalidEntries++;
                continue;
            }
            counters.demandEntries++;
            demand.request(src, dst, (int)message.entryValue(i), currentSlot);
        }
    }

    /**
     * {@inheritDoc}
     */
    public int duty(final long nowNs)
    {
        time(nowNs);
        int work = 0;
        allocator.skipTo(currentSlot + emitAheadSlots + 1);
        for (int batch = 0; batch < MAX_BATCHES_PER_DUTY && allocator.nextSlot() <= currentSlot + lookaheadSlots;
            batch++)
        {
            if (demand.activePairCount() > 0)
            {
                counters.batchesAllocated++;
                work++;
            }
            counters.grantsAllocated += allocator.allocateBatch(this);
        }
        if (currentSlot >= nextEmitSlot)
        {
            nextEmitSlot = currentSlot + emitEverySlots;
            work += emit(currentSlot + emitAheadSlots);
        }
        if (nowNs - nextHeartbeatNs >= 0)
        {
            nextHeartbeatNs = nowNs + heartbeatNs;
            for (int host = 0; host < hostCount; host++)
            {
                sendTotals(host);
            }
            work++;
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public long nextDeadlineNs()
    {
        final long nextSlotNs = startNs + (currentSlot + 1) * slotNs;
        return Math.min(nextSlotNs, nextHeartbeatNs);
    }

    /**
     * {@inheritDoc}
     */
    public void onGrant(final long slot, final int srcHost, final int dstHost, final int spine)
    {
        final int at = (int)(ringTail++ & ringMask);
        ringSlot[at] = slot;
        ringSrc[at] = srcHost;
        ringDst[at] = dstHost;
        ringSpine[at] = spine;
    }

    /**
     * @return the slot the controller's clock is in.
     */
    public long currentSlot()
    {
        return currentSlot;
    }

    /**
     * @return pairs with slots requested and not yet allocated.
     */
    public int activePairs()
    {
        return demand.activePairCount();
    }

    private int emit(final long lastSlot)
    {
        final long head = ringHead;
        long end = head;
        while (end < ringTail && ringSlot[(int)(end & ringMask)] <= lastSlot)
        {
            end++;
        }
        final int count = (int)(end - head);
        if (0 == count)
        {
            return 0;
        }
        Arrays.fill(emitCount, 0);
        final long lateSlot = currentSlot - LATE_SLOTS;
        for (long i = head; i < end; i++)
        {
            final int at = (int)(i & ringMask);
            if (ringSlot[at] < lateSlot)
            {
                grantedTotal[ringSrc[at] * hostCount + ringDst[at]]++;
                counters.grantsDroppedLate++;
                continue;
            }
            emitCount[ringSrc[at] + 1]++;
        }
        for (int h = 0; h < hostCount; h++)
        {
            emitCount[h + 1] += emitCount[h];
        }
        for (long i = head; i < end; i++)
        {
            final int at = (int)(i & ringMask);
            if (ringSlot[at] < lateSlot)
            {
                continue;
            }
            final int to = emitCount[ringSrc[at]]++;
            emitDst[to] = ringDst[at];
            emitSpine[to] = ringSpine[at];
            emitSlot[to] = ringSlot[at];
        }
        int from = 0;
        for (int h = 0; h < hostCount; h++)
        {
            final int to = emitCount[h];
            if (to > from)
            {
                sendGrants(h, from, to);
            }
            from = to;
        }
        ringHead = end;
        return count;
    }

    private void sendGrants(final int src, final int from, final int to)
    {
        ControlMessageFlyweight message = startGrants(src);
        int touchedCount = 0;
        for (int n = from; n < to; n++)
        {
            final int dst = emitDst[n];
            final boolean newDst = touchedMark[dst] != messageMark;
            if (message.entryCount() + touchedCount + (newDst ? 2 : 1) > ControlMessageFlyweight.MAX_ENTRIES)
            {
                finishGrants(message, src, touchedCount);
                message = startGrants(src);
                touchedCount = 0;
            }
            if (touchedMark[dst] != messageMark)
            {
                touchedMark[dst] = messageMark;
                touched[touchedCount++] = dst;
            }
            final int spine = emitSpine[n];
            message.appendEntry(dst, spine < 0 ? ControlMessageFlyweight.NO_SPINE : spine, 0, emitSlot[n]);
            grantedTotal[src * hostCount + dst]++;
            counters.grantsSent++;
        }
        finishGrants(message, src, touchedCount);
    }

    private ControlMessageFlyweight startGrants(final int src)
    {
        messageMark++;
        return startWithClock(src);
    }

    private ControlMessageFlyweight startWithClock(final int host)
    {
        final ControlMessageFlyweight message = session.start(ControlMessageFlyweight.TYPE_GRANTS, host);
        message.appendEntry(host, 0, ControlMessageFlyweight.FLAG_CLOCK, slotNs, startNs);
        return message;
    }

    private void finishGrants(final ControlMessageFlyweight message, final int src, final int touchedCount)
    {
        for (int i = 0; i < touchedCount; i++)
        {
            final int dst = touched[i];
            message.appendEntry(dst, 0, ControlMessageFlyweight.FLAG_TOTAL, grantedTotal[src * hostCount + dst]);
        }
        counters.grantMessagesSent++;
        session.send();
    }

    private void sendTotals(final int host)
    {
        ControlMessageFlyweight message = startWithClock(host);
        for (int dst = 0; dst < hostCount; dst++)
        {
            final long total = grantedTotal[host * hostCount + dst];
            if (0 == total)
            {
                continue;
            }
            if (!message.hasRoom())
            {
                counters.heartbeatsSent++;
                session.send();
                message = startWithClock(host);
            }
            message.appendEntry(dst, 0, ControlMessageFlyweight.FLAG_TOTAL, total);
        }
        counters.heartbeatsSent++;
        session.send();
    }
}
