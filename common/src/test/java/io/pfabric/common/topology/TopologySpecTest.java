package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologySpecTest
{
    @Test
    void aStarIsOneLeafWithoutSpines()
    {
        final TopologySpec star = TopologySpec.parse("star:4");
        assertEquals(new TopologySpec(1, 4, 0), star);
        assertTrue(star.isStar());
        assertEquals(4, star.toTopology(100_000_000L, "pfabric").hosts().size());
    }

    @Test
    void aLeafSpineNamesItsThreeCounts()
    {
        final TopologySpec leafSpine = TopologySpec.parse("leafspine:9x16x4");
        assertEquals(new TopologySpec(9, 16, 4), leafSpine);
        assertFalse(leafSpine.isStar());
        final Topology topology = TopologySpec.parse("leafspine:2x2x2").toTopology(0, "droptail");
        assertEquals(4, topology.hosts().size());
        assertEquals(4, topology.switches().size());
    }

    @Test
    void aFatTreeHasItsEdgeSwitchesAsLeavesAndItsCoreAsSpines()
    {
        final TopologySpec fatTree = TopologySpec.parse("fattree:6");
        assertEquals(new TopologySpec(18, 3, 9, 6), fatTree);
        assertTrue(fatTree.isFatTree());
        assertFalse(fatTree.isStar());
        assertEquals(fatTree, TopologySpec.fatTree(6));
        final Topology topology = TopologySpec.parse("fattree:4").toTopology(0, "pfabric");
        assertEquals(16, topology.hosts().size());
        assertEquals(20, topology.switches().size());
        assertFalse(TopologySpec.parse("leafspine:2x2x2").isFatTree());
    }

    @Test
    void anythingElseIsRefusedWithTheText()
    {
        for (final String text : new String[]{ "star", "star:", "ring:4", "leafspine:2x2", "star:99999999999",
            "fattree:", "fattree:5", "fattree:0", "fattree:24", "fattree:4x4" })
        {
            final IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse(text));
            assertTrue(error.getMessage().contains("'" + text + "'"), error.getMessage());
        }
    }
}
