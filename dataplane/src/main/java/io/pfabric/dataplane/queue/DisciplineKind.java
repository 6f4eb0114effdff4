package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.TrafficClasses;

import java.util.Locale;

/**
 * The queue disciplines by command-line name, with their default buffer sizes.
 */
public enum DisciplineKind
{
    /** {@link PfabricQueue}. */
    PFABRIC(PfabricQueue.NAME, PfabricQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link DropTailQueue}. */
    DROPTAIL(DropTailQueue.NAME, DropTailQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link EcnQueue} with K = {@link EcnQueue#DEFAULT_MARKING_THRESHOLD_LENGTH}. */
    ECN(EcnQueue.NAME, DropTailQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link StrictPriorityQueue} with {@link StrictPriorityQueue#DEFAULT_THRESHOLDS}, on pFabric's buffer size. */
    STRICT(StrictPriorityQueue.NAME, PfabricQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link PfabricClassQueue} with {@link TrafficClasses#DEFAULT} unless given classes, on pFabric's buffer size. */
    PFABRIC_CLASSES(PfabricClassQueue.NAME, PfabricQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link PfabricEdfQueue}: a deadline queue and another, half the buffer each (two of pFabric's). */
    PFABRIC_EDF(PfabricEdfQueue.NAME, PfabricEdfQueue.DEFAULT_CAPACITY_LENGTH);

    private final String cliName;
    private final long defaultCapacityLength;

    DisciplineKind(final String cliName, final long defaultCapacityLength)
    {
        this.cliName = cliName;
        this.defaultCapacityLength = defaultCapacityLength;
    }

    /**
     * Name on the command line.
     *
     * @return the name.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * Buffer size used when none is configured.
     *
     * @return bytes.
     */
    public long defaultCapacityLength()
    {
        return defaultCapacityLength;
    }

    /**
     * A new queue of this discipline with its default parameters.
     *
     * @param capacityLength bytes the buffer may hold.
     * @param maxFrameLength longest frame accepted.
     * @return the queue.
     */
    public QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return newQueue(capacityLength, maxFrameLength, maxFrameLength);
    }

    /**
     * A new queue of this discipline with its default parameters that stores at most the first bytes of each frame
     * ({@link QueueDiscipline#enqueue(org.agrona.DirectBuffer, int, int, int, long, long)}).
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored, 8 to {@code maxFrameLength}.
     * @return the queue.
     */
    public QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength)
    {
        return newQueue(capacityLength, maxFrameLength, maxStoredLength, TrafficClasses.DEFAULT);
    }

    /**
     * A new queue of this discipline with its default parameters and, for {@link #PFABRIC_CLASSES}, the given
     * traffic classes; the other disciplines have no classes and ignore them.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored, 8 to {@code maxFrameLength}.
     * @param classes         DSCP to class and the classes' weights, for {@link #PFABRIC_CLASSES}.
     * @return the queue.
     */
    public QueueDiscipline newQueue(
        final long capacityLength, final int maxFrameLength, final int maxStoredLength, final TrafficClasses classes)
    {
        return switch (this)
        {
            case PFABRIC -> new PfabricQueue(capacityLength, maxFrameLength, maxStoredLength);
            case DROPTAIL -> new DropTailQueue(capacityLength, maxFrameLength, maxStoredLength);
            case ECN -> new EcnQueue(
                capacityLength, maxFrameLength, maxStoredLength, EcnQueue.DEFAULT_MARKING_THRESHOLD_LENGTH);
            case STRICT -> new StrictPriorityQueue(
                capacityLength, maxFrameLength, maxStoredLength, StrictPriorityQueue.DEFAULT_THRESHOLDS);
            case PFABRIC_CLASSES -> new PfabricClassQueue(capacityLength, maxFrameLength, maxStoredLength, classes);
            case PFABRIC_EDF -> new PfabricEdfQueue(capacityLength, maxFrameLength, maxStoredLength);
        };
    }

    /**
     * The discipline with a command-line name.
     *
     * @param name such as {@code pfabric}; case is ignored.
     * @return the discipline.
     * @throws IllegalArgumentException naming the known disciplines if there is none of that name.
     */
    public static DisciplineKind byName(final String name)
    {
        final String wanted = name.toLowerCase(Locale.ROOT);
        for (final DisciplineKind kind : values())
        {
            if (kind.cliName.equals(wanted))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException(
            "unknown discipline '" + name + "'; expected one of pfabric, droptail, ecn, strict, pfabric-classes, pfabric-edf");
    }
}
