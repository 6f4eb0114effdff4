package io.pfabric.bench.transport;

import io.pfabric.bench.forwarding.ForwardingTarget;
import io.pfabric.common.os.Commands;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What joins the two hosts of the benchmark: switchd, or the kernel's bridge as its peer on the same namespaces and
 * the same host interfaces. Paced, the bridge's two ports each get the kernel's token bucket shaper ({@code tbf}) at
 * the rate, charging every frame the 24 bytes of FCS, preamble and gap as switchd's pacer does, with a bucket of
 * {@link EgressPacer#DEFAULT_BURST_FRAMES} full frames (switchd's catch-up allowance) and a queue of the buffer. The
 * kernel takes the bucket in bytes; {@code tc qdisc show} prints it rounded to a microsecond at the rate.
 */
public enum TransportSwitch
{
    /**
     * pfabric's switchd, every port paced at the rate.
     */
    SWITCHD("switchd"),

    /**
     * The kernel's bridge without netfilter's hooks, every port shaped by {@code tbf} at the rate.
     */
    BRIDGE("bridge");

    /**
     * A full frame on the wire as the shaper charges it: 1514 bytes of Ethernet frame and 24 of FCS, preamble and gap.
     */
    static final int FULL_FRAME_WIRE_LENGTH =
        TransportTarget.Limits.MTU_LENGTH + EthernetFlyweight.HEADER_LENGTH + EgressPacer.WIRE_OVERHEAD_LENGTH;

    private final String label;

    TransportSwitch(final String label)
    {
        this.label = label;
    }

    /**
     * The name on the command line and in the results.
     *
     * @return such as {@code bridge}.
     */
    public String label()
    {
        return label;
    }

    /**
     * Start this switch on the fabric's one switch.
     *
     * @param fabric         the namespaces and links.
     * @param rateBitsPerSec every port's egress rate; 0 for unpaced.
     * @param discipline     switchd's queue discipline (the bridge's ports are the shaper's FIFO).
     * @param bufferLength   bytes queued per port.
     * @return what to close to stop it.
     * @throws IOException if it cannot start.
     */
    AutoCloseable start(
        final NetnsFabric fabric, final long rateBitsPerSec, final String discipline, final long bufferLength)
        throws IOException
    {
        if (SWITCHD == this)
        {
            try
            {
                return FabricRunner.start(fabric, new SwitchDaemon.Overrides(rateBitsPerSec, discipline,
                    bufferLength));
            }
            catch (final PacketSocketException ex)
            {
                throw new IOException("switchd: " + ex.getMessage(), ex);
            }
        }
        final ForwardingTarget bridge = ForwardingTarget.start(ForwardingTarget.Kind.BRIDGE, fabric, 0);
        final SwitchSpec sw = fabric.topology().switches().get(0);
        final String namespace = fabric.namespace(sw.name());
        final List<String> shaped = new ArrayList<>();
        final AutoCloseable running = () ->
        {
            try
            {
                for (final String interfaceName : shaped)
                {
                    Commands.run("tc", "-n", namespace, "qdisc", "del", "dev", interfaceName, "root");
                }
            }
            finally
            {
                bridge.close();
            }
        };
        try
        {
            if (rateBitsPerSec > 0)
            {
                for (final PortSpec port : sw.ports())
                {
                    Commands.run(shaperCommand(namespace, port.interfaceName(), rateBitsPerSec, bufferLength)
                        .toArray(new String[0]));
                    shaped.add(port.interfaceName());
                }
            }
            return running;
        }
        catch (final IOException ex)
        {
            try
            {
                running.close();
            }
            catch (final Exception suppressed)
            {
                ex.addSuppressed(suppressed);
            }
            throw ex;
        }
    }

    /**
     * The {@code tc} command that shapes one bridge port.
     *
     * @param namespace      the switch's namespace.
     * @param interfaceName  the port.
     * @param rateBitsPerSec the rate, above 0.
     * @param bufferLength   bytes the shaper queues before it drops.
     * @return the command and its arguments.
     */
    static List<String> shaperCommand(
        final String namespace, final String interfaceName, final long rateBitsPerSec, final long bufferLength)
    {
        return List.of("tc", "-n", namespace, "qdisc", "replace", "dev", interfaceName, "root",
            "stab", "overhead", String.valueOf(EgressPacer.WIRE_OVERHEAD_LENGTH), "linklayer", "ethernet",
            "tbf", "rate", rateBitsPerSec + "bit",
            "burst", String.valueOf(EgressPacer.DEFAULT_BURST_FRAMES * FULL_FRAME_WIRE_LENGTH),
            "limit", String.valueOf(bufferLength));
    }

    /**
     * A switch by its label.
     *
     * @param label {@code switchd} or {@code bridge}, in any case.
     * @return the switch.
     * @throws IllegalArgumentException naming the labels if there is none such.
     */
    public static TransportSwitch byLabel(final String label)
    {
        for (final TransportSwitch value : values())
        {
            if (value.label.equals(label.toLowerCase(Locale.ROOT)))
            {
                return value;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a switch: use " +
            String.join(", ", Arrays.stream(values()).map(TransportSwitch::label).toList()));
    }
}
