package io.pfabric.controllerd.syn;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PathColourerTest
{
    @Test
    void everyRandomSlotOfDegreeAtMostTheColourCountIsColouredProperly()
    {
        final Random random = new Random(20_240_607L);
        int recoloured = 0;
        for (int trial = 0; trial < 3_000; trial++)
        {
            final int leaves = 1 + random.nextInt(12);
            final int colours = 1 + random.nextInt(trial % 10 == 0 ? 64 : 8);
            final int maxEdges = leaves * colours;
            final PathColourer colourer = new PathColourer(leaves, colours, maxEdges);
            for (int slot = 0; slot < 3; slot++)
            {
                colourer.reset();
                final int[] srcDegree = new int[leaves];
                final int[] dstDegree = new int[leaves];
                final int[] edgeSrc = new int[maxEdges];
                final int[] edgeDst = new int[maxEdges];
                final int[] edges = new int[maxEdges];
                int count = 0;
                final boolean regular = random.nextBoolean();
                for (int attempt = 0; attempt < 4 * maxEdges && count < maxEdges; attempt++)
                {
                    final int src = random.nextInt(leaves);
                    final int dst = random.nextInt(leaves);
                    if (srcDegree[src] == colours || dstDegree[dst] == colours)
                    {
                        continue;
                    }
                    srcDegree[src]++;
                    dstDegree[dst]++;
                    edgeSrc[count] = src;
                    edgeDst[count] = dst;
                    edges[count] = colourer.add(src, dst);
                    assertTrue(edges[count] >= 0, "refused an edge within the degree");
                    count++;
                }
                if (regular)
                {
                    for (int src = 0; src < leaves; src++)
                    {
                        for (int dst = 0; dst < leaves && srcDegree[src] < colours; dst++)
                        {
                            while (srcDegree[src] < colours && dstDegree[dst] < colours)
                            {
                                srcDegree[src]++;
                                dstDegree[dst]++;
                                edgeSrc[count] = src;
                                edgeDst[count] = dst;
                                edges[count] = colourer.add(src, dst);
                                assertTrue(edges[count] >= 0, "refused an edge within the degree");
                                count++;
                            }
                        }
                    }
                }
                assertProperlyColoured(colourer, leaves, colours, edgeSrc, edgeDst, edges, count);
                if (count == maxEdges)
                {
                    recoloured++;
                }
            }
        }
        assertTrue(recoloured > 500, "too few full slots: " + recoloured);
    }

    @Test
    void needsAnAlternatingPathWhereFirstFitFails()
    {
        final PathColourer colourer = new PathColourer(2, 2, 4);
        final int a = colourer.add(0, 0);
        final int b = colourer.add(1, 1);
        assertEquals(0, colourer.colour(a));
        assertEquals(0, colourer.colour(b));
        final int c = colourer.add(0, 1);
        assertEquals(1, colourer.colour(c));
        final int d = colourer.add(1, 0);
        assertTrue(d >= 0);
        assertEquals(4, colourer.edgeCount());
        assertTrue(colourer.colour(a) != colourer.colour(c) && colourer.colour(b) != colourer.colour(d));
        assertTrue(colourer.colour(a) != colourer.colour(d) && colourer.colour(b) != colourer.colour(c));
    }

    @Test
    void refusesAnEdgeBeyondTheDegreeAndForgetsOnReset()
    {
        final PathColourer colourer = new PathColourer(3, 2, 8);
        assertTrue(colourer.add(0, 1) >= 0);
        assertTrue(colourer.add(0, 2) >= 0);
        assertEquals(PathColourer.REFUSED, colourer.add(0, 0));
        assertTrue(colourer.add(1, 1) >= 0);
        assertEquals(PathColourer.REFUSED, colourer.add(2, 1));
        colourer.reset();
        assertEquals(0, colourer.edgeCount());
        assertEquals(0, colourer.add(2, 1));
        assertEquals(0, colourer.colour(0));
    }

    @Test
    void edgesAddedWithTheirColoursAreKeptProperWhileTheRestAreRecoloured()
    {
        final Random random = new Random(20_261_123L);
        int refusedOnTheirColour = 0;
        for (int trial = 0; trial < 1_000; trial++)
        {
            final int leaves = 2 + random.nextInt(10);
            final int colours = 1 + random.nextInt(trial % 10 == 0 ? 64 : 8);
            final int maxEdges = leaves * colours;
            final PathColourer colourer = new PathColourer(leaves, colours, maxEdges);
            final long[] srcUsed = new long[leaves];
            final long[] dstUsed = new long[leaves];
            final int[] srcDegree = new int[leaves];
            final int[] dstDegree = new int[leaves];
            final int[] edgeSrc = new int[maxEdges];
            final int[] edgeDst = new int[maxEdges];
            final int[] edges = new int[maxEdges];
            final boolean[] coloured = new boolean[maxEdges];
            int count = 0;
            for (int attempt = 0; attempt < 4 * maxEdges && count < maxEdges; attempt++)
            {
                final int src = random.nextInt(leaves);
                final int dst = random.nextInt(leaves);
                if (srcDegree[src] == colours || dstDegree[dst] == colours)
                {
                    continue;
                }
                srcDegree[src]++;
                dstDegree[dst]++;
                edgeSrc[count] = src;
                edgeDst[count] = dst;
                final long common = ~(srcUsed[src] | dstUsed[dst]) & (64 == colours ? -1L : (1L << colours) - 1);
                if (0 != common)
                {
                    final int colour = Long.numberOfTrailingZeros(common);
                    srcUsed[src] |= 1L << colour;
                    dstUsed[dst] |= 1L << colour;
                    final long usedBefore = srcUsed[src] & ~(1L << colour);
                    if (0 != usedBefore)
                    {
                        final int used = Long.numberOfTrailingZeros(usedBefore);
                        assertEquals(PathColourer.REFUSED, colourer.add(src, leaves - 1 - src, used));
                        refusedOnTheirColour++;
                    }
                    edges[count] = colourer.add(src, dst, colour);
                    assertEquals(colour, colourer.colour(edges[count]));
                    coloured[count] = true;
                }
                count++;
            }
            for (int e = 0; e < count; e++)
            {
                if (!coloured[e])
                {
                    edges[e] = colourer.add(edgeSrc[e], edgeDst[e]);
                }
                assertTrue(edges[e] >= 0, "refused an edge within the degree");
            }
            assertProperlyColoured(colourer, leaves, colours, edgeSrc, edgeDst, edges, count);
        }
        assertTrue(refusedOnTheirColour > 1_000, "too few refusals checked: " + refusedOnTheirColour);
    }

    /**
     * Every edge is in the colourer with a colour below the count, and no leaf uses a colour twice on either side.
     */
    private static void assertProperlyColoured(final PathColourer colourer, final int leaves, final int colours,
        final int[] edgeSrc, final int[] edgeDst, final int[] edges, final int count)
    {
        assertEquals(count, colourer.edgeCount());
        final boolean[][] srcUses = new boolean[leaves][colours];
        final boolean[][] dstUses = new boolean[leaves][colours];
        for (int e = 0; e < count; e++)
        {
            final int colour = colourer.colour(edges[e]);
            assertTrue(colour >= 0 && colour < colours);
            assertFalse(srcUses[edgeSrc[e]][colour], "source leaf uses a path twice");
            assertFalse(dstUses[edgeDst[e]][colour], "destination leaf uses a path twice");
            srcUses[edgeSrc[e]][colour] = true;
            dstUses[edgeDst[e]][colour] = true;
        }
    }
}
