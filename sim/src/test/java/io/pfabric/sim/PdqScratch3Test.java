package io.pfabric.sim;

import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.pdq.PdqSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

class PdqScratch3Test
{
    @Test
    void scratch() throws Exception
    {
        final SimFabric fabric = PdqSanityExperiment.fabric();
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        int i = 0;
        for (int h = 0; h < 3; h++)
            for (int k = 0; k < 3; k++)
                trace.add(new WorkloadTrace.FlowSpec(i++, h, 3 + k, 100_000 + 1000 * i, 0, 0));
        final SimSettings settings = SimSettings.forFabric(fabric);
        for (String v : new String[] {"pdq-basic", "pdq-es", "pdq-full"})
        {
            final Simulator sim = new Simulator(fabric, PdqSettings.forScheme(v, settings.baseRttNs(), settings.tcpMinRtoNs(), false), settings, 1);
            final Simulator.Result r = sim.run(trace, 1_000_000_000L);
            System.out.printf("%s end %.3f ms dropped %d sent %d%n", v, r.endNs() / 1e6, r.droppedPackets(), r.sentPackets());
            for (var rec : r.records()) System.out.printf("  %d %.3f ms%n", rec.flowId(), rec.endNs() / 1e6);
        }
    }
}
