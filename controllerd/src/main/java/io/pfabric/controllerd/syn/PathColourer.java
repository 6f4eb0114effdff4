package io.pfabric.controllerd.syn;

import java.util.Arrays;

/**
 * Chooses a path for every grant of one slot that crosses the spine layer, so that no leaf sends or receives two
 * grants on the same path: a proper edge colouring of the slot's bipartite multigraph (source leaves on one side,
 * destination leaves on the other, one edge per grant) with {@code colourCount} colours, added one edge at a time.
 * <p>
 * An edge takes a colour free at both ends if there is one. Otherwise, with colour {@code a} free at the source leaf
 * and {@code b} free at the destination leaf, the path from the destination leaf that alternates {@code a} and
 * {@code b} edges can have its two colours swapped, which frees {@code a} there and cannot reach the source leaf in a
 * bipartite graph (König's argument); so can the path from the source leaf that starts with {@code b}, which frees
 * {@code b} there. Both paths are walked in step and the shorter one is swapped. So every multigraph whose leaves
 * each have at most {@code colourCount} edges is coloured, whatever the order of the edges; an edge that would exceed
 * that degree is refused.
 */
public final class PathColourer
{
    /**
     * Returned by {@link #add(int, int)} for an edge whose source or destination leaf already has
     * {@link #colourCount()} edges.
     */
    public static final int REFUSED = -1;

    private static final int NONE = -1;

    private final int leafCount;
    private final int colourCount;
    private final long allColours;
    private final long[] usedColours;
    private final int[] edgeAtColour;
    private final int[] edgeSrcVertex;
    private final int[] edgeDstVertex;
    private final int[] edgeColour;
    private final int[] pathFromV;
    private final int[] pathFromU;
    private int edgeCount;

    /**
     * A colourer for slots of up to {@code maxEdges} grants.
     *
     * @param leafCount   leaves.
     * @param colourCount paths per leaf per slot, 1 to {@value LeafSpineFabric#MAX_PATH_COUNT}.
     * @param maxEdges    most grants per slot.
     */
    public PathColourer(final int leafCount, final int colourCount, final int maxEdges)
    {
        if (colourCount < 1 || colourCount > LeafSpineFabric.MAX_PATH_COUNT)
        {
            throw new IllegalArgumentException("colourCount must be 1 to 64, not " + colourCount);
        }
        this.leafCount = leafCount;
        this.colourCount = colourCount;
        this.allColours = 64 == colourCount ? -1L : (1L << colourCount) - 1;
        usedColours = new long[2 * leafCount];
        edgeAtColour = new int[2 * leafCount * colourCount];
        edgeSrcVertex = new int[maxEdges];
        edgeDstVertex = new int[maxEdges];
        edgeColour = new int[maxEdges];
        pathFromV = new int[maxEdges];
        pathFromU = new int[maxEdges];
    }

    /**
     * @return colours, that is paths per leaf per slot.
     */
    public int colourCount()
    {
        return colourCount;
    }

    /**
     * @return edges added since the last {@link #reset()}.
     */
    public int edgeCount()
    {
        return edgeCount;
    }

    /**
     * Forget every edge, for the next slot.
     */
    public void reset()
    {
        Arrays.fill(usedColours, 0L);
        edgeCount = 0;
    }

    /**
     * Add a grant from a host under {@code srcLeaf} to a host under {@code dstLeaf} and colour it, recolouring earlier
     * edges if need be.
     *
     * @param srcLeaf the source's leaf.
     * @param dstLeaf the destination's leaf.
     * @return the edge's index, for {@link #colour(int)}, or {@link #REFUSED} if either leaf already has
     * {@link #colourCount()} edges.
     */
    public int add(final int srcLeaf, final int dstLeaf)
    {
        final int u = srcLeaf;
        final int v = leafCount + dstLeaf;
        final long freeAtU = ~usedColours[u] & allColours;
        final long freeAtV = ~usedColours[v] & allColours;
        if (0 == freeAtU || 0 == freeAtV || edgeCount == edgeColour.length)
        {
            return REFUSED;
        }
        final int edge = edgeCount++;
        edgeSrcVertex[edge] = u;
        edgeDstVertex[edge] = v;
        final long common = freeAtU & freeAtV;
        if (0 != common)
        {
            paint(edge, Long.numberOfTrailingZeros(common));
            return edge;
        }
        recolour(edge, u, v, freeAtU, freeAtV);
        return edge;
    }

    private void recolour(final int edge, final int u, final int v, final long freeAtU, final long freeAtV)
    {
        final int a = Long.numberOfTrailingZeros(freeAtU);
        final int b = Long.numberOfTrailingZeros(freeAtV);
        int fromV = v;
        int colourFromV = a;
        int nextFromV = edgeAt(v, a);
        int lengthFromV = 0;
        int fromU = u;
        int colourFromU = b;
        int nextFromU = edgeAt(u, b);
        int lengthFromU = 0;
        while (true)
        {
            if (NONE == nextFromV)
            {
                swap(pathFromV, lengthFromV, a, b);
                paint(edge, a);
                return;
            }
            if (NONE == nextFromU)
            {
                swap(pathFromU, lengthFromU, a, b);
                paint(edge, b);
                return;
            }
            pathFromV[lengthFromV++] = nextFromV;
            fromV = edgeSrcVertex[nextFromV] == fromV ? edgeDstVertex[nextFromV] : edgeSrcVertex[nextFromV];
            colourFromV = colourFromV == a ? b : a;
            nextFromV = edgeAt(fromV, colourFromV);
            pathFromU[lengthFromU++] = nextFromU;
            fromU = edgeSrcVertex[nextFromU] == fromU ? edgeDstVertex[nextFromU] : edgeSrcVertex[nextFromU];
            colourFromU = colourFromU == a ? b : a;
            nextFromU = edgeAt(fromU, colourFromU);
        }
    }

    /**
     * Add a grant that already has a colour, as when most of a slot was coloured elsewhere and only some edges are
     * left for {@link #add(int, int)}; later recolouring may still change it.
     *
     * @param srcLeaf the source's leaf.
     * @param dstLeaf the destination's leaf.
     * @param colour  its colour, 0 to {@link #colourCount()} - 1.
     * @return the edge's index, for {@link #colour(int)}, or {@link #REFUSED} if the colour is already used at either
     * leaf.
     */
    public int add(final int srcLeaf, final int dstLeaf, final int colour)
    {
        final int u = srcLeaf;
        final int v = leafCount + dstLeaf;
        final long bit = 1L << colour;
        if (colour < 0 || colour >= colourCount || 0 != ((usedColours[u] | usedColours[v]) & bit) ||
            edgeCount == edgeColour.length)
        {
            return REFUSED;
        }
        final int edge = edgeCount++;
        edgeSrcVertex[edge] = u;
        edgeDstVertex[edge] = v;
        paint(edge, colour);
        return edge;
    }

    /**
     * @param edge an edge index returned by {@link #add(int, int)} since the last {@link #reset()}.
     * @return its colour, 0 to {@link #colourCount()} - 1; final only once the slot's last edge is added.
     */
    public int colour(final int edge)
    {
        return edgeColour[edge];
    }

    private void swap(final int[] path, final int length, final int a, final int b)
    {
        for (int i = 0; i < length; i++)
        {
            unpaint(path[i]);
        }
        for (int i = 0; i < length; i++)
        {
            final int e = path[i];
            paint(e, edgeColour[e] == a ? b : a);
        }
    }

    private int edgeAt(final int vertex, final int colour)
    {
        return 0 == (usedColours[vertex] & 1L << colour) ? NONE : edgeAtColour[vertex * colourCount + colour];
    }

    private void paint(final int edge, final int colour)
    {
        final int u = edgeSrcVertex[edge];
        final int v = edgeDstVertex[edge];
        edgeColour[edge] = colour;
        usedColours[u] |= 1L << colour;
        usedColours[v] |= 1L << colour;
        edgeAtColour[u * colourCount + colour] = edge;
        edgeAtColour[v * colourCount + colour] = edge;
    }

    private void unpaint(final int edge)
    {
        final int u = edgeSrcVertex[edge];
        final int v = edgeDstVertex[edge];
        final int colour = edgeColour[edge];
        usedColours[u] &= ~(1L << colour);
        usedColours[v] &= ~(1L << colour);
    }
}
