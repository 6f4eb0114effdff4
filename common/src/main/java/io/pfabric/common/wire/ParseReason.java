package io.pfabric.common.wire;

/**
 * Why {@link FrameParser#parse} found a frame {@link FrameKind#MALFORMED}, as int constants from 0 to
 * {@link #COUNT} - 1 so that they can index an array of counters.
 */
public final class ParseReason
{
    /**
     * The frame is well formed.
     */
    public static final int NONE = 0;

    /**
     * Fewer than 14 bytes: no whole Ethernet header.
     */
    public static final int TRUNCATED_ETHERNET = 1;

    /**
     * Fewer than 20 bytes after the Ethernet header of an IPv4 frame.
     */
    public static final int TRUNCATED_IPV4 = 2;

    /**
     * IP version other than 4 under EtherType IPv4.
     */
    public static final int BAD_IPV4_VERSION = 3;

    /**
     * IHL below 5, or IHL × 4 bytes not present in the frame.
     */
    public static final int BAD_IHL = 4;

    /**
     * IPv4 total length beyond the bytes after the Ethernet header, or below IHL × 4.
     */
    public static final int IPV4_TOTAL_LENGTH_BEYOND_FRAME = 5;

    /**
     * Fewer than 8 bytes of IP payload for UDP.
     */
    public static final int TRUNCATED_UDP = 6;

    /**
     * UDP length below 8, or beyond the IP payload.
     */
    public static final int BAD_UDP_LENGTH = 7;

    /**
     * Fewer than 32 bytes of pFabric header in the L4 payload.
     */
    public static final int TRUNCATED_PFABRIC = 8;

    /**
     * pFabric version other than {@link PfabricHeaderFlyweight#VERSION}.
     */
    public static final int UNKNOWN_PFABRIC_VERSION = 9;

    /**
     * pFabric type other than DATA, ACK, PROBE or CONTROL.
     */
    public static final int UNKNOWN_PFABRIC_TYPE = 10;

    /**
     * pFabric header length below 32, beyond the L4 payload, or not 32 + 8 × SACK count for an ACK.
     */
    public static final int BAD_PFABRIC_HEADER_LENGTH = 11;

    /**
     * SACK count above 4, or SACK blocks not fitting inside the header length.
     */
    public static final int SACK_COUNT_BEYOND_HEADER = 12;

    /**
     * pFabric header length + payload length beyond the L4 payload.
     */
    public static final int PAYLOAD_LENGTH_BEYOND_PACKET = 13;

    /**
     * Fewer than 28 bytes after the Ethernet header of an ARP frame.
     */
    public static final int TRUNCATED_ARP = 14;

    /**
     * Number of reasons, {@link #NONE} included, for sizing arrays of counters.
     */
    public static final int COUNT = 15;

    private ParseReason()
    {
    }

    /**
     * Name of a reason, for logs and counter labels.
     *
     * @param reason one of the constants of this class.
     * @return its name, or {@code "UNKNOWN"}.
     */
    public static String name(final int reason)
    {
        return switch (reason)
        {
            case NONE -> "NONE";
            case TRUNCATED_ETHERNET -> "TRUNCATED_ETHERNET";
            case TRUNCATED_IPV4 -> "TRUNCATED_IPV4";
            case BAD_IPV4_VERSION -> "BAD_IPV4_VERSION";
            case BAD_IHL -> "BAD_IHL";
            case IPV4_TOTAL_LENGTH_BEYOND_FRAME -> "IPV4_TOTAL_LENGTH_BEYOND_FRAME";
            case TRUNCATED_UDP -> "TRUNCATED_UDP";
            case BAD_UDP_LENGTH -> "BAD_UDP_LENGTH";
            case TRUNCATED_PFABRIC -> "TRUNCATED_PFABRIC";
            case UNKNOWN_PFABRIC_VERSION -> "UNKNOWN_PFABRIC_VERSION";
            case UNKNOWN_PFABRIC_TYPE -> "UNKNOWN_PFABRIC_TYPE";
            case BAD_PFABRIC_HEADER_LENGTH -> "BAD_PFABRIC_HEADER_LENGTH";
            case SACK_COUNT_BEYOND_HEADER -> "SACK_COUNT_BEYOND_HEADER";
            case PAYLOAD_LENGTH_BEYOND_PACKET -> "PAYLOAD_LENGTH_BEYOND_PACKET";
            case TRUNCATED_ARP -> "TRUNCATED_ARP";
            default -> "UNKNOWN";
        };
    }
}
