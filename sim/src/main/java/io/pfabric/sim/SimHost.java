package io.pfabric.sim;

import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.HostTransport;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.sim.pdq.PdqPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.pfabric.sim.Simulator.FRAME_OVERHEAD;

/**
 * A simulated host: its endpoint (hostd's transport, sharing its link between the fabric's traffic classes when the
 * ports have them, or a modelled baseline) and the packet I/O it runs on, which takes the frames that arrived from its
 * inbox and sends a frame by describing it in the pool and offering it to the host's NIC.
 */
final class SimHost implements PacketIo
{
    final Endpoint endpoint;
    final IntArrayQueue inbox = new IntArrayQueue();
    long wakeNs = Long.MAX_VALUE;
    int lastFrameLength;

    private final int index;
    private final boolean ecnCapable;
    private final Simulator simulator;
    private final Simulator.Scheme scheme;
    private final PacketSizer sizer;
    private final PacketPool packets;
    private final PfabricHeaderFlyweight header;
    private final PdqPacketFlyweight pdqPacket = new PdqPacketFlyweight();

    SimHost(final Simulator simulator, final int index, final Simulator.Scheme scheme,
        final TransportConfiguration configuration, final NanoClock clock, final SimControl control,
        final PacketSizer sizer, final PacketPool packets, final PfabricHeaderFlyweight header)
    {
        this.simulator = simulator;
        this.index = index;
        this.scheme = scheme;
        this.sizer = sizer;
        this.packets = packets;
        this.header = header;
        if (Simulator.Scheme.PDQ == scheme)
        {
            this.endpoint = new SimPdq(index, simulator.pdqSettings(), simulator.fabric().edgeRateBitsPerSec(),
                simulator.pdqSettings().spray() ? Math.max(1, simulator.fabric().spines()) : 1, this, clock);
            this.ecnCapable = false;
        }
        else if (scheme.isTcp())
        {
            final boolean dctcp = Simulator.Scheme.DCTCP == scheme || Simulator.Scheme.DCTCP_PER_FLOW == scheme ||
                Simulator.Scheme.PIAS == scheme;
            final boolean perFlow =
                Simulator.Scheme.TCP_PER_FLOW == scheme || Simulator.Scheme.DCTCP_PER_FLOW == scheme;
            final SimTcp tcp = new SimTcp(index, dctcp, simulator.tcpMinRtoNs(), simulator.tcpDupAckRule(),
                simulator.tcpSackOpensWindow(),
                perFlow ? 0 : SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR, simulator.piasThresholds(), this, clock);
            this.endpoint = tcp;
            this.ecnCapable = tcp.ecnCapable();
        }
        else
        {
            final HostTransport transport = new HostTransport(configuration, index,
                null == sizer ? simulator.fabric().edgeRateBitsPerSec() : 0, FRAME_OVERHEAD, this, clock,
                new TransportListener()
                {
                }, false);
            if (simulator.fabric().hasClasses())
            {
                transport.trafficClasses(simulator.fabric().classes());
            }
            final SimAdmission admission = null == control ? null : control.admission(index, transport);
            transport.admission(admission);
            this.endpoint = new TransportEndpoint(transport, admission, simulator);
            this.ecnCapable = false;
        }
    }

    public int poll(final InboundHandler handler, final int limit)
    {
        int taken = 0;
        while (taken < limit && !inbox.isEmpty())
        {
            final int packet = inbox.pollInt();
            final UnsafeBuffer frame = packets.frame(packet);
            handler.onPacket(frame.getInt(PacketPool.SOURCE_OFFSET, ByteOrder.BIG_ENDIAN), frame, FRAME_OVERHEAD,
                packets.contentLength(packet));
            packets.release(packet);
            taken++;
        }
        return taken;
    }

    public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
    {
        return send(destinationHost, buffer, offset, length, 0);
    }

    public boolean send(
        final int destinationHost, final DirectBuffer buffer, final int offset, final int length, final int dscp)
    {
        final int packet = packets.acquire();
        final UnsafeBuffer frame = packets.frame(packet);
        frame.setMemory(0, FRAME_OVERHEAD, (byte)0);
        frame.putInt(PacketPool.DESTINATION_OFFSET, destinationHost, ByteOrder.BIG_ENDIAN);
        frame.putInt(PacketPool.SOURCE_OFFSET, index, ByteOrder.BIG_ENDIAN);
        frame.putInt(PacketPool.HANDLE_OFFSET, packet);
        frame.putShort(EthernetFlyweight.ETHERTYPE_FIELD_OFFSET, (short)EthernetFlyweight.ETHERTYPE_IPV4,
            ByteOrder.BIG_ENDIAN);
        frame.putByte(EthernetFlyweight.HEADER_LENGTH, (byte)0x45);
        frame.putByte(EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.DSCP_ECN_FIELD_OFFSET,
            (byte)((dscp << 2) | (ecnCapable ? Ipv4Flyweight.ECN_ECT0 : 0)));
        frame.putBytes(FRAME_OVERHEAD, buffer, offset, length);
        final long priority;
        final long flowId;
        final int payloadLength;
        int frameLength = FRAME_OVERHEAD + length;
        int pathHint = -1;
        int pfabricFlags = 0;
        if (Simulator.Scheme.PDQ == scheme)
        {
            pdqPacket.wrap(frame, FRAME_OVERHEAD);
            priority = 0;
            flowId = pdqPacket.flowId();
            payloadLength = pdqPacket.payloadLength();
            frameLength = FRAME_OVERHEAD + pdqPacket.wireLength();
            if (pdqPacket.isForward())
            {
                pathHint = simulator.pdqSettings().spray() ? pdqPacket.selector() - 1 : ecmpHint(flowId);
            }
        }
        else if (!scheme.isTcp())
        {
            header.wrap(frame, FRAME_OVERHEAD);
            priority = header.priority();
            flowId = header.flowId();
            pfabricFlags = header.flags();
            final boolean data = PfabricHeaderFlyweight.TYPE_DATA == header.type();
            payloadLength = data ? header.payloadLength() : 0;
            if (data && null != sizer)
            {
                frameLength = sizer.frameLength(flowId, header.segmentOffset());
            }
            if (data && header.pathFlag())
            {
                pathHint = header.pathHint();
            }
            lastFrameLength = frameLength;
        }
        else
        {
            priority = 0;
            flowId = frame.getLong(FRAME_OVERHEAD + 4, ByteOrder.BIG_ENDIAN);
            payloadLength = SimTcp.payloadLength(frame, FRAME_OVERHEAD, length);
        }
        packets.describe(packet, frameLength, destinationHost, priority, flowId, payloadLength, length, pathHint, dscp,
            pfabricFlags);
        simulator.onHostSend(index, packet);
        return true;
    }

    /**
     * A flow's path under per-flow ECMP: a hash of its id.
     */
    private static int ecmpHint(final long flowId)
    {
        return (int)((flowId * 0x9E37_79B9_7F4A_7C15L) >>> 33);
    }

    public int maxPacketLength()
    {
        return PacketPool.FRAME_CAPACITY - FRAME_OVERHEAD;
    }

    public void flush()
    {
    }

    public void close()
    {
    }
}
