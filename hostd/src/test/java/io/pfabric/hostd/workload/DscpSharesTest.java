package io.pfabric.hostd.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DscpSharesTest
{
    private static List<WorkloadTrace.FlowSpec> trace(final int count)
    {
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            flows.add(new WorkloadTrace.FlowSpec(i, i % 4, (i + 1) % 4, 1_460L * (1 + i % 7), 1_000L * i));
        }
        return flows;
    }

    @Test
    void marksFlowsInProportionToTheSharesAndKeepsEverythingElse()
    {
        final List<WorkloadTrace.FlowSpec> flows = trace(40_000);
        final List<WorkloadTrace.FlowSpec> marked = WorkloadTrace.withDscpShares(flows, "0:3, 8:1", 5);
        assertEquals(flows.size(), marked.size());
        int eight = 0;
        for (int i = 0; i < flows.size(); i++)
        {
            final WorkloadTrace.FlowSpec flow = flows.get(i);
            final WorkloadTrace.FlowSpec mark = marked.get(i);
            assertEquals(new WorkloadTrace.FlowSpec(flow.flowIndex(), flow.sourceHost(), flow.destinationHost(),
                flow.sizeBytes(), flow.startNs(), mark.dscp()), mark);
            assertTrue(0 == mark.dscp() || 8 == mark.dscp());
            eight += 8 == mark.dscp() ? 1 : 0;
        }
        assertTrue(Math.abs(eight - 10_000) < 400, "one flow in four of DSCP 8: " + eight);
    }

    @Test
    void theSameSeedMarksTheSameFlows()
    {
        final List<WorkloadTrace.FlowSpec> flows = trace(1_000);
        assertEquals(WorkloadTrace.withDscpShares(flows, "0:1,46:1,8:2", 9),
            WorkloadTrace.withDscpShares(flows, "0:1,46:1,8:2", 9));
        assertEquals(0, trace(1).get(0).dscp());
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "0", "0:1,0:2", "64:1", "-1:1", "0:0", "0:-1", "0:x", "0:1:2", "0:1," })
    void rejectsSharesThatDoNotParse(final String shares)
    {
        assertThrows(IllegalArgumentException.class, () -> WorkloadTrace.withDscpShares(trace(3), shares, 1));
    }
}
