package io.pfabric.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventQueueTest
{
    private record Event(long timeNs, long order, int kind, int node, int arg)
    {
    }

    private static final Comparator<Event> BY_TIME_THEN_ORDER =
        Comparator.comparingLong(Event::timeNs).thenComparingLong(Event::order);

    @Test
    void eventsAtTheSameTimeComeOutInTheOrderTheyWereScheduled()
    {
        final EventQueue queue = new EventQueue();
        queue.schedule(100, 1, 7, 0);
        final long reserved = queue.reserveOrder();
        queue.schedule(100, 2, 7, 1);
        queue.schedule(50, 3, 7, 2);
        queue.schedule(100, reserved, 4, 7, 3);

        final int[] args = new int[4];
        final int[] kinds = new int[4];
        for (int i = 0; i < 4; i++)
        {
            queue.poll();
            args[i] = queue.arg();
            kinds[i] = queue.kind();
        }
        assertTrue(queue.isEmpty());
        assertEquals(List.of(2, 0, 3, 1), List.of(args[0], args[1], args[2], args[3]));
        assertEquals(List.of(3, 1, 4, 2), List.of(kinds[0], kinds[1], kinds[2], kinds[3]));
    }

    @Test
    void pollsExactlyAsAReferencePriorityQueueOverNearFarAndReservedEvents()
    {
        final SplittableRandom random = new SplittableRandom(42);
        final EventQueue queue = new EventQueue();
        final PriorityQueue<Event> reference = new PriorityQueue<>(BY_TIME_THEN_ORDER);
        final List<Long> reservedOrders = new ArrayList<>();
        long nextOrder = 0;
        long nowNs = 0;
        int polled = 0;
        for (int step = 0; step < 400_000; step++)
        {
            final int action = random.nextInt(10);
            if (action < 5 || reference.isEmpty())
            {
                final long timeNs = nowNs + aheadNs(random);
                final int kind = random.nextInt(128);
                final int node = random.nextInt(1 << 24);
                final int arg = random.nextInt();
                final long order;
                if (!reservedOrders.isEmpty() && random.nextBoolean())
                {
                    order = reservedOrders.remove(random.nextInt(reservedOrders.size()));
                    queue.schedule(timeNs, order, kind, node, arg);
                }
                else if (random.nextInt(8) == 0)
                {
                    final long reserved = queue.reserveOrder();
                    assertEquals(nextOrder++, reserved);
                    reservedOrders.add(reserved);
                    continue;
                }
                else
                {
                    order = nextOrder++;
                    queue.schedule(timeNs, kind, node, arg);
                }
                reference.add(new Event(timeNs, order, kind, node, arg));
            }
            else
            {
                final Event expected = reference.poll();
                queue.poll();
                assertEquals(expected, new Event(queue.timeNs(), queue.order(), queue.kind(), queue.node(),
                    queue.arg()), "event " + polled);
                nowNs = expected.timeNs();
                polled++;
            }
            assertEquals(reference.size(), queue.size());
        }
        while (!reference.isEmpty())
        {
            final Event expected = reference.poll();
            queue.poll();
            assertEquals(expected, new Event(queue.timeNs(), queue.order(), queue.kind(), queue.node(),
                queue.arg()));
            polled++;
        }
        assertTrue(queue.isEmpty());
        assertTrue(polled > 100_000, "the sequence exercised the queue: " + polled);
    }

    @Test
    void anEventEarlierThanTheLastTakenStillComesOutFirst()
    {
        final EventQueue queue = new EventQueue();
        queue.schedule(1_000_000, 1, 0, 0);
        queue.schedule(1_000_010, 1, 0, 1);
        queue.poll();
        assertEquals(1_000_000, queue.timeNs());
        queue.schedule(999_000, 2, 0, 2);
        queue.poll();
        assertEquals(999_000, queue.timeNs());
        queue.poll();
        assertEquals(1_000_010, queue.timeNs());
        assertTrue(queue.isEmpty());
    }

    /**
     * Mostly within a few microseconds, as hops and transmissions are; some at the same instant; some beyond the
     * wheel (timeouts, flow starts), some exactly at its edge.
     */
    private static long aheadNs(final SplittableRandom random)
    {
        final int pick = random.nextInt(100);
        if (pick < 15)
        {
            return 0;
        }
        if (pick < 85)
        {
            return random.nextLong(5_000);
        }
        if (pick < 92)
        {
            return 65_530 + random.nextLong(12);
        }
        return random.nextLong(10_000_000);
    }
}
