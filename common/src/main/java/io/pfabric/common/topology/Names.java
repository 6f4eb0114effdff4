package io.pfabric.common.topology;

import java.util.regex.Pattern;

/**
 * The rules for the names of hosts, switches and ports, and for Linux interface names.
 */
final class Names
{
    /**
     * Longest Linux interface name: {@code IFNAMSIZ} less the terminating NUL.
     */
    static final int MAX_INTERFACE_NAME_LENGTH = 15;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private Names()
    {
    }

    /**
     * Check the name of a host, switch or port.
     *
     * @param name to check.
     * @return the name.
     * @throws IllegalArgumentException if it is not letters, digits, '-', '_' and '.' starting with a letter or digit.
     */
    static String requireName(final String name)
    {
        if (null == name || !NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException(
                "'" + name + "' is not a name: use letters, digits, '-', '_' and '.', starting with a letter or digit");
        }
        return name;
    }

    /**
     * Check the name of a host, switch or port, saying which field it is when it fails.
     *
     * @param field what the name names, such as {@code host name}.
     * @param name  to check.
     * @return the name.
     * @throws IllegalArgumentException if it is not letters, digits, '-', '_' and '.' starting with a letter or digit.
     */
    static String requireName(final String field, final String name)
    {
        try
        {
            return requireName(name);
        }
        catch (final IllegalArgumentException ex)
        {
            throw about(field, ex);
        }
    }

    /**
     * Check a Linux interface name as the kernel's {@code dev_valid_name} does, keeping to printable ASCII.
     *
     * @param interfaceName to check.
     * @return the name.
     * @throws IllegalArgumentException if Linux would refuse it.
     */
    static String requireInterfaceName(final String interfaceName)
    {
        if (null == interfaceName || interfaceName.isEmpty())
        {
            throw new IllegalArgumentException("'' is not an interface name");
        }
        if (interfaceName.length() > MAX_INTERFACE_NAME_LENGTH)
        {
            throw new IllegalArgumentException("'" + interfaceName + "' is " + interfaceName.length() +
                " characters long; Linux interface names have at most " + MAX_INTERFACE_NAME_LENGTH);
        }
        if (".".equals(interfaceName) || "..".equals(interfaceName))
        {
            throw new IllegalArgumentException("'" + interfaceName + "' is not an interface name");
        }
        for (int i = 0; i < interfaceName.length(); i++)
        {
            final char c = interfaceName.charAt(i);
            if (c <= ' ' || c > '~' || '/' == c || ':' == c)
            {
                throw new IllegalArgumentException("'" + interfaceName +
                    "' is not an interface name: it may not hold spaces, '/', ':' or non-ASCII characters");
            }
        }
        return interfaceName;
    }

    /**
     * Re-throw a rule's complaint about a value with the name of the field it belongs to.
     *
     * @param field what the value is, such as {@code host name}.
     * @param ex    the complaint, whose message starts with the quoted value.
     * @return an exception to throw.
     */
    static IllegalArgumentException about(final String field, final IllegalArgumentException ex)
    {
        return new IllegalArgumentException(field + " " + ex.getMessage(), ex);
    }
}
