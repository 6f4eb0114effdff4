package io.pfabric.common.topology;

import java.util.List;
import java.util.Objects;

/**
 * A switch: its name, how it spreads traffic over equal-cost ports, and its ports in declaration order.
 *
 * @param name      unique among hosts and switches.
 * @param multipath how packets are spread over equal-cost ports.
 * @param ports     in declaration order; names unique within the switch once it is part of a {@link Topology}.
 */
public record SwitchSpec(String name, Multipath multipath, List<PortSpec> ports)
{
    /**
     * Check the switch and copy its ports.
     *
     * @param name      unique among hosts and switches.
     * @param multipath how packets are spread over equal-cost ports.
     * @param ports     in declaration order.
     */
    public SwitchSpec
    {
        Names.requireName("switch name", name);
        Objects.requireNonNull(multipath, "multipath");
        ports = List.copyOf(ports);
    }

    /**
     * A port by name.
     *
     * @param portName name of the port.
     * @return the port, or null if the switch has none by that name.
     */
    public PortSpec port(final String portName)
    {
        for (final PortSpec port : ports)
        {
            if (port.name().equals(portName))
            {
                return port;
            }
        }
        return null;
    }
}
