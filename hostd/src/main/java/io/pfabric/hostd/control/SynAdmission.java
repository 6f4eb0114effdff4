package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.hostd.transport.Admission;

/**
 * SYN admission on the host, as Fastpass's endpoint does it: each granted slot lets one packet toward its destination
 * leave as soon as the grant arrives (send on arrival), on the grant's spine. Grants wait per destination in arrival
 * order; one not used within its lifetime (the packet it was for went otherwise, or the host was late) is dropped,
 * so a stale grant never sends a packet into a slot that belongs to someone else. Pure: time is given.
 */
public final class SynAdmission
{
    /**
     * Most grants waiting per destination; more are dropped and counted.
     */
    public static final int MAX_QUEUED_GRANTS = 256;

    private final long grantLifetimeNs;
    private final long[] arrivalNs;
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
     * @param grantLifetimeNs how long a grant may wait before it is dropped.
     */
    public SynAdmission(final int hostCount, final long grantLifetimeNs)
    {
        this.grantLifetimeNs = grantLifetimeNs;
        arrivalNs = new long[hostCount * MAX_QUEUED_GRANTS];
        spine = new int[hostCount * MAX_QUEUED_GRANTS];
        head = new int[hostCount];
        count = new int[hostCount];
    }

    /**
     * A granted slot toward a destination arrived.
     *
     * @param destinationHost the receiving host.
     * @param grantSpine      the spine, or {@link ControlMessageFlyweight#NO_SPINE}.
     * @param nowNs           the host's clock.
     */
    public void onGrant(final int destinationHost, final int grantSpine, final long nowNs)
    {
        grantsReceived++;
        if (count[destinationHost] == MAX_QUEUED_GRANTS)
        {
            grantsOverflowed++;
            return;
        }
        final int at = destinationHost * MAX_QUEUED_GRANTS +
            (head[destinationHost] + count[destinationHost]++) % MAX_QUEUED_GRANTS;
        arrivalNs[at] = nowNs;
        spine[at] = ControlMessageFlyweight.NO_SPINE == grantSpine ? Admission.NO_PATH : grantSpine;
    }

    /**
     * Whether a grant toward a destination is waiting (dropping those past their lifetime first).
     *
     * @param destinationHost the receiving host.
     * @param nowNs           the host's clock.
     * @return true if a packet may leave.
     */
    public boolean mayAdmit(final int destinationHost, final long nowNs)
    {
        while (count[destinationHost] > 0 &&
            nowNs - arrivalNs[destinationHost * MAX_QUEUED_GRANTS + head[destinationHost]] > grantLifetimeNs)
        {
            pop(destinationHost);
            grantsExpired++;
        }
        return count[destinationHost] > 0;
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
     * Grants waiting toward a destination (some may be past their lifetime).
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
     * @return grants dropped unused past their lifetime.
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
