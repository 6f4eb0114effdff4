package io.pfabric.common.topology;

import java.util.Objects;

/**
 * One port of one switch, written {@code switch:port} in a topology file.
 *
 * @param switchName name of the switch.
 * @param portName   name of the port on that switch.
 */
public record PortRef(String switchName, String portName)
{
    /**
     * Check the names.
     *
     * @param switchName name of the switch.
     * @param portName   name of the port on that switch.
     */
    public PortRef
    {
        Names.requireName("switch name", switchName);
        Names.requireName("port name", portName);
    }

    /**
     * Parse {@code switch:port}.
     *
     * @param text such as {@code s1:p3}.
     * @return the switch port.
     * @throws IllegalArgumentException naming the text if it is not two names joined by a colon.
     */
    public static PortRef parse(final String text)
    {
        Objects.requireNonNull(text, "text");
        final int colon = text.indexOf(':');
        if (colon < 0 || colon != text.lastIndexOf(':'))
        {
            throw new IllegalArgumentException("'" + text + "' is not a switch port like s1:p3");
        }
        try
        {
            return new PortRef(
                Names.requireName(text.substring(0, colon)), Names.requireName(text.substring(colon + 1)));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a switch port like s1:p3", ex);
        }
    }

    /**
     * The text form.
     *
     * @return {@code switch:port}.
     */
    public String toString()
    {
        return switchName + ":" + portName;
    }
}
