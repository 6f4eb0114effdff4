package io.pfabric.common.topology;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fabric's shape as the command line names it: {@code star:N} (one switch, N hosts), {@code leafspine:LxHxS}
 * (L leaves of H hosts, S spines) or {@code fattree:K} (the three-tier fat-tree of K-port switches: K pods of K/2
 * edge and K/2 aggregation switches, (K/2)^2 core switches, K/2 hosts per edge switch).
 * <p>
 * A fat-tree's edge switches are its leaves and its core switches its spines, so that {@link #leaves()} times
 * {@link #hostsPerLeaf()} is the number of hosts for every shape.
 *
 * @param leaves       leaf switches (1 for a star; the K^2/2 edge switches of a fat-tree).
 * @param hostsPerLeaf hosts on each leaf.
 * @param spines       spine switches (0 for a star; the (K/2)^2 core switches of a fat-tree).
 * @param pods         K for a fat-tree, 0 for the two-tier shapes.
 */
public record TopologySpec(int leaves, int hostsPerLeaf, int spines, int pods)
{
    private static final Pattern STAR = Pattern.compile("star:(\\d{1,9})");
    private static final Pattern LEAF_SPINE = Pattern.compile("leafspine:(\\d{1,9})x(\\d{1,9})x(\\d{1,9})");
    private static final Pattern FAT_TREE = Pattern.compile("fattree:(\\d{1,9})");

    /**
     * A two-tier shape: a star or a leaf-spine.
     *
     * @param leaves       leaf switches (1 for a star).
     * @param hostsPerLeaf hosts on each leaf.
     * @param spines       spine switches (0 for a star).
     */
    public TopologySpec(final int leaves, final int hostsPerLeaf, final int spines)
    {
        this(leaves, hostsPerLeaf, spines, 0);
    }

    /**
     * The fat-tree of K-port switches.
     *
     * @param k ports per switch, even, at least 2.
     * @return the shape.
     * @throws IllegalArgumentException if K is odd or below 2.
     */
    public static TopologySpec fatTree(final int k)
    {
        if (k < 2 || 0 != k % 2 || k > Topologies.MAX_FAT_TREE_K)
        {
            throw new IllegalArgumentException(
                "a fat-tree's K must be even and 2 to " + Topologies.MAX_FAT_TREE_K + ", not " + k);
        }
        final int half = k / 2;
        return new TopologySpec(k * half, half, half * half, k);
    }

    /**
     * Parse a shape.
     *
     * @param text such as {@code star:4}, {@code leafspine:2x2x2} or {@code fattree:6}.
     * @return the shape.
     * @throws IllegalArgumentException naming the text if it is none of them.
     */
    public static TopologySpec parse(final String text)
    {
        final Matcher star = STAR.matcher(text);
        if (star.matches())
        {
            final int hosts = Integer.parseInt(star.group(1));
            if (hosts < 2)
            {
                throw new IllegalArgumentException("--topo '" + text + "': a star needs at least 2 hosts");
            }
            return new TopologySpec(1, hosts, 0);
        }
        final Matcher leafSpine = LEAF_SPINE.matcher(text);
        if (leafSpine.matches())
        {
            final int leaves = Integer.parseInt(leafSpine.group(1));
            final int hostsPerLeaf = Integer.parseInt(leafSpine.group(2));
            final int spines = Integer.parseInt(leafSpine.group(3));
            if (leaves < 1 || hostsPerLeaf < 1 || spines < 1 || leaves * (long)hostsPerLeaf < 2)
            {
                throw new IllegalArgumentException("--topo '" + text + "': a leaf-spine needs at least 1 leaf, 1 " +
                    "host per leaf and 1 spine, and 2 hosts in all");
            }
            return new TopologySpec(leaves, hostsPerLeaf, spines);
        }
        final Matcher fatTree = FAT_TREE.matcher(text);
        if (fatTree.matches())
        {
            try
            {
                return fatTree(Integer.parseInt(fatTree.group(1)));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--topo '" + text + "': " + ex.getMessage(), ex);
            }
        }
        if (namesFile(text))
        {
            throw new IllegalArgumentException("--topo here takes star:N, leafspine:LxHxS or fattree:K, not a " +
                "topology file ('" + text + "')");
        }
        throw new IllegalArgumentException(
            "--topo must be star:N, leafspine:LxHxS or fattree:K, not '" + text + "'");
    }

    /**
     * Whether a {@code --topo} value names a topology file rather than a shape: it ends in .yaml, .yml or .json, or
     * a file of that name exists.
     *
     * @param text the value.
     * @return true for a file.
     */
    public static boolean namesFile(final String text)
    {
        final String lower = text.toLowerCase(Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml") || lower.endsWith(".json") ||
            Files.isRegularFile(Path.of(text));
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
     * Whether this is a fat-tree.
     *
     * @return true for {@code fattree:K}.
     */
    public boolean isFatTree()
    {
        return pods > 0;
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
        if (isFatTree())
        {
            return Topologies.fatTree(pods, "", rateBitsPerSec, discipline);
        }
        return isStar() ? Topologies.star(hostsPerLeaf, "", rateBitsPerSec, discipline) :
            Topologies.leafSpine(leaves, hostsPerLeaf, spines, "", rateBitsPerSec, discipline);
    }
}
