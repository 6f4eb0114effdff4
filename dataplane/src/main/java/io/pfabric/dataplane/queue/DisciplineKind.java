package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.TrafficClasses;

import java.util.Locale;

/**
 * The queue disciplines by command-line name, with their default buffer sizes. A discipline with parameters
 * ({@code strict:4:model}, {@code aifo:k=0.2}) is a {@link DisciplineSpec}; {@link #newQueue(DisciplineSpec, long, int,
 * int, TrafficClasses)} builds it.
 */
public enum DisciplineKind
{
    /** {@link PfabricQueue}. */
    PFABRIC(PfabricQueue.NAME, PfabricQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link DropTailQueue}. */
    DROPTAIL(DropTailQueue.NAME, DropTailQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link EcnQueue} with K = {@link EcnQueue#DEFAULT_MARKING_THRESHOLD_LENGTH}. */
    ECN(EcnQueue.NAME, DropTailQueue.DEFAULT_CAPACITY_LENGTH),
    /**
     * {@link StrictPriorityQueue} with {@link StrictPriorityQueue#DEFAULT_THRESHOLDS} unless given others, on the
     * pFabric paper's §6.2 buffer (225 KB, 15 KB reserved per queue).
     */
    STRICT(StrictPriorityQueue.NAME, StrictPriorityQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link PfabricClassQueue} with {@link TrafficClasses#DEFAULT} unless given classes, on pFabric's buffer size. */
    PFABRIC_CLASSES(PfabricClassQueue.NAME, PfabricQueue.DEFAULT_CAPACITY_LENGTH),
    /**
     * {@link SpPifoQueue}, eight queues unless given another number, splitting the buffer equally, or sharing all of
     * it with {@code sp-pifo:N:shared}.
     */
    SP_PIFO(SpPifoQueue.NAME, SpPifoQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link AifoQueue} with AIFO's pFabric-experiment parameters unless given others. */
    AIFO(AifoQueue.NAME, AifoQueue.DEFAULT_CAPACITY_LENGTH),
    /** {@link PiasQueue}, eight queues and K = 22,500 bytes per queue unless given others. */
    PIAS(PiasQueue.NAME, PiasQueue.DEFAULT_CAPACITY_LENGTH),
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
        return newQueue(DisciplineSpec.parse(cliName), capacityLength, maxFrameLength, maxStoredLength, classes);
    }

    /**
     * A new queue of a discipline with its parameters.
     *
     * @param spec            the discipline; a {@code strict} one with its thresholds known
     *                        ({@link DisciplineSpec#needsWorkload()} false).
     * @param capacityLength  bytes the buffer may hold; 0 for the discipline's default.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored, 8 to {@code maxFrameLength}.
     * @param classes         DSCP to class and the classes' weights, for {@link #PFABRIC_CLASSES}.
     * @return the queue.
     * @throws IllegalArgumentException if the thresholds are still to be computed from a workload.
     */
    public static QueueDiscipline newQueue(final DisciplineSpec spec, final long capacityLength,
        final int maxFrameLength, final int maxStoredLength, final TrafficClasses classes)
    {
        final DisciplineKind kind = byName(spec.name());
        final long capacity = 0 == capacityLength ? kind.defaultCapacityLength : capacityLength;
        return switch (kind)
        {
            case PFABRIC -> new PfabricQueue(capacity, maxFrameLength, maxStoredLength);
            case DROPTAIL -> new DropTailQueue(capacity, maxFrameLength, maxStoredLength);
            case ECN -> new EcnQueue(
                capacity, maxFrameLength, maxStoredLength, EcnQueue.DEFAULT_MARKING_THRESHOLD_LENGTH);
            case STRICT ->
            {
                if (spec.needsWorkload())
                {
                    throw new IllegalArgumentException("'" + spec + "' takes its thresholds from the run's workload " +
                        "and load, and there is none here: give them, as strict:" + spec.queueCount() +
                        ":T1,T2,...");
                }
                yield new StrictPriorityQueue(capacity, maxFrameLength, maxStoredLength, spec.given(),
                    StrictPriorityQueue.reservedLengthFor(capacity, spec.queueCount()));
            }
            case PFABRIC_CLASSES -> new PfabricClassQueue(capacity, maxFrameLength, maxStoredLength, classes);
            case SP_PIFO -> spec.sharedBuffer() ?
                new SpPifoQueue(capacity, maxFrameLength, maxStoredLength, spec.queueCount(), 0) :
                new SpPifoQueue(capacity, maxFrameLength, maxStoredLength, spec.queueCount());
            case AIFO -> new AifoQueue(capacity, maxFrameLength, maxStoredLength, spec.headroom(),
                spec.windowRanks(), spec.sampleEvery());
            case PIAS -> new PiasQueue(capacity, maxFrameLength, maxStoredLength, spec.queueCount(),
                spec.markingLength());
            case PFABRIC_EDF -> new PfabricEdfQueue(capacity, maxFrameLength, maxStoredLength);
        };
    }

    /**
     * The discipline with a command-line name, with or without parameters, which are checked.
     *
     * @param name such as {@code pfabric} or {@code strict:4}; case is ignored.
     * @return the discipline.
     * @throws IllegalArgumentException naming the known disciplines if there is none of that name, or saying what
     *                                  is wrong with the parameters.
     */
    public static DisciplineKind byName(final String name)
    {
        final String wanted = DisciplineSpec.parse(name).name().toLowerCase(Locale.ROOT);
        for (final DisciplineKind kind : values())
        {
            if (kind.cliName.equals(wanted))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException(
            "unknown discipline '" + name + "'; expected one of pfabric, droptail, ecn, strict, pfabric-classes, " +
            "pfabric-edf, sp-pifo, aifo, pias");
    }
}
