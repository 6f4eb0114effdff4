package io.pfabric.common.control;

/**
 * A host's account of timeslots per destination under SYN control, kept in cumulative counts as Fastpass keeps them:
 * the slots it has needed so far (what it reports as demand), the grants it has received, and the newest cumulative
 * total the controller says it granted. When that total runs ahead of the grants received, the difference was lost
 * on the way; those slots are needed again, so demand grows by them and the next report asks for them anew.
 */
public final class GrantLedger
{
    private final long[] neededSlots;
    private final long[] receivedGrants;
    private final long[] grantedTotal;
    private long lostGrants;

    /**
     * A ledger for a fabric's hosts.
     *
     * @param hostCount hosts, so destinations 0 to {@code hostCount - 1}.
     */
    public GrantLedger(final int hostCount)
    {
        neededSlots = new long[hostCount];
        receivedGrants = new long[hostCount];
        grantedTotal = new long[hostCount];
    }

    /**
     * More slots are needed toward a destination.
     *
     * @param destination the host.
     * @param slots       how many more.
     */
    public void addDemand(final int destination, final long slots)
    {
        neededSlots[destination] += slots;
    }

    /**
     * Cumulative slots needed toward a destination: what the next DEMAND report carries.
     *
     * @param destination the host.
     * @return the count.
     */
    public long demandTotal(final int destination)
    {
        return neededSlots[destination];
    }

    /**
     * A grant toward a destination arrived.
     *
     * @param destination the host.
     */
    public void onGrant(final int destination)
    {
        receivedGrants[destination]++;
    }

    /**
     * The controller's cumulative count of slots granted toward a destination arrived, after the message's grants.
     *
     * @param destination the host.
     * @param total       slots granted so far.
     * @return slots found lost by this total, now needed again.
     */
    public long onGrantedTotal(final int destination, final long total)
    {
        if (total <= grantedTotal[destination])
        {
            return 0;
        }
        grantedTotal[destination] = total;
        final long lost = total - receivedGrants[destination];
        if (lost <= 0)
        {
            return 0;
        }
        receivedGrants[destination] = total;
        neededSlots[destination] += lost;
        lostGrants += lost;
        return lost;
    }

    /**
     * Slots outstanding toward a destination: needed and not yet granted as far as this host knows.
     *
     * @param destination the host.
     * @return the count, never negative.
     */
    public long outstanding(final int destination)
    {
        return Math.max(0, neededSlots[destination] - receivedGrants[destination]);
    }

    /**
     * Grants found lost so far, over every destination.
     *
     * @return the count.
     */
    public long lostGrants()
    {
        return lostGrants;
    }
}
