package io.pfabric.common.topology;

import java.nio.file.Path;

/**
 * The {@code --topo} value of a command that runs a whole fabric at one line rate (an experiment, a soak): a shape
 * ({@link TopologySpec}) built at the rate given, or a topology file ({@code docs/topology.md}) whose ports all run at
 * one rate, which is then the fabric's rate.
 * <p>
 * One rate because such a command offers its load on the hosts' links and normalizes flow completion times by it.
 *
 * @param text           the value as given.
 * @param topology       the fabric.
 * @param rateBitsPerSec every port's rate.
 * @param shape          the shape, or null for a file.
 */
public record TopologyArgument(String text, Topology topology, long rateBitsPerSec, TopologySpec shape)
{
    /**
     * Read a {@code --topo} value and its {@code --rate}.
     *
     * @param text        a shape such as {@code star:4}, or a topology file.
     * @param rate        the {@code --rate} given, or null if none was given.
     * @param defaultRate the rate of a shape when none is given, such as {@code 100m}.
     * @param discipline  every port's discipline in a shape.
     * @return the fabric.
     * @throws IllegalArgumentException naming the option if a shape or rate is bad, a rate is given with a file, or
     *                                  a file's ports are unpaced or do not share one rate.
     * @throws TopologyException        naming the line if the file is not a valid topology.
     */
    public static TopologyArgument parse(
        final String text, final String rate, final String defaultRate, final String discipline)
    {
        if (!TopologySpec.namesFile(text))
        {
            final TopologySpec shape = TopologySpec.parse(text);
            final long rateBitsPerSec = Rates.parseOption("--rate", null == rate ? defaultRate : rate, false);
            return new TopologyArgument(text, shape.toTopology(rateBitsPerSec, discipline), rateBitsPerSec, shape);
        }
        if (null != rate)
        {
            throw new IllegalArgumentException("--rate is for a shape; the topology file " + text +
                " gives every port's own");
        }
        final Topology topology = TopologyParser.parse(Path.of(text));
        long rateBitsPerSec = -1;
        String first = null;
        for (final SwitchSpec node : topology.switches())
        {
            for (final PortSpec port : node.ports())
            {
                final String name = node.name() + ":" + port.name();
                if (0 == port.rateBitsPerSec())
                {
                    throw new IllegalArgumentException("--topo " + text + ": port " + name + " has no rate; this " +
                        "command runs every link at one rate, so every port of the file needs it");
                }
                if (null == first)
                {
                    first = name;
                    rateBitsPerSec = port.rateBitsPerSec();
                }
                else if (port.rateBitsPerSec() != rateBitsPerSec)
                {
                    throw new IllegalArgumentException("--topo " + text + ": port " + first + " runs at " +
                        Rates.format(rateBitsPerSec) + " and port " + name + " at " +
                        Rates.format(port.rateBitsPerSec()) + "; this command runs every link at one rate");
                }
            }
        }
        return new TopologyArgument(text, topology, rateBitsPerSec, null);
    }

    /**
     * Whether the value named a topology file.
     *
     * @return true for a file, false for a shape.
     */
    public boolean isFile()
    {
        return null == shape;
    }
}
