package io.pfabric.bench.transport;

import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.io.UdpPacketIo;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What carries the measured flow through switchd, one row of the benchmark: hostd with one of its packet I/Os and
 * the switch ports' queue discipline, or the kernel's TCP.
 */
public enum TransportTarget
{
    /**
     * hostd over kernel UDP through drop-tail ports.
     */
    HOSTD("hostd", "droptail", PacketIos.UDP, UdpPacketIo.MAX_PACKET_LENGTH - PfabricHeaderFlyweight.HEADER_LENGTH,
        PacketIos.wireOverheadLength(PacketIos.UDP) + PfabricHeaderFlyweight.HEADER_LENGTH),

    /**
     * hostd over kernel UDP through pFabric ports.
     */
    HOSTD_PFABRIC("hostd-pfabric", "pfabric", PacketIos.UDP,
        UdpPacketIo.MAX_PACKET_LENGTH - PfabricHeaderFlyweight.HEADER_LENGTH,
        PacketIos.wireOverheadLength(PacketIos.UDP) + PfabricHeaderFlyweight.HEADER_LENGTH),

    /**
     * hostd directly in IPv4 (protocol 253) on packet sockets, through drop-tail ports.
     */
    HOSTD_RAW("hostd-raw", "droptail", PacketIos.RAW,
        Limits.MTU_LENGTH - Ipv4Flyweight.HEADER_LENGTH - PfabricHeaderFlyweight.HEADER_LENGTH,
        PacketIos.wireOverheadLength(PacketIos.RAW) + PfabricHeaderFlyweight.HEADER_LENGTH),

    /**
     * The kernel's TCP (Java NIO socket channels, TCP_NODELAY) through drop-tail ports.
     */
    KERNEL_TCP("kernel-tcp", "droptail", null, Limits.TCP_SEGMENT_LENGTH, Limits.TCP_FRAME_HEADERS_LENGTH);

    private final String label;
    private final String discipline;
    private final String io;
    private final int segmentLength;
    private final int frameHeadersLength;

    TransportTarget(
        final String label, final String discipline, final String io, final int segmentLength,
        final int frameHeadersLength)
    {
        this.label = label;
        this.discipline = discipline;
        this.io = io;
        this.segmentLength = segmentLength;
        this.frameHeadersLength = frameHeadersLength;
    }

    /**
     * The name on the command line and in the results.
     *
     * @return such as {@code hostd-raw}.
     */
    public String label()
    {
        return label;
    }

    /**
     * The queue discipline of every switch port.
     *
     * @return {@code droptail} or {@code pfabric}.
     */
    public String discipline()
    {
        return discipline;
    }

    /**
     * hostd's packet I/O, as {@code --io} names it.
     *
     * @return {@code udp} or {@code raw}; null for kernel TCP.
     */
    public String io()
    {
        return io;
    }

    /**
     * Whether hostd carries the flow.
     *
     * @return false for kernel TCP.
     */
    public boolean isHostd()
    {
        return null != io;
    }

    /**
     * Payload of a full packet.
     *
     * @return bytes.
     */
    public int segmentLength()
    {
        return segmentLength;
    }

    /**
     * The largest goodput a line rate allows this target: each full segment costs its payload, every header in front
     * of it in the frame, and the 24 bytes of FCS, preamble and gap.
     *
     * @param rateBitsPerSec the line rate; 0 for unpaced.
     * @return bits per second of payload; NaN for unpaced, which has no line rate.
     */
    public double maxGoodputBitsPerSec(final long rateBitsPerSec)
    {
        if (0 == rateBitsPerSec)
        {
            return Double.NaN;
        }
        return rateBitsPerSec * (double)segmentLength /
            (segmentLength + frameHeadersLength + EgressPacer.WIRE_OVERHEAD_LENGTH);
    }

    /**
     * A target by its label.
     *
     * @param label such as {@code kernel-tcp}, in any case.
     * @return the target.
     * @throws IllegalArgumentException listing the labels if there is none such.
     */
    public static TransportTarget byLabel(final String label)
    {
        for (final TransportTarget target : values())
        {
            if (target.label.equals(label.toLowerCase(Locale.ROOT)))
            {
                return target;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a target: use " + String.join(", ", labels()));
    }

    /**
     * Every label, in the order of the rows.
     *
     * @return the labels.
     */
    public static List<String> labels()
    {
        return Arrays.stream(values()).map(TransportTarget::label).toList();
    }

    /**
     * The sizes the constants are built from (an enum's constants cannot use its own static fields).
     */
    public static final class Limits
    {
        /**
         * The fabric's MTU: IPv4 packets of at most 1500 bytes.
         */
        public static final int MTU_LENGTH = 1_500;

        /**
         * A full TCP segment's payload on a 1500-byte MTU with timestamps: 1500 less 20 of IPv4 and 32 of TCP.
         */
        public static final int TCP_SEGMENT_LENGTH = 1_448;

        /**
         * Ethernet (14), IPv4 (20) and TCP with the timestamp option (32) in front of each TCP segment.
         */
        public static final int TCP_FRAME_HEADERS_LENGTH = 66;

        private Limits()
        {
        }
    }
}
