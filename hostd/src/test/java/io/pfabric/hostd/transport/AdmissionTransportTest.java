package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.io.PacketIo;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport under a scripted admission on scripted time: nothing leaves toward a destination that is not
 * admitted, each admission lets exactly one packet go with the path hint it names, and a held-back destination does
 * not hold back the next flow in priority order.
 */
class AdmissionTransportTest
{
    private static final long LINK_BPS = 10_000_000_000L;

    private static final class ScriptedAdmission implements Admission
    {
        final int[] credits = new int[4];
        final int[] spines = { NO_PATH, NO_PATH, NO_PATH, NO_PATH };
        final List<Integer> admitted = new ArrayList<>();

        public int poll(final long nowNs, final HostTransport transport)
        {
            return 0;
        }

        public boolean mayAdmit(final int destinationHost, final long nowNs)
        {
            return credits[destinationHost] > 0;
        }

        public int pathHint(final int destinationHost)
        {
            return spines[destinationHost];
        }

        public void onAdmitted(final int destinationHost, final long nowNs, final int wireLength)
        {
            credits[destinationHost]--;
            admitted.add(destinationHost);
        }

        public int awaitHeldBack(final long nowNs, final long timeoutNs)
        {
            return 0;
        }
    }

    private static final class CapturingIo implements PacketIo
    {
        final List<byte[]> sent = new ArrayList<>();
        final List<Integer> destinations = new ArrayList<>();

        public int poll(final InboundHandler handler, final int limit)
        {
            return 0;
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            sent.add(bytes);
            destinations.add(destinationHost);
            return true;
        }

        public int maxPacketLength()
        {
            return 1_500;
        }

        public void flush()
        {
        }

        public void close()
        {
        }
    }

    private final long[] now = { 1_000_000 };
    private final CapturingIo io = new CapturingIo();
    private final ScriptedAdmission admission = new ScriptedAdmission();
    private final HostTransport transport = new HostTransport(TransportConfiguration.PAPER, 0, LINK_BPS, 42, io,
        () -> now[0], new TransportListener()
        {
        }, false);

    private void run(final int cycles)
    {
        for (int i = 0; i < cycles; i++)
        {
            now[0] += 10_000;
            transport.poll();
        }
    }

    @Test
    void aGrantLetsExactlyOnePacketGoOnItsSpineAndNoGrantNone()
    {
        transport.admission(admission);
        transport.send(1, 100_000);
        run(5);
        assertTrue(io.sent.isEmpty(), "nothing leaves without admission");
        assertTrue(transport.counters().packetsHeldBack() > 0);

        admission.credits[1] = 1;
        admission.spines[1] = 2;
        run(5);
        assertEquals(1, io.sent.size(), "one grant, one packet");
        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight().wrap(new UnsafeBuffer(io.sent.get(0)), 0);
        assertEquals(PfabricHeaderFlyweight.TYPE_DATA, header.type());
        assertTrue(header.pathFlag(), "PATH flag set");
        assertEquals(2, header.pathHint(), "on the granted spine");
        assertTrue(header.checksumValid());

        admission.credits[1] = 1;
        admission.spines[1] = Admission.NO_PATH;
        run(5);
        assertEquals(2, io.sent.size());
        final PfabricHeaderFlyweight second = new PfabricHeaderFlyweight().wrap(new UnsafeBuffer(io.sent.get(1)), 0);
        assertFalse(second.pathFlag(), "no spine, no PATH flag");
    }

    @Test
    void aHeldBackDestinationDoesNotHoldBackTheNextFlowInPriorityOrder()
    {
        transport.admission(admission);
        transport.send(1, 3_000);
        transport.send(2, 300_000);
        transport.send(3, 30_000);
        admission.credits[2] = 1;
        admission.credits[3] = 1;
        run(3);
        assertEquals(List.of(3, 2), admission.admitted, "the smallest admissible flow goes first");
        assertEquals(List.of(3, 2), io.destinations);
        admission.credits[1] = 1;
        run(3);
        assertEquals(List.of(3, 2, 1), io.destinations, "and the held-back one as soon as it is admitted");
    }

    @Test
    void withoutAdmissionTheTransportIsPlainPfabric()
    {
        transport.send(1, 3_000);
        run(3);
        assertEquals(3, io.sent.size(), "three segments, nothing held back");
        assertEquals(0, transport.counters().packetsHeldBack());
        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight().wrap(new UnsafeBuffer(io.sent.get(0)), 0);
        assertFalse(header.pathFlag());
    }
}
