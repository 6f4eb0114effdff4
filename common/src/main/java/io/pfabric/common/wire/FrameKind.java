package io.pfabric.common.wire;

/**
 * Kinds of frame {@link FrameParser#parse} tells apart, as int constants so that the hot path does not touch enums.
 */
public final class FrameKind
{
    /**
     * pFabric carried directly in IPv4 with protocol {@link Ipv4Flyweight#PROTOCOL_PFABRIC}.
     */
    public static final int PFABRIC_IP = 0;

    /**
     * pFabric carried in UDP over IPv4 to the configured pFabric port.
     */
    public static final int PFABRIC_UDP = 1;

    /**
     * Any other well-formed IPv4 packet: kernel TCP, other UDP, ICMP, non-first fragments.
     */
    public static final int IPV4_OTHER = 2;

    /**
     * An ARP packet.
     */
    public static final int ARP = 3;

    /**
     * Any other EtherType.
     */
    public static final int OTHER = 4;

    /**
     * A frame that failed a check; {@link FrameParser#reason()} says which.
     */
    public static final int MALFORMED = 5;

    /**
     * Number of kinds, for sizing arrays indexed by kind.
     */
    public static final int COUNT = 6;

    private FrameKind()
    {
    }

    /**
     * Name of a kind, for logs and counter labels.
     *
     * @param kind one of the constants of this class.
     * @return its name, or {@code "UNKNOWN"}.
     */
    public static String name(final int kind)
    {
        return switch (kind)
        {
            case PFABRIC_IP -> "PFABRIC_IP";
            case PFABRIC_UDP -> "PFABRIC_UDP";
            case IPV4_OTHER -> "IPV4_OTHER";
            case ARP -> "ARP";
            case OTHER -> "OTHER";
            case MALFORMED -> "MALFORMED";
            default -> "UNKNOWN";
        };
    }
}
