package io.pfabric.bench.jmh;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.DropHandler;
import io.pfabric.dataplane.queue.FrameHandler;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.PfabricEdfQueue;
import io.pfabric.dataplane.queue.PfabricQueue;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.dataplane.queue.ReferencePfabricQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One enqueue plus one dequeue on an egress buffer of 24 or 600 full frames held at a steady occupancy of all but one
 * frame, with random priorities over many flows. The enqueue copies the frame (1500 bytes unless set otherwise) into a
 * slot; the dequeue hands the port a view of the slot, as a port writing into its transmit ring would take it. Each
 * flow's frames carry the DSCP 8 × (flow mod 8), so that {@code pfabric-classes} (with its default classes, one per IP
 * precedence) spreads them evenly over eight classes, and the frames of odd flows carry the DEADLINE flag, so that
 * {@code pfabric-edf} puts half the flows in its deadline queue; the other disciplines ignore both.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QueueBenchmark
{
    /**
     * Name of the simple reference model in {@link #discipline}.
     */
    public static final String REFERENCE = "reference";

    /**
     * Prefix of a pFabric queue with a chosen {@link PfabricQueue.Structure} in {@link #discipline}.
     */
    public static final String PFABRIC_STRUCTURE_PREFIX = "pfabric-";

    private static final int MAX_FRAME_LENGTH = 1514;
    private static final int FLOWS = 1024;
    private static final int ARRIVALS = 1 << 16;
    private static final int MASK = ARRIVALS - 1;

    /**
     * A discipline name ({@code pfabric}, {@code droptail}, {@code ecn}, {@code strict}, {@code pfabric-classes},
     * {@code pfabric-edf}),
     * {@code pfabric-sorted} or
     * {@code pfabric-heaps} for a pFabric queue of that structure, or {@value #REFERENCE}.
     */
    @Param({ "pfabric", "pfabric-edf", "droptail", REFERENCE })
    public String discipline;

    /**
     * Buffer size in full (1500-byte) frames.
     */
    @Param({ "24", "600" })
    public int bufferPackets;

    /**
     * Length of every frame offered, in bytes; the buffer is kept at all but one frame of this length.
     */
    @Param({ "1500" })
    public int frameLength;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[MAX_FRAME_LENGTH]);
    private final FrameHandler port = (buffer, offset, length) -> lastByte = buffer.getByte(offset + length - 1);
    private byte lastByte;
    private final long[] priorities = new long[ARRIVALS];
    private final long[] flowIds = new long[ARRIVALS];
    private final int[] dscps = new int[ARRIVALS];
    private final int[] flags = new int[ARRIVALS];
    private QueueDiscipline queue;
    private ReferencePfabricQueue reference;
    private int next;

    /**
     * Build the buffer and fill it to its steady occupancy.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < ARRIVALS; i++)
        {
            priorities[i] = random.nextLong(1L << 32);
            flowIds[i] = random.nextInt(FLOWS);
            dscps[i] = 8 * (int)(flowIds[i] % 8);
            flags[i] = 1 == flowIds[i] % 2 ? PfabricHeaderFlyweight.FLAG_DEADLINE : 0;
        }
        final long capacityLength = (long)bufferPackets * 1500;
        if (REFERENCE.equals(discipline))
        {
            reference = new ReferencePfabricQueue(capacityLength, MAX_FRAME_LENGTH, DropHandler.NONE);
        }
        else if (isStructureName(discipline))
        {
            queue = new PfabricQueue(capacityLength, MAX_FRAME_LENGTH, structure(discipline));
        }
        else
        {
            queue = DisciplineKind.byName(discipline).newQueue(capacityLength, MAX_FRAME_LENGTH);
        }
        final long steadyFrames = capacityLength / frameLength - 1;
        for (int i = 0; i < steadyFrames; i++)
        {
            enqueue();
        }
    }

    /**
     * One enqueue and one dequeue.
     *
     * @return the dequeued frame's length and last byte, so the work cannot be eliminated.
     */
    @Benchmark
    public int enqueueDequeue()
    {
        enqueue();
        return (null == queue ? reference.dequeue(port) : queue.dequeue(port)) + lastByte;
    }

    /**
     * Whether a discipline name forces a pFabric structure ({@code pfabric-sorted}, {@code pfabric-heaps}) rather than
     * naming a discipline such as {@code pfabric-classes}.
     *
     * @param discipline the name.
     * @return true if it starts with {@value #PFABRIC_STRUCTURE_PREFIX} and is no discipline's name.
     */
    public static boolean isStructureName(final String discipline)
    {
        return discipline.startsWith(PFABRIC_STRUCTURE_PREFIX) && !PfabricClassQueue.NAME.equals(discipline) &&
            !PfabricEdfQueue.NAME.equals(discipline);
    }

    /**
     * The structure named by a {@value #PFABRIC_STRUCTURE_PREFIX} discipline.
     *
     * @param discipline such as {@code pfabric-heaps}.
     * @return the structure.
     * @throws IllegalArgumentException if it names none.
     */
    public static PfabricQueue.Structure structure(final String discipline)
    {
        final String name = discipline.substring(PFABRIC_STRUCTURE_PREFIX.length());
        for (final PfabricQueue.Structure structure : PfabricQueue.Structure.values())
        {
            if (structure.name().equalsIgnoreCase(name))
            {
                return structure;
            }
        }
        throw new IllegalArgumentException("unknown pFabric structure in '" + discipline +
            "'; expected pfabric-sorted or pfabric-heaps");
    }

    private void enqueue()
    {
        final int i = next++ & MASK;
        if (null == queue)
        {
            reference.enqueue(frame, 0, frameLength, priorities[i], flowIds[i]);
        }
        else
        {
            queue.enqueue(frame, 0, frameLength, frameLength, priorities[i], flowIds[i], dscps[i], flags[i]);
        }
    }
}
