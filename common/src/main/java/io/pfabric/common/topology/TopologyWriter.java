package io.pfabric.common.topology;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes a topology as the YAML that {@link TopologyParser} reads: hosts, then switches with their ports, then links,
 * leaving out values that equal their defaults (no rate, no buffer).
 */
final class TopologyWriter
{
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");
    private static final Set<String> YAML_WORDS = Set.of("null", "true", "false", "yes", "no", "on", "off", "y", "n");

    private TopologyWriter()
    {
    }

    /**
     * Write a topology.
     *
     * @param topology to write.
     * @return the YAML text.
     */
    static String write(final Topology topology)
    {
        final StringBuilder yaml = new StringBuilder(1024);
        yaml.append("# pfabric topology: ").append(topology.hosts().size()).append(" hosts, ")
            .append(topology.switches().size()).append(" switches, ").append(topology.links().size())
            .append(" links\n");
        yaml.append("hosts:").append(topology.hosts().isEmpty() ? " []\n" : "\n");
        for (final HostSpec host : topology.hosts())
        {
            yaml.append("  - name: ").append(scalar(host.name())).append('\n')
                .append("    ip: ").append(host.ipText()).append('\n')
                .append("    mac: \"").append(host.macText()).append("\"\n")
                .append("    switch: ").append(scalar(host.switchName())).append('\n')
                .append("    port: ").append(scalar(host.portName())).append('\n');
        }
        yaml.append("switches:\n");
        for (final SwitchSpec switchSpec : topology.switches())
        {
            yaml.append("  - name: ").append(scalar(switchSpec.name())).append('\n')
                .append("    multipath: ").append(switchSpec.multipath().keyword()).append('\n')
                .append("    ports:\n");
            for (final PortSpec port : switchSpec.ports())
            {
                writePort(yaml, port);
            }
        }
        yaml.append("links:").append(topology.links().isEmpty() ? " []\n" : "\n");
        for (final LinkSpec link : topology.links())
        {
            yaml.append("  - [").append(scalar(link.a().toString())).append(", ")
                .append(scalar(link.b().toString())).append("]\n");
        }
        return yaml.toString();
    }

    private static void writePort(final StringBuilder yaml, final PortSpec port)
    {
        yaml.append("      - name: ").append(scalar(port.name())).append('\n');
        if (port.isUdp())
        {
            yaml.append("        udp:\n")
                .append("          local: ").append(quoted(port.udp().local())).append('\n')
                .append("          remote: ").append(quoted(port.udp().remote())).append('\n')
                .append("          vni: ").append(port.udp().vni()).append('\n');
        }
        else
        {
            yaml.append("        interface: ").append(scalar(port.interfaceName())).append('\n');
            if (PortIo.PACKET != port.io())
            {
                yaml.append("        io: ").append(port.io().cliName()).append('\n');
            }
        }
        if (0 != port.rateBitsPerSec())
        {
            yaml.append("        rate: ").append(Rates.format(port.rateBitsPerSec())).append('\n');
        }
        yaml.append("        discipline: ").append(port.discipline()).append('\n');
        if (0 != port.bufferLength())
        {
            yaml.append("        buffer: ").append(port.bufferLength()).append('\n');
        }
        if (null != port.classes())
        {
            yaml.append("        classes: \"").append(port.classes()).append("\"\n");
        }
    }

    private static String scalar(final String text)
    {
        final String plainCandidate = text.replace(':', '_');
        if (PLAIN.matcher(plainCandidate).matches() && !YAML_WORDS.contains(text.toLowerCase(Locale.ROOT)))
        {
            return text;
        }
        return quoted(text);
    }

    private static String quoted(final String text)
    {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
