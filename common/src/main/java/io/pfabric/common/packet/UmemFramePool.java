package io.pfabric.common.packet;

import java.util.Arrays;

/**
 * Who holds each frame of a UMEM that several AF_XDP sockets share ({@link XdpUmem}): the free-frame stack, the
 * process (a queue holds the frame, or the data path has it in hand), or one socket's rings (the fill ring, the
 * receive ring not yet read, the transmit ring and the completion ring not yet read). Frames are named by their
 * address in the UMEM, of which the frame is the address divided by the frame length, so any offset inside a frame
 * names it. A frame given back that the stack already holds is not stacked twice but counted
 * ({@link #doubleReturns()}): a correct owner never does it. When a socket closes, every frame its rings held returns
 * to the stack ({@link #reclaim(int)}). Pure bookkeeping, no I/O; single-threaded and allocation-free after
 * construction.
 */
public final class UmemFramePool
{
    /**
     * What {@link #take(int)} returns when every frame is held.
     */
    public static final long NO_FRAME = -1;

    /**
     * The holder of a frame the process has: in a queue, or in hand.
     */
    public static final int PROCESS = -2;

    private static final int FREE = -1;

    private final int frameLength;
    private final int frameShift;
    private final int[] freeFrames;
    private final int[] holders;
    private int freeCount;
    private int nextSocket;
    private long doubleReturns;

    /**
     * A pool with every frame free.
     *
     * @param frameCount  frames in the UMEM.
     * @param frameLength bytes per frame, a power of two.
     */
    public UmemFramePool(final int frameCount, final int frameLength)
    {
        if (frameCount < 1 || frameLength < 1 || 0 != (frameLength & (frameLength - 1)) ||
            (long)frameCount * frameLength > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("need 1 or more frames of a power-of-two length, under 2 GiB in all: " +
                frameCount + " of " + frameLength);
        }
        this.frameLength = frameLength;
        this.frameShift = Integer.numberOfTrailingZeros(frameLength);
        this.freeFrames = new int[frameCount];
        this.holders = new int[frameCount];
        Arrays.fill(holders, FREE);
        for (int i = 0; i < frameCount; i++)
        {
            freeFrames[i] = frameCount - 1 - i;
        }
        freeCount = frameCount;
    }

    /**
     * A holder number for a socket's rings, never given twice.
     *
     * @return the number, 0 or more.
     */
    public int newSocket()
    {
        return nextSocket++;
    }

    /**
     * Take a free frame for a holder.
     *
     * @param holder {@link #PROCESS} or a socket's number.
     * @return the frame's first address, or {@link #NO_FRAME} if none is free.
     */
    public long take(final int holder)
    {
        if (0 == freeCount)
        {
            return NO_FRAME;
        }
        final int frame = freeFrames[--freeCount];
        holders[frame] = holder;
        return (long)frame << frameShift;
    }

    /**
     * Give a frame back to the stack, from whoever held it.
     *
     * @param address any address inside the frame.
     */
    public void give(final long address)
    {
        final int frame = (int)(address >>> frameShift);
        if (FREE == holders[frame])
        {
            doubleReturns++;
            return;
        }
        holders[frame] = FREE;
        freeFrames[freeCount++] = frame;
    }

    /**
     * Record that a held frame passed to another holder: from a socket's receive ring to the process, or from the
     * process to a socket's transmit ring.
     *
     * @param address any address inside the frame.
     * @param holder  {@link #PROCESS} or a socket's number.
     */
    public void pass(final long address, final int holder)
    {
        holders[(int)(address >>> frameShift)] = holder;
    }

    /**
     * Give back every frame a socket's rings held, when the socket is closed and the kernel holds none of them any
     * more.
     *
     * @param socket the socket's number.
     * @return frames given back.
     */
    public int reclaim(final int socket)
    {
        int reclaimed = 0;
        for (int frame = 0; frame < holders.length; frame++)
        {
            if (socket == holders[frame])
            {
                holders[frame] = FREE;
                freeFrames[freeCount++] = frame;
                reclaimed++;
            }
        }
        return reclaimed;
    }

    /**
     * Frames a holder has now; cold (a pass over every frame).
     *
     * @param holder {@link #PROCESS} or a socket's number.
     * @return the count.
     */
    public int heldBy(final int holder)
    {
        int held = 0;
        for (final int frameHolder : holders)
        {
            if (holder == frameHolder)
            {
                held++;
            }
        }
        return held;
    }

    /**
     * Frames in the UMEM.
     *
     * @return the count.
     */
    public int frameCount()
    {
        return holders.length;
    }

    /**
     * Bytes per frame.
     *
     * @return the length.
     */
    public int frameLength()
    {
        return frameLength;
    }

    /**
     * Frames on the free stack now.
     *
     * @return the count.
     */
    public int freeCount()
    {
        return freeCount;
    }

    /**
     * Frames given back while the stack held them already; 0 unless a holder gave back a frame twice.
     *
     * @return the count since construction.
     */
    public long doubleReturns()
    {
        return doubleReturns;
    }
}
