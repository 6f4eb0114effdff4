package io.pfabric.cli;

import io.pfabric.common.topology.TopologyArgument;
import io.pfabric.common.topology.TopologySpec;
import picocli.CommandLine.Option;

/**
 * The shape and link rate of an emulated fabric, shared by {@code pfabric experiment} and
 * {@code pfabric experiment classes}.
 */
final class EmulatedFabricOptions
{
    @Option(names = "--topo", defaultValue = "star:4", paramLabel = "SPEC|FILE",
        description = "star:N, leafspine:LxHxS, fattree:K (default: ${DEFAULT-VALUE}), or a topology file (YAML or " +
            "JSON, docs/topology.md) whose ports all run at one rate, on the netns testbed; each scheme sets every " +
            "port's discipline and buffer.")
    String topo;

    @Option(names = "--rate", paramLabel = "RATE",
        description = "Rate of every link of a shape (default: 100m); a 2-core machine keeps up with 100m, not " +
            "with 1g. A topology file gives its own.")
    String rate;

    /**
     * The fabric these options name.
     *
     * @param testbed the experiment's testbed: a topology file runs on netns only.
     * @return the fabric, its discipline pfabric where a shape is built.
     */
    TopologyArgument topology(final String testbed)
    {
        if (("mininet".equals(testbed) || "loopback".equals(testbed)) && TopologySpec.namesFile(topo))
        {
            throw new IllegalArgumentException("--testbed " + testbed + " builds a star:N" +
                ("mininet".equals(testbed) ? ", leafspine:LxHxS or fattree:K" : "") + " itself, not the topology " +
                "file " + topo + "; run a topology file on --testbed netns");
        }
        return TopologyArgument.parse(topo, rate, "100m", "pfabric");
    }
}
