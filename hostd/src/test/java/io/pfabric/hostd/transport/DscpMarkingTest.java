package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.io.PacketIo;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Each flow's data packets reach the I/O with the DSCP its sender gave, other flows' with 0.
 */
class DscpMarkingTest
{
    private static final class MarkCapturingIo implements PacketIo
    {
        final List<Long> flowIds = new ArrayList<>();
        final List<Integer> dscps = new ArrayList<>();
        private final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();

        public int poll(final InboundHandler handler, final int limit)
        {
            return 0;
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            return send(destinationHost, buffer, offset, length, -1);
        }

        public boolean send(
            final int destinationHost, final DirectBuffer buffer, final int offset, final int length, final int dscp)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            flowIds.add(header.wrap(new UnsafeBuffer(bytes), 0).flowId());
            dscps.add(dscp);
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
    private final MarkCapturingIo io = new MarkCapturingIo();
    private final HostTransport transport = new HostTransport(TransportConfiguration.PAPER, 0, 10_000_000_000L, 42,
        io, () -> now[0], new TransportListener()
        {
        }, false);

    @Test
    void dataPacketsCarryTheirFlowsDscp()
    {
        transport.send(1, 3_000, 46);
        transport.send(1, new byte[2_000], 8);
        transport.send(1, 1_000);
        for (int i = 0; i < 5; i++)
        {
            now[0] += 10_000;
            transport.poll();
        }
        assertEquals(6, io.dscps.size(), "3 + 2 + 1 segments of 1460 bytes: " + io.dscps);
        final List<Long> flows = io.flowIds.stream().distinct().sorted().toList();
        assertEquals(3, flows.size());
        for (int i = 0; i < io.dscps.size(); i++)
        {
            final int flow = flows.indexOf(io.flowIds.get(i));
            assertEquals(List.of(46, 8, 0).get(flow), io.dscps.get(i), "packet " + i + " of flow " + flow);
        }
    }

    @Test
    void aDscpOutOfRangeFailsTheSend()
    {
        final CompletableFuture<FlowRecord> future = transport.send(1, 1_000, 64);
        final ExecutionException error = assertThrows(ExecutionException.class, future::get);
        assertInstanceOf(IllegalArgumentException.class, error.getCause());
        assertThrows(IllegalArgumentException.class,
            () -> new FlowSender(TransportConfiguration.PAPER, 1, 1, 1_000, 0, 0, -1));
    }
}
