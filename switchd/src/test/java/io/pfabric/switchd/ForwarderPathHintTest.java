package io.pfabric.switchd;

import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.switchd.table.ForwardingTable;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A leaf with one host port and two uplinks, its ports in memory: a pFabric packet with the PATH flag leaves by the
 * uplink its hint names; without the flag the leaf sprays over both.
 */
class ForwarderPathHintTest
{
    private static final int DESTINATION = 0x0A00_0202;
    private static final int FRAME_LENGTH = 200;

    private static byte[] frame(final boolean pathFlag, final int pathHint, final int sequence)
    {
        return DataFrames.frame(DESTINATION, FRAME_LENGTH, 1_000, sequence, pathFlag, pathHint);
    }

    @Test
    void thePathHintChoosesTheUplinkAndItsAbsenceSprays()
    {
        final MemoryFramePort host = new MemoryFramePort();
        final MemoryFramePort up1 = new MemoryFramePort();
        final MemoryFramePort up2 = new MemoryFramePort();
        final SwitchPort[] ports = new SwitchPort[3];
        final MemoryFramePort[] io = { host, up1, up2 };
        for (int i = 0; i < 3; i++)
        {
            final QueueDiscipline queue = DisciplineKind.PFABRIC.newQueue(1_000_000, 1514);
            ports[i] = new SwitchPort("p" + i, io[i], queue, null);
        }
        final ForwardingTable table = new ForwardingTable().addHost(DESTINATION, 0x02_00_00_00_00_09L, 1, 2);
        final Forwarder forwarder = new Forwarder(ports, table, true, new CachedNanoClock());

        for (int i = 0; i < 10; i++)
        {
            host.arriving.add(frame(true, 1, i));
        }
        forwarder.doWork();
        assertEquals(0, up1.sent.size(), "hint 1 names the second uplink");
        assertEquals(10, up2.sent.size());

        for (int i = 0; i < 10; i++)
        {
            host.arriving.add(frame(true, 2, i));
        }
        forwarder.doWork();
        assertEquals(10, up1.sent.size(), "hints wrap around the uplinks");

        for (int i = 0; i < 10; i++)
        {
            host.arriving.add(frame(false, 1, i));
        }
        forwarder.doWork();
        assertEquals(15, up1.sent.size(), "without the PATH flag the leaf sprays");
        assertEquals(15, up2.sent.size());
        assertEquals(0, host.sent.size());
    }
}
