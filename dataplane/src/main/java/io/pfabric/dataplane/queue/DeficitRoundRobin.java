package io.pfabric.dataplane.queue;

/**
 * Deficit round robin over bytes between classes (Shreedhar and Varghese): the classes with something to send take
 * turns in the order they became active; at the start of its turn a class's deficit grows by its quantum, and it
 * sends while what it sends is covered by its deficit; a class that empties leaves the round and its deficit is
 * reset. Used by the switch's {@link PfabricClassQueue} and by hostd's sending. Pre-allocated; no allocation.
 */
public final class DeficitRoundRobin
{
    /** No class. */
    public static final int NONE = -1;

    private final long[] quantumLength;
    private final long[] deficitLength;
    private final int[] next;
    private final int[] prev;
    private int head = NONE;
    private int tail = NONE;
    private boolean headCredited;

    /**
     * A round over classes 0 to {@code quantumLength.length - 1}, all inactive.
     *
     * @param quantumLength each class's quantum in bytes, positive.
     */
    public DeficitRoundRobin(final long[] quantumLength)
    {
        this.quantumLength = quantumLength.clone();
        for (final long quantum : this.quantumLength)
        {
            if (quantum < 1)
            {
                throw new IllegalArgumentException("quantum must be positive: " + quantum);
            }
        }
        deficitLength = new long[quantumLength.length];
        next = new int[quantumLength.length];
        prev = new int[quantumLength.length];
    }

    /**
     * Whether no class is active.
     *
     * @return true if none.
     */
    public boolean isIdle()
    {
        return NONE == head;
    }

    /**
     * The class whose turn it is, its deficit credited with its quantum once per turn. Only while not
     * {@link #isIdle()}.
     *
     * @return the class.
     */
    public int creditedHead()
    {
        if (!headCredited)
        {
            deficitLength[head] += quantumLength[head];
            headCredited = true;
        }
        return head;
    }

    /**
     * A class's quantum.
     *
     * @param trafficClass index from 0.
     * @return bytes.
     */
    public long quantumLength(final int trafficClass)
    {
        return quantumLength[trafficClass];
    }

    /**
     * A class's deficit: the bytes it may still send in its turn.
     *
     * @param trafficClass index from 0.
     * @return bytes, 0 or less once spent.
     */
    public long deficitLength(final int trafficClass)
    {
        return deficitLength[trafficClass];
    }

    /**
     * Charge bytes sent to a class's deficit.
     *
     * @param trafficClass index from 0.
     * @param length       bytes.
     */
    public void charge(final int trafficClass, final long length)
    {
        deficitLength[trafficClass] -= length;
    }

    /**
     * End the head class's turn: it goes behind the others, keeping its deficit.
     */
    public void endTurn()
    {
        final int trafficClass = head;
        if (tail != trafficClass)
        {
            final int following = next[trafficClass];
            head = following;
            prev[following] = NONE;
            next[tail] = trafficClass;
            prev[trafficClass] = tail;
            next[trafficClass] = NONE;
            tail = trafficClass;
        }
        headCredited = false;
    }

    /**
     * A class has something to send: it joins the round at the back. Only for an inactive class.
     *
     * @param trafficClass index from 0.
     */
    public void activate(final int trafficClass)
    {
        next[trafficClass] = NONE;
        prev[trafficClass] = tail;
        if (NONE == tail)
        {
            head = trafficClass;
            headCredited = false;
        }
        else
        {
            next[tail] = trafficClass;
        }
        tail = trafficClass;
    }

    /**
     * A class has nothing left to send: it leaves the round and its deficit is reset. Only for an active class.
     *
     * @param trafficClass index from 0.
     */
    public void deactivate(final int trafficClass)
    {
        final int before = prev[trafficClass];
        final int after = next[trafficClass];
        if (NONE == before)
        {
            head = after;
            headCredited = false;
        }
        else
        {
            next[before] = after;
        }
        if (NONE == after)
        {
            tail = before;
        }
        else
        {
            prev[after] = before;
        }
        deficitLength[trafficClass] = 0;
    }
}
