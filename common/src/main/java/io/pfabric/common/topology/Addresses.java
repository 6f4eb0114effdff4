package io.pfabric.common.topology;

import java.util.Objects;

/**
 * Text forms of IPv4 and MAC addresses: dotted quads such as {@code 10.0.0.1} held in an {@code int} in network
 * order (first octet in the top byte), and colon-separated MACs such as {@code 02:00:0a:00:00:01} held in the low 48
 * bits of a {@code long}.
 */
public final class Addresses
{
    private static final int MAC_TEXT_LENGTH = 17;
    private static final long MAC_MULTICAST_BIT = 1L << 40;

    private Addresses()
    {
    }

    /**
     * Parse a dotted-quad IPv4 address; octets are decimal without leading zeros, which some tools read as octal.
     *
     * @param text such as {@code 10.0.0.1}.
     * @return the address, first octet in the most significant byte.
     * @throws IllegalArgumentException naming the text if it is not such an address.
     */
    public static int parseIpv4(final String text)
    {
        Objects.requireNonNull(text, "text");
        final String[] octets = text.split("\\.", -1);
        if (4 != octets.length)
        {
            throw notIpv4(text);
        }
        int ip = 0;
        for (final String octet : octets)
        {
            if (octet.isEmpty() || octet.length() > 3 || (octet.length() > 1 && '0' == octet.charAt(0)))
            {
                throw notIpv4(text);
            }
            int value = 0;
            for (int i = 0; i < octet.length(); i++)
            {
                final char c = octet.charAt(i);
                if (c < '0' || c > '9')
                {
                    throw notIpv4(text);
                }
                value = value * 10 + (c - '0');
            }
            if (value > 255)
            {
                throw notIpv4(text);
            }
            ip = (ip << 8) | value;
        }
        return ip;
    }

    /**
     * Format an IPv4 address as a dotted quad.
     *
     * @param ip first octet in the most significant byte.
     * @return such as {@code 10.0.0.1}.
     */
    public static String formatIpv4(final int ip)
    {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
    }

    /**
     * Parse a MAC address of six two-digit hex octets separated by colons, in either case.
     *
     * @param text such as {@code 02:00:0a:00:00:01}.
     * @return the address in the low 48 bits, first octet highest.
     * @throws IllegalArgumentException naming the text if it is not such an address.
     */
    public static long parseMac(final String text)
    {
        Objects.requireNonNull(text, "text");
        if (MAC_TEXT_LENGTH != text.length())
        {
            throw notMac(text);
        }
        long mac = 0;
        for (int i = 0; i < MAC_TEXT_LENGTH; i++)
        {
            final char c = text.charAt(i);
            if (2 == i % 3)
            {
                if (':' != c)
                {
                    throw notMac(text);
                }
            }
            else
            {
                final int digit = Character.digit(c, 16);
                if (digit < 0 || c > 'f')
                {
                    throw notMac(text);
                }
                mac = (mac << 4) | digit;
            }
        }
        return mac;
    }

    /**
     * Format a MAC address as six lower-case hex octets separated by colons.
     *
     * @param mac in the low 48 bits.
     * @return such as {@code 02:00:0a:00:00:01}.
     */
    public static String formatMac(final long mac)
    {
        final StringBuilder text = new StringBuilder(MAC_TEXT_LENGTH);
        for (int shift = 40; shift >= 0; shift -= 8)
        {
            final int octet = (int)(mac >>> shift) & 0xFF;
            text.append(Character.forDigit(octet >>> 4, 16)).append(Character.forDigit(octet & 0xF, 16));
            if (shift > 0)
            {
                text.append(':');
            }
        }
        return text.toString();
    }

    /**
     * Whether a MAC address is a group (multicast or broadcast) address: the low bit of its first octet is set.
     *
     * @param mac in the low 48 bits.
     * @return true for a group address.
     */
    public static boolean isMulticastMac(final long mac)
    {
        return 0 != (mac & MAC_MULTICAST_BIT);
    }

    private static IllegalArgumentException notIpv4(final String text)
    {
        return new IllegalArgumentException("'" + text + "' is not an IPv4 address like 10.0.0.1");
    }

    private static IllegalArgumentException notMac(final String text)
    {
        return new IllegalArgumentException("'" + text + "' is not a MAC address like 02:00:00:00:00:01");
    }
}
