package io.pfabric.analysis;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Ideal schedules computed by hand. The rate is 12 Mb/s, so a 1500-byte packet takes exactly 1 ms; the base RTT is
 * 1.5 ms, so every flow ends 0.5 ms after its last packet's serialization.
 */
class IdealSchedulerTest
{
    private static final long MS = 1_000_000L;
    private static final int SEGMENT = FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES;

    private final IdealScheduler ideal = new IdealScheduler(12_000_000L, (source, destination) -> 3 * MS / 2);

    private static IdealScheduler.Flow flow(final long id, final int source, final int destination,
        final int packets, final long startMs)
    {
        return new IdealScheduler.Flow(id, source, destination, (long)packets * SEGMENT, startMs * MS);
    }

    private Map<Long, Long> endsMs(final List<IdealScheduler.Flow> flows)
    {
        final Map<Long, Long> ends = new HashMap<>();
        for (final IdealScheduler.Result result : ideal.run(flows))
        {
            ends.put(result.flow().flowId(), result.endNs() - MS / 2);
        }
        ends.replaceAll((id, endNs) -> endNs / MS);
        return ends;
    }

    @Test
    void aFlowAloneTakesTheBaseRttPlusItsOtherPackets()
    {
        final IdealScheduler.Flow alone = flow(1, 0, 1, 5, 2);
        final IdealScheduler.Result result = ideal.run(List.of(alone)).get(0);
        assertEquals(3 * MS / 2 + 4 * MS, result.fctNs());
        assertEquals(1.0, result.fctNs() / ideal.idealFctNs(alone), 1e-12, "normalized to exactly 1");
    }

    @Test
    void threeFlowsSharingASourceRunShortestFirst()
    {
        final Map<Long, Long> ends = endsMs(List.of(flow(1, 0, 1, 3, 0), flow(2, 0, 2, 1, 0), flow(3, 0, 3, 2, 0)));
        assertEquals(Map.of(2L, 1L, 3L, 3L, 1L, 6L), ends);
    }

    @Test
    void aFlowBlockedOnlyAtItsDestinationWaitsWhileItsSourceIdles()
    {
        final Map<Long, Long> ends = endsMs(List.of(flow(1, 0, 2, 2, 0), flow(2, 1, 2, 3, 0)));
        assertEquals(Map.of(1L, 2L, 2L, 5L), ends);
    }

    @Test
    void aShorterFlowArrivingLaterPreemptsAndTheMatchingIsRecomputed()
    {
        final Map<Long, Long> ends = endsMs(List.of(flow(1, 0, 1, 10, 0), flow(2, 0, 2, 2, 3)));
        assertEquals(Map.of(2L, 5L, 1L, 12L), ends, "f2 runs 3..5 while f1 waits with 7 packets left");
    }

    @Test
    void blockingMovesFromDestinationToSourceAsRemainingSizesChange()
    {
        final Map<Long, Long> ends =
            endsMs(List.of(flow(1, 0, 2, 2, 0), flow(2, 1, 2, 3, 0), flow(3, 1, 3, 4, 0)));
        assertEquals(Map.of(1L, 2L, 3L, 4L, 2L, 7L), ends,
            "f2 first waits for h2 behind f1, then for h1 behind f3, which has less left by then");
    }
}
