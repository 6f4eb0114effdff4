package io.pfabric.bench.jmh;

import io.pfabric.controllerd.syn.DemandTable;
import io.pfabric.controllerd.syn.GrantHandler;
import io.pfabric.controllerd.syn.LeafSpineFabric;
import io.pfabric.controllerd.syn.Metric;
import io.pfabric.controllerd.syn.TimeslotAllocator;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * One batch of 64 slots of the SYN {@link TimeslotAllocator}, with spine assignment, on a non-blocking leaf-spine
 * fabric (16 hosts per leaf up to 256 hosts, else 32; a spine per 4 hosts of a leaf, its links carrying 4 packets per
 * slot, as 40 Gb/s spines over 10 Gb/s hosts). Before each batch, outside the timing, every source is offered
 * {@code load} x 64 cells on average as Poisson requests of exponential size (about {@value #MEAN_REQUEST_CELLS} cells,
 * as Fastpass's benchmark) to uniformly random other hosts; a source with more than {@value #MAX_OUTSTANDING_CELLS}
 * cells outstanding skips its turn, like a host with a full window. {@link Counters} counts the grants, so the time per
 * allocated slot is the time per batch over the grants per batch.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimeslotAllocatorBenchmark
{
    /**
     * Mean request size in cells.
     */
    public static final int MEAN_REQUEST_CELLS = 10;

    /**
     * Most cells a source keeps outstanding.
     */
    public static final int MAX_OUTSTANDING_CELLS = 4 * TimeslotAllocator.MAX_BATCH_SLOTS;

    private static final int WARM_UP_BATCHES = 200;

    /**
     * Hosts.
     */
    @Param({ "144", "1024" })
    public int hosts;

    /**
     * Offered load, a fraction of each host's slots.
     */
    @Param({ "0.9" })
    public double load;

    /**
     * The order pairs are served in: OCF, SRJF or MMF.
     */
    @Param({ "OCF" })
    public String metric;

    /**
     * Grants and batches, for grants per batch.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counters
    {
        /**
         * Grants made.
         */
        public long grants;

        /**
         * Batches allocated.
         */
        public long batches;

        /**
         * Start each iteration from zero.
         */
        @Setup(Level.Iteration)
        public void reset()
        {
            grants = 0;
            batches = 0;
        }
    }

    private final SplittableRandom random = new SplittableRandom(42);
    private DemandTable demand;
    private TimeslotAllocator allocator;
    private long[] outstandingCells;
    private double[] creditCells;
    private int[] nextRequestCells;
    private final GrantHandler handler = (slot, src, dst, spine) -> outstandingCells[src]--;

    /**
     * Build the fabric and run it into a steady state.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final int hostsPerLeaf = hosts <= 256 ? 16 : 32;
        final LeafSpineFabric fabric = new LeafSpineFabric(hosts, hostsPerLeaf, hostsPerLeaf / 4, 4);
        demand = new DemandTable(hosts, hosts * 64);
        allocator = new TimeslotAllocator(fabric, demand, Metric.valueOf(metric), 64, 0);
        outstandingCells = new long[hosts];
        creditCells = new double[hosts];
        nextRequestCells = new int[hosts];
        for (int host = 0; host < hosts; host++)
        {
            nextRequestCells[host] = requestCells();
        }
        for (int i = 0; i < WARM_UP_BATCHES; i++)
        {
            offer();
            allocator.allocateBatch(handler);
        }
    }

    /**
     * Offer the next batch's demand; not timed.
     */
    @Setup(Level.Invocation)
    public void offer()
    {
        final long slot = allocator.nextSlot();
        final double cellsPerBatch = load * allocator.batchSlots();
        for (int src = 0; src < hosts; src++)
        {
            if (outstandingCells[src] > MAX_OUTSTANDING_CELLS)
            {
                continue;
            }
            double credit = creditCells[src] + cellsPerBatch;
            while (credit >= nextRequestCells[src])
            {
                final int cells = nextRequestCells[src];
                int dst = random.nextInt(hosts - 1);
                if (dst >= src)
                {
                    dst++;
                }
                demand.add(src, dst, cells, slot);
                outstandingCells[src] += cells;
                credit -= cells;
                nextRequestCells[src] = requestCells();
            }
            creditCells[src] = credit;
        }
    }

    /**
     * Allocate one batch of 64 slots and choose their spines.
     *
     * @param counters counts the grants.
     * @return grants made.
     */
    @Benchmark
    public int allocateBatch(final Counters counters)
    {
        final int grants = allocator.allocateBatch(handler);
        counters.grants += grants;
        counters.batches++;
        return grants;
    }

    private int requestCells()
    {
        return 1 + (int)(-Math.log(1.0 - random.nextDouble()) * (MEAN_REQUEST_CELLS - 1));
    }
}
