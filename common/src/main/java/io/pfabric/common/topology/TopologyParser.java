package io.pfabric.common.topology;

import io.pfabric.common.topology.SourceTree.Entry;
import io.pfabric.common.topology.SourceTree.ListNode;
import io.pfabric.common.topology.SourceTree.MapNode;
import io.pfabric.common.topology.SourceTree.Node;
import io.pfabric.common.topology.SourceTree.ScalarNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reads a topology file: YAML (or JSON, which is YAML) with the keys {@code hosts}, {@code switches} and
 * {@code links}, as described in {@code docs/topology.md}.
 * <p>
 * Every problem is reported as a {@link TopologyException} naming the file, the line and column, the host, switch,
 * port or link concerned and what is wrong: unknown keys, missing or mistyped values, malformed addresses and rates,
 * duplicate names or addresses, and references that do not resolve.
 */
public final class TopologyParser
{
    private static final List<String> TOPOLOGY_KEYS = List.of("hosts", "switches", "links");
    private static final List<String> HOST_KEYS = List.of("name", "ip", "mac", "switch", "port");
    private static final List<String> SWITCH_KEYS = List.of("name", "multipath", "ports");
    private static final List<String> PORT_KEYS = List.of("name", "interface", "udp", "rate", "discipline", "buffer",
        "classes", "io");
    private static final List<String> UDP_KEYS = List.of("local", "remote", "vni");

    private final String source;
    private final Map<Object, Node> origins = new IdentityHashMap<>();

    private TopologyParser(final String source)
    {
        this.source = source;
    }

    /**
     * Read a topology file in UTF-8.
     *
     * @param file to read; its name as given is used in messages.
     * @return the topology.
     * @throws TopologyException if the file cannot be read or does not hold a valid topology.
     */
    public static Topology parse(final Path file)
    {
        final String source = file.toString();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            return parse(source, reader);
        }
        catch (final NoSuchFileException ex)
        {
            throw new TopologyException(source, "no such file", ex);
        }
        catch (final AccessDeniedException ex)
        {
            throw new TopologyException(source, "permission denied", ex);
        }
        catch (final IOException ex)
        {
            throw new TopologyException(source, "cannot read: " + ex, ex);
        }
    }

    /**
     * Read a topology from text.
     *
     * @param sourceName name of the text for messages, such as the file name.
     * @param reader     of the text; not closed.
     * @return the topology.
     * @throws TopologyException if the text cannot be read or does not hold a valid topology.
     */
    public static Topology parse(final String sourceName, final Reader reader)
    {
        return new TopologyParser(sourceName).topology(SourceTree.read(sourceName, reader));
    }

    private Topology topology(final Node root)
    {
        if (null == root)
        {
            throw new TopologyException(source, 1, 1,
                "the document is empty; a topology is a mapping with keys hosts, switches and links");
        }
        if (!(root instanceof MapNode map))
        {
            throw error(root, "a topology is a mapping with keys hosts, switches and links, not " + describe(root));
        }
        checkKeys(map, "topology", TOPOLOGY_KEYS);
        final List<HostSpec> hosts = new ArrayList<>();
        for (final Node node : list(map, "hosts", "topology").items())
        {
            hosts.add(host(node));
        }
        final ListNode switchNodes = list(map, "switches", "topology");
        if (switchNodes.items().isEmpty())
        {
            throw error(Objects.requireNonNullElse(map.value("switches"), map),
                "a topology needs at least one switch under 'switches'");
        }
        final List<SwitchSpec> switches = new ArrayList<>();
        for (final Node node : switchNodes.items())
        {
            switches.add(switchSpec(node));
        }
        final List<LinkSpec> links = new ArrayList<>();
        for (final Node node : list(map, "links", "topology").items())
        {
            links.add(link(node));
        }
        return new Topology(hosts, switches, links, new Locator());
    }

    private HostSpec host(final Node node)
    {
        final MapNode map = mapping(node, "host", "a host");
        checkKeys(map, named(map, "host"), HOST_KEYS);
        final String name = value(map, "name", "host", Names::requireName);
        final String context = "host '" + name + "'";
        final int ip = value(map, "ip", context, Addresses::parseIpv4);
        final long mac = value(map, "mac", context, text -> HostSpec.requireUnicastMac(Addresses.parseMac(text)));
        final String switchName = value(map, "switch", context, Names::requireName);
        final String portName = value(map, "port", context, Names::requireName);
        return origin(new HostSpec(name, ip, mac, switchName, portName), map);
    }

    private SwitchSpec switchSpec(final Node node)
    {
        final MapNode map = mapping(node, "switch", "a switch");
        checkKeys(map, named(map, "switch"), SWITCH_KEYS);
        final String name = value(map, "name", "switch", Names::requireName);
        final String context = "switch '" + name + "'";
        final Multipath multipath = optionalValue(map, "multipath", context, Multipath::parse, Multipath.SPRAY);
        final ListNode portNodes = list(map, "ports", context);
        if (portNodes.items().isEmpty())
        {
            throw error(Objects.requireNonNullElse(map.value("ports"), map),
                context + ": a switch needs at least one port");
        }
        final List<PortSpec> ports = new ArrayList<>();
        for (final Node portNode : portNodes.items())
        {
            ports.add(port(portNode, context));
        }
        return origin(new SwitchSpec(name, multipath, ports), map);
    }

    private PortSpec port(final Node node, final String switchContext)
    {
        final MapNode map = mapping(node, switchContext + " port", "a port");
        checkKeys(map, named(map, switchContext + " port"), PORT_KEYS);
        final String name = value(map, "name", switchContext + " port", Names::requireName);
        final String context = switchContext + " port '" + name + "'";
        final boolean hasInterface = null != map.value("interface");
        final boolean hasUdp = null != map.value("udp");
        if (hasInterface && hasUdp)
        {
            throw error(map, context + ": has both 'interface' and 'udp'; a port is one or the other");
        }
        if (!hasInterface && !hasUdp)
        {
            throw error(map, context + ": needs 'interface' (a Linux interface) or 'udp' (a VXLAN tunnel)");
        }
        final String interfaceName =
            hasInterface ? value(map, "interface", context, Names::requireInterfaceName) : null;
        final UdpEndpoints udp = hasUdp ? udp(map.value("udp"), context) : null;
        final long rateBitsPerSec = optionalValue(map, "rate", context, Rates::parseBitsPerSec, 0L);
        final String discipline =
            optionalValue(map, "discipline", context, PortSpec::requireDiscipline, PortSpec.DEFAULT_DISCIPLINE);
        final int bufferLength = optionalValue(
            map, "buffer", context, text -> PortSpec.requireBufferLength(parseWholeNumber(text, " of bytes")), 0);
        final TrafficClasses classes = optionalValue(map, "classes", context, TrafficClasses::parse, null);
        if (hasUdp && null != map.value("io"))
        {
            throw error(map.value("io"), context + ": 'io' applies only to a port on an interface, not to 'udp'");
        }
        final PortIo io = optionalValue(map, "io", context, PortIo::named, PortIo.PACKET);
        return origin(
            new PortSpec(name, interfaceName, udp, rateBitsPerSec, discipline, bufferLength, classes, io), map);
    }

    private UdpEndpoints udp(final Node node, final String portContext)
    {
        final String context = portContext + " udp";
        final MapNode map = mapping(node, portContext, "'udp'");
        checkKeys(map, context, UDP_KEYS);
        final String local = value(map, "local", context, UdpEndpoints::requireEndpoint);
        final String remote = value(map, "remote", context, UdpEndpoints::requireEndpoint);
        final int vni = optionalValue(
            map, "vni", context, text -> UdpEndpoints.requireVni(parseWholeNumber(text, "")), 0);
        return UdpEndpoints.of(local, remote, vni);
    }

    private LinkSpec link(final Node node)
    {
        if (!(node instanceof ListNode list))
        {
            throw error(node, "a link is a list of two switch ports like [s1:p3, s2:p3], not " + describe(node));
        }
        if (2 != list.items().size())
        {
            throw error(node, "a link is a list of two switch ports like [s1:p3, s2:p3], not of " +
                list.items().size());
        }
        final PortRef[] ends = new PortRef[2];
        for (int i = 0; i < ends.length; i++)
        {
            final Node end = list.items().get(i);
            if (!(end instanceof ScalarNode scalar) || null == scalar.text())
            {
                throw error(end, "a link end is a switch port like s1:p3, not " + describe(end));
            }
            try
            {
                ends[i] = origin(PortRef.parse(scalar.text()), end);
            }
            catch (final IllegalArgumentException ex)
            {
                throw error(end, "link end " + ex.getMessage());
            }
        }
        return origin(new LinkSpec(ends[0], ends[1]), node);
    }

    private MapNode mapping(final Node node, final String context, final String what)
    {
        if (!(node instanceof MapNode map))
        {
            throw error(node, context + ": " + what + " is a mapping of keys to values, not " + describe(node));
        }
        return map;
    }

    private ListNode list(final MapNode map, final String key, final String context)
    {
        final Node node = map.value(key);
        if (null == node || (node instanceof ScalarNode scalar && null == scalar.text()))
        {
            return new ListNode(map.line(), map.column(), List.of());
        }
        if (!(node instanceof ListNode list))
        {
            throw error(node, context + ": '" + key + "' is a list, not " + describe(node));
        }
        return list;
    }

    private void checkKeys(final MapNode map, final String context, final List<String> knownKeys)
    {
        for (final Entry entry : map.entries().values())
        {
            if (!knownKeys.contains(entry.key()))
            {
                throw new TopologyException(source, entry.line(), entry.column(), context + ": unknown key '" +
                    entry.key() + "'; the keys are " + String.join(", ", knownKeys));
            }
        }
    }

    private <T> T value(final MapNode map, final String key, final String context, final Function<String, T> rule)
    {
        final Node node = map.value(key);
        if (null == node)
        {
            throw error(map, context + ": missing '" + key + "'");
        }
        if (!(node instanceof ScalarNode scalar))
        {
            throw error(node, context + ": '" + key + "' is a single value, not " + describe(node));
        }
        if (null == scalar.text())
        {
            throw error(node, context + ": '" + key + "' has no value");
        }
        try
        {
            return rule.apply(scalar.text());
        }
        catch (final IllegalArgumentException ex)
        {
            throw error(node, context + ": " + key + " " + ex.getMessage());
        }
    }

    private <T> T optionalValue(
        final MapNode map,
        final String key,
        final String context,
        final Function<String, T> rule,
        final T defaultValue)
    {
        final Node node = map.value(key);
        if (null == node || (node instanceof ScalarNode scalar && null == scalar.text()))
        {
            return defaultValue;
        }
        return value(map, key, context, rule);
    }

    private static String named(final MapNode map, final String kind)
    {
        final String name = scalarText(map, "name");
        return null == name ? kind : kind + " '" + name + "'";
    }

    private static String scalarText(final MapNode map, final String key)
    {
        return map.value(key) instanceof ScalarNode scalar ? scalar.text() : null;
    }

    private <T> T origin(final T element, final Node node)
    {
        origins.put(element, node);
        return element;
    }

    private TopologyException error(final Node node, final String message)
    {
        return new TopologyException(source, node.line(), node.column(), message);
    }

    private static long parseWholeNumber(final String text, final String ofUnit)
    {
        if (text.length() > 1 && text.length() <= 19 && '-' == text.charAt(0) && isDigits(text.substring(1)))
        {
            return Long.parseLong(text);
        }
        if (text.isEmpty() || text.length() > 18 || !isDigits(text))
        {
            throw new IllegalArgumentException("'" + text + "' is not a whole number" + ofUnit);
        }
        return Long.parseLong(text);
    }

    private static boolean isDigits(final String text)
    {
        return text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static String describe(final Node node)
    {
        return switch (node)
        {
            case MapNode ignored -> "a mapping";
            case ListNode ignored -> "a list";
            case ScalarNode scalar -> null == scalar.text() ? "an empty value" : "the value '" + scalar.text() + "'";
        };
    }

    private final class Locator implements SourceLocator
    {
        public TopologyException error(final Object element, final String key, final String message)
        {
            final Node node = origins.get(element);
            if (null == node)
            {
                return new TopologyException(source, 0, 0, message);
            }
            final Node value = null != key && node instanceof MapNode map ? map.value(key) : null;
            return TopologyParser.this.error(null == value ? node : value, message);
        }

        public int line(final Object element)
        {
            final Node node = origins.get(element);
            return null == node ? 0 : node.line();
        }
    }
}
