package io.pfabric.cli;

import java.net.InetSocketAddress;

/**
 * {@code HOST:PORT} on the command line.
 */
final class SocketAddresses
{
    private SocketAddresses()
    {
    }

    /**
     * Parse an address.
     *
     * @param option the option it came with, for the message.
     * @param text   {@code HOST:PORT}; HOST may be a name or an IPv4 address.
     * @return the address, resolved.
     * @throws IllegalArgumentException saying what is wrong.
     */
    static InetSocketAddress parse(final String option, final String text)
    {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1)
        {
            throw new IllegalArgumentException(option + " must be HOST:PORT, not '" + text + "'");
        }
        final int port;
        try
        {
            port = Integer.parseInt(text.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " must be HOST:PORT, not '" + text + "'");
        }
        if (port < 0 || port > 65_535)
        {
            throw new IllegalArgumentException(option + ": port " + port + " is out of range");
        }
        final InetSocketAddress address = new InetSocketAddress(text.substring(0, colon), port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException(option + ": cannot resolve '" + text.substring(0, colon) + "'");
        }
        return address;
    }
}
