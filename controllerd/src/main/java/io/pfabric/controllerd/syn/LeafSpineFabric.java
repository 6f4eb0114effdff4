package io.pfabric.controllerd.syn;

/**
 * The shape of the fabric the allocator schedules: hosts numbered leaf by leaf, {@code hostsPerLeaf} under each leaf,
 * every leaf linked to every spine. A leaf-spine link carries {@code spineLinkPacketsPerSlot} packets per slot (4 for
 * 40 Gb/s spine links and 10 Gb/s hosts), so a slot has {@link #pathCount()} paths out of each leaf and into each one.
 */
public final class LeafSpineFabric
{
    /**
     * Most paths per leaf per slot: one bit each in a long.
     */
    public static final int MAX_PATH_COUNT = 64;

    private final int hostCount;
    private final int hostsPerLeaf;
    private final int leafCount;
    private final int spineCount;
    private final int spineLinkPacketsPerSlot;

    /**
     * A leaf-spine fabric.
     *
     * @param hostCount               hosts in all.
     * @param hostsPerLeaf            hosts under each leaf; the last leaf may have fewer.
     * @param spineCount              spines; may be 0 only if there is a single leaf.
     * @param spineLinkPacketsPerSlot packets a leaf-spine link carries in one slot, at least 1.
     */
    public LeafSpineFabric(
        final int hostCount, final int hostsPerLeaf, final int spineCount, final int spineLinkPacketsPerSlot)
    {
        if (hostCount < 1 || hostsPerLeaf < 1)
        {
            throw new IllegalArgumentException("need at least one host and one host per leaf");
        }
        if (spineLinkPacketsPerSlot < 1)
        {
            throw new IllegalArgumentException("spineLinkPacketsPerSlot must be at least 1");
        }
        this.hostCount = hostCount;
        this.hostsPerLeaf = hostsPerLeaf;
        this.leafCount = (hostCount + hostsPerLeaf - 1) / hostsPerLeaf;
        this.spineCount = spineCount;
        this.spineLinkPacketsPerSlot = spineLinkPacketsPerSlot;
        if (leafCount > 1 && (spineCount < 1 || (long)spineCount * spineLinkPacketsPerSlot > MAX_PATH_COUNT))
        {
            throw new IllegalArgumentException("spines x packets per link per slot must be 1 to " + MAX_PATH_COUNT +
                ", not " + spineCount + " x " + spineLinkPacketsPerSlot);
        }
    }

    /**
     * All hosts under one switch: no grant crosses a spine.
     *
     * @param hostCount hosts.
     * @return the fabric.
     */
    public static LeafSpineFabric singleLeaf(final int hostCount)
    {
        return new LeafSpineFabric(hostCount, hostCount, 0, 1);
    }

    /**
     * @return hosts in all.
     */
    public int hostCount()
    {
        return hostCount;
    }

    /**
     * @return hosts under each leaf.
     */
    public int hostsPerLeaf()
    {
        return hostsPerLeaf;
    }

    /**
     * @return leaves.
     */
    public int leafCount()
    {
        return leafCount;
    }

    /**
     * @return spines.
     */
    public int spineCount()
    {
        return spineCount;
    }

    /**
     * @return packets a leaf-spine link carries in one slot.
     */
    public int spineLinkPacketsPerSlot()
    {
        return spineLinkPacketsPerSlot;
    }

    /**
     * @return paths up out of (or down into) one leaf per slot: spines times packets per link per slot.
     */
    public int pathCount()
    {
        return leafCount > 1 ? spineCount * spineLinkPacketsPerSlot : 0;
    }

    /**
     * @param host a host.
     * @return its leaf.
     */
    public int leafOf(final int host)
    {
        return host / hostsPerLeaf;
    }

    /**
     * @param path a path (a colour of the {@link PathColourer}), 0 to {@link #pathCount()} - 1.
     * @return the spine it crosses.
     */
    public int spineOfPath(final int path)
    {
        return path / spineLinkPacketsPerSlot;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "LeafSpineFabric{hosts=" + hostCount + ", hostsPerLeaf=" + hostsPerLeaf + ", spines=" + spineCount +
            ", spineLinkPacketsPerSlot=" + spineLinkPacketsPerSlot + "}";
    }
}
