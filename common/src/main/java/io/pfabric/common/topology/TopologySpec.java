package io.pfabric.common.topology;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fabric's shape as the command line names it: {@code star:N} (one switch, N hosts) or {@code leafspine:LxHxS}
 * (L leaves of H hosts, S spines).
 *
 * @param leaves       leaf switches (1 for a star).
 * @param hostsPerLeaf hosts on each leaf.
 * @param spines       spine switches (0 for a star).
 */
public record TopologySpec(int leaves, int hostsPerLeaf, int spines)
{
    private static final Pattern STAR = Pattern.compile("star:(\\d{1,9})");
    private static final Pattern LEAF_SPINE = Pattern.compile("leafspine:(\\d{1,9})x(\\d{1,9})x(\\d{1,9})");

    /**
     * Parse a shape.
     *
     * @param text such as {@code star:4} or {@code leafspine:2x2x2}.
     * @return the shape.
     * @throws IllegalArgumentException naming the text if it is neither.
     */
    public static TopologySpec parse(final String text)
    {
        final Matcher star = STAR.matcher(text);
        if (star.matches())
        {
            return new TopologySpec(1, Integer.parseInt(star.group(1)), 0);
        }
        final Matcher leafSpine = LEAF_SPINE.matcher(text);
        if (leafSpine.matches())
        {
            return new TopologySpec(Integer.parseInt(leafSpine.group(1)), Integer.parseInt(leafSpine.group(2)),
                Integer.parseInt(leafSpine.group(3)));
        }
        throw new IllegalArgumentException("--topo must be star:N or leafspine:LxHxS, not '" + text + "'");
    }

    /**
     * Whether this is a star.
     *
     * @return true for {@code star:N}.
     */
    public boolean isStar()
    {
        return 0 == spines;
    }

    /**
     * The topology of this shape with every port at one rate and discipline, named as {@link Topologies} names it.
     *
     * @param rateBitsPerSec every port's rate; 0 for unpaced.
     * @param discipline     every port's queue discipline.
     * @return the topology.
     */
    public Topology toTopology(final long rateBitsPerSec, final String discipline)
    {
        return isStar() ? Topologies.star(hostsPerLeaf, "", rateBitsPerSec, discipline) :
            Topologies.leafSpine(leaves, hostsPerLeaf, spines, "", rateBitsPerSec, discipline);
    }
}
