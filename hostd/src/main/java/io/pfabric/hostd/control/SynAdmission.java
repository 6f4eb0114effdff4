package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.hostd.transport.Admission;

/**
 * SYN admission on the host. A grant is a window in which one packet toward its destination may leave, on the grant's
 * spine. A timed grant ({@link #onSlotGrant}) opens when its slot starts and closes a bounded lateness later, so a
 * granted packet leaves in its slot, never in a later one: a host that wakes late does not turn the grants it holds
 * into a burst. A grant taken on arrival ({@link #onGrant}, Fastpass's released endpoint and the simulator) opens when
 * it arrives and closes its lifetime later. Grants wait per destination in the order they open; one that closes
 * unused (the packet it was for went otherwise, or the host was late) is dropped and counted, so a stale grant never
 * sends a packet into a slot that belongs to someone else. Pure: time is given.
 */
public final class SynAdmission
{
    /**
     * Most grants waiting per destination; more are dropped and counted.
     */
    public static final int MAX_QUEUED_GRANTS = 256;

    private final long grantLifetimeNs;
    private final long[] opensNs;
    private final long[] closesNs;
    private final int[] spine;
    private final int[] head;
    private final int[] count;
    private long grantsReceived;
    private long grantsUsed;
    private long grantsExpired;
    private long grantsOverflowed;

    /**
     * Admission for a fabric's hosts.
     *
     * @param hostCount       hosts, so destinations 0 to {@code hostCount - 1}.
     * @param grantLifetimeNs how long a grant taken on arrival may wait before it is dropped.
     */
    public SynAdmission(final int hostCount, final long grantLifetimeNs)
    {
        this.grantLifetimeNs = grantLifetimeNs;
        opensNs = new long[hostCount * MAX_QUEUED_GRANTS];
        closesNs = new long[hostCount * MAX_QUEUED_GRANTS];
        spine = new int[hostCount * MAX_QUEUED_GRANTS];
        head = new int[hostCount];
        count = new int[hostCount];
    }

    /**
     * A grant toward a destination arrived, to be used from now on for its lifetime.
     *
     * @param destinationHost the receiving host.
     * @param grantSpine      the spine, or {@link ControlMessageFlyweight#NO_SPINE}.
     * @param nowNs           the host's clock.
     */
    public void onGrant(final int destinationHost, final int grantSpine, final long nowNs)
    {
        onSlotGrant(destinationHost, grantSpine, nowNs, nowNs + grantLifetimeNs);
    }

    /**
     * A grant toward a destination arrived for a slot: a packet may leave from {@code opensNs} (the slot's start)
     * until {@code closesNs}. Grants that arrive out of order are put in the order they open.
     *
     * @param destinationHost the receiving host.
     * @param grantSpine      the spine, or {@link ControlMessageFlyweight#NO_SPINE}.
     * @param opensNs         on the host's clock, when the slot starts.
     * @param closesNs        on the host's clock, the latest a packet may leave on it.
     */
    public void onSlotGrant(final int destinationHost, final int grantSpine, final long opensNs, final long closesNs)
    {
        grantsReceived++;
        if (count[destinationHost] == MAX_QUEUED_GRANTS)
        {
            grantsOverflowed++;
            return;
        }
        final int base = destinationHost * MAX_QUEUED_GRANTS;
        int position = count[destinationHost]++;
        while (position > 0)
        {
            final int before = base + (head[destinationHost] + position - 1) % MAX_QUEUED_GRANTS;
            if (opensNs - this.opensNs[before] >= 0)
            {
                break;
            }
            final int at = base + (head[destinationHost] + position) % MAX_QUEUED_GRANTS;
            this.opensNs[at] = this.opensNs[before];
            this.closesNs[at] = this.closesNs[before];
            spine[at] = spine[before];
            position--;
        }
        final int at = base + (head[destinationHost] + position) % MAX_QUEUED_GRANTS;
        this.opensNs[at] = opensNs;
        this.closesNs[at] = closesNs;
        spine[at] = ControlMessageFlyweight.NO_SPINE == grantSpine ? Admission.NO_PATH : grantSpine;
    }

    /**
     * Whether a grant toward a destination is open (dropping those that closed unused first).
     *
     * @param destinationHost the receiving host.
     * @param nowNs           the host's clock.
     * @return true if a packet may leave.
     */
    public boolean mayAdmit(final int destinationHost, final long nowNs)
    {
        expire(destinationHost, nowNs);
        return count[destinationHost] > 0 &&
            nowNs - opensNs[destinationHost * MAX_QUEUED_GRANTS + head[destinationHost]] >= 0;
    }

    /**
     * When the next grant opens that has not opened yet, over all destinations: the time a host holding back packets
     * for want of an open grant has something to send.
     *
     * @param nowNs the host's clock.
     * @return nanoseconds on the host's clock, or {@link Long#MAX_VALUE} if no grant waits to open.
     */
    public long nextOpensNs(final long nowNs)
    {
        long next = Long.MAX_VALUE;
        for (int d = 0; d < count.length; d++)
        {
            expire(d, nowNs);
            if (count[d] > 0)
            {
                final long opens = opensNs[d * MAX_QUEUED_GRANTS + head[d]];
                if (opens - nowNs > 0 && (Long.MAX_VALUE == next || opens - next < 0))
                {
                    next = opens;
                }
            }
        }
        return next;
    }

    private void expire(final int destinationHost, final long nowNs)
    {
        while (count[destinationHost] > 0 &&
            nowNs - closesNs[destinationHost * MAX_QUEUED_GRANTS + head[destinationHost]] > 0)
        {
            pop(destinationHost);
            grantsExpired++;
        }
    }

    /**
     * The spine of the grant the next packet toward a destination uses; after {@link #mayAdmit} said yes.
     *
     * @param destinationHost the receiving host.
     * @return the spine index or {@link Admission#NO_PATH}.
     */
    public int pathHint(final int destinationHost)
    {
        return count[destinationHost] > 0 ?
            spine[destinationHost * MAX_QUEUED_GRANTS + head[destinationHost]] : Admission.NO_PATH;
    }

    /**
     * A packet toward a destination left on its grant.
     *
     * @param destinationHost the receiving host.
     */
    public void onAdmitted(final int destinationHost)
    {
        if (count[destinationHost] > 0)
        {
            pop(destinationHost);
            grantsUsed++;
        }
    }

    /**
     * Grants waiting toward a destination, open or not yet (some may have closed).
     *
     * @param destinationHost the receiving host.
     * @return the count.
     */
    public int queued(final int destinationHost)
    {
        return count[destinationHost];
    }

    private void pop(final int destinationHost)
    {
        head[destinationHost] = (head[destinationHost] + 1) % MAX_QUEUED_GRANTS;
        count[destinationHost]--;
    }

    /**
     * @return grants received.
     */
    public long grantsReceived()
    {
        return grantsReceived;
    }

    /**
     * @return grants a packet left on.
     */
    public long grantsUsed()
    {
        return grantsUsed;
    }

    /**
     * @return grants dropped unused when they closed.
     */
    public long grantsExpired()
    {
        return grantsExpired;
    }

    /**
     * @return grants dropped because {@value #MAX_QUEUED_GRANTS} were already waiting.
     */
    public long grantsOverflowed()
    {
        return grantsOverflowed;
    }
}
