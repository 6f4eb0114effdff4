package io.pfabric.common.packet;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared UMEM's frame pool: every frame is handed out once until it comes back, a frame given back twice is
 * counted and not stacked twice, a closed socket's frames all come back, and after a flood of frames moving between
 * sockets' rings and queues, and their closing, the pool holds every frame again.
 */
class UmemFramePoolTest
{
    private static final int FRAME_LENGTH = 2048;

    @Test
    void handsOutEveryFrameOnceThenNone()
    {
        final UmemFramePool pool = new UmemFramePool(8, FRAME_LENGTH);
        final Set<Long> addresses = new HashSet<>();
        for (int i = 0; i < 8; i++)
        {
            final long address = pool.take(UmemFramePool.PROCESS);
            assertEquals(0, address % FRAME_LENGTH, "a frame's first address");
            assertTrue(address >= 0 && address < 8L * FRAME_LENGTH, "inside the UMEM: " + address);
            assertTrue(addresses.add(address), "handed out twice: " + address);
        }
        assertEquals(UmemFramePool.NO_FRAME, pool.take(UmemFramePool.PROCESS));
        assertEquals(0, pool.freeCount());
        pool.give(addresses.iterator().next() + XdpUmem.DATA_OFFSET);
        assertEquals(1, pool.freeCount());
        assertEquals(addresses.iterator().next(), pool.take(UmemFramePool.PROCESS), "an offset names its frame");
    }

    @Test
    void aFrameGivenBackTwiceIsCountedAndStackedOnce()
    {
        final UmemFramePool pool = new UmemFramePool(4, FRAME_LENGTH);
        final long address = pool.take(UmemFramePool.PROCESS);
        pool.give(address);
        pool.give(address);
        assertEquals(1, pool.doubleReturns());
        assertEquals(4, pool.freeCount());
    }

    @Test
    void aClosedSocketsFramesAllComeBackAndNoOtherHoldersFrames()
    {
        final UmemFramePool pool = new UmemFramePool(16, FRAME_LENGTH);
        final int a = pool.newSocket();
        final int b = pool.newSocket();
        for (int i = 0; i < 5; i++)
        {
            pool.take(a);
        }
        for (int i = 0; i < 3; i++)
        {
            pool.take(b);
        }
        final long held = pool.take(UmemFramePool.PROCESS);
        pool.pass(held, a);
        pool.pass(held, UmemFramePool.PROCESS);
        assertEquals(5, pool.reclaim(a));
        assertEquals(3, pool.heldBy(b));
        assertEquals(1, pool.heldBy(UmemFramePool.PROCESS));
        assertEquals(16 - 3 - 1, pool.freeCount());
        assertEquals(0, pool.reclaim(a), "nothing twice");
        assertEquals(0, pool.doubleReturns());
    }

    /**
     * Frames move as they do in a switch: stocked into sockets' fill rings, received and either kept by a queue or
     * given back, sent from a queue through a socket's transmit ring and completed, dropped from a queue, and every
     * socket's rings reclaimed when it closes; the queues are emptied at the end, as a switch does when it closes.
     */
    @Test
    void afterAFloodAndShutdownThePoolHoldsEveryFrameAndNoneCameBackTwice()
    {
        final int frames = 512;
        final UmemFramePool pool = new UmemFramePool(frames, FRAME_LENGTH);
        final Random random = new Random(31);
        final int[] sockets = {pool.newSocket(), pool.newSocket(), pool.newSocket()};
        final List<ArrayDeque<Long>> fill = new ArrayList<>();
        final List<ArrayDeque<Long>> transmit = new ArrayList<>();
        final List<ArrayDeque<Long>> queue = new ArrayList<>();
        for (int s = 0; s < sockets.length; s++)
        {
            fill.add(new ArrayDeque<>());
            transmit.add(new ArrayDeque<>());
            queue.add(new ArrayDeque<>());
        }
        for (int step = 0; step < 200_000; step++)
        {
            final int s = random.nextInt(sockets.length);
            switch (random.nextInt(6))
            {
                case 0 ->
                {
                    final long address = pool.take(sockets[s]);
                    if (UmemFramePool.NO_FRAME != address)
                    {
                        fill.get(s).add(address);
                    }
                }
                case 1 ->
                {
                    final Long received = fill.get(s).poll();
                    if (null != received)
                    {
                        final long address = received + XdpUmem.DATA_OFFSET;
                        final int egress = random.nextInt(sockets.length);
                        if (random.nextInt(4) > 0 && queue.get(egress).size() < 100)
                        {
                            pool.pass(address, UmemFramePool.PROCESS);
                            queue.get(egress).add(address);
                        }
                        else
                        {
                            pool.give(address);
                        }
                    }
                }
                case 2 ->
                {
                    final Long queued = queue.get(s).poll();
                    if (null != queued)
                    {
                        pool.pass(queued, sockets[s]);
                        transmit.get(s).add(queued);
                    }
                }
                case 3 ->
                {
                    final Long sent = transmit.get(s).poll();
                    if (null != sent)
                    {
                        pool.give(sent);
                    }
                }
                case 4 ->
                {
                    final Long dropped = queue.get(s).pollLast();
                    if (null != dropped)
                    {
                        pool.give(dropped);
                    }
                }
                default ->
                {
                    if (random.nextInt(1000) == 0)
                    {
                        pool.reclaim(sockets[s]);
                        fill.get(s).clear();
                        transmit.get(s).clear();
                        sockets[s] = pool.newSocket();
                    }
                }
            }
        }
        for (int s = 0; s < sockets.length; s++)
        {
            while (!queue.get(s).isEmpty())
            {
                pool.give(queue.get(s).poll());
            }
            pool.reclaim(sockets[s]);
        }
        assertEquals(frames, pool.freeCount());
        assertEquals(0, pool.doubleReturns());
        final Set<Long> addresses = new HashSet<>();
        for (int i = 0; i < frames; i++)
        {
            assertTrue(addresses.add(pool.take(UmemFramePool.PROCESS)), "a frame stacked twice");
        }
    }

    @Test
    void refusesALengthThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new UmemFramePool(4, 1500));
    }
}
