package io.pfabric.common.packet;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.NetworkInterface;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A watch on the loopback interface of the test's own namespace, and on a name no interface has: the index and state
 * the kernel reports, and no allocation when asked, since a switch asks for every port every few milliseconds.
 */
class InterfaceWatchTest
{
    private static final int ROUNDS = 10_000;

    @Test
    void reportsTheIndexAndStateOfTheInterfaceOfTheName() throws Exception
    {
        try (InterfaceWatch loopback = InterfaceWatch.inCurrentNamespace("lo");
            InterfaceWatch none = InterfaceWatch.inCurrentNamespace("pfx-none0"))
        {
            assertEquals(NetworkInterface.getByName("lo").getIndex(), loopback.index());
            assertTrue(loopback.up());
            assertEquals(0, none.index());
            assertFalse(none.up());
            assertEquals(NetworkInterface.getByName("lo").getIndex(), loopback.index(), "asked again");
        }
    }

    @Test
    void rejectsANameTheKernelCannotHold()
    {
        assertThrows(PacketSocketException.class, () -> InterfaceWatch.inCurrentNamespace(""));
        assertThrows(PacketSocketException.class, () -> InterfaceWatch.inCurrentNamespace("a-name-of-16-chr"));
    }

    @Test
    void asksWithoutAllocating() throws Exception
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        try (InterfaceWatch loopback = InterfaceWatch.inCurrentNamespace("lo");
            InterfaceWatch none = InterfaceWatch.inCurrentNamespace("pfx-none0"))
        {
            long sink = ask(loopback, none, ROUNDS);
            final long threadId = Thread.currentThread().threadId();
            final long before = threads.getThreadAllocatedBytes(threadId);
            sink += ask(loopback, none, ROUNDS);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

            assertEquals(0, allocated, "bytes allocated in " + ROUNDS + " rounds of four questions");
            assertEquals(2L * ROUNDS * (loopback.index() + 1), sink);
        }
    }

    private static long ask(final InterfaceWatch loopback, final InterfaceWatch none, final int rounds)
    {
        long sink = 0;
        for (int i = 0; i < rounds; i++)
        {
            sink += loopback.index() + none.index();
            sink += (loopback.up() ? 1 : 0) + (none.up() ? 1 : 0);
        }
        return sink;
    }
}
