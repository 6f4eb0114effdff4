package io.pfabric.common.topology;

import java.util.Objects;

/**
 * A link between two switch ports, written {@code [s1:p3, s2:p3]} in a topology file.
 *
 * @param a one end.
 * @param b the other end.
 */
public record LinkSpec(PortRef a, PortRef b)
{
    /**
     * Check both ends are given.
     *
     * @param a one end.
     * @param b the other end.
     */
    public LinkSpec
    {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
    }

    /**
     * The text form.
     *
     * @return such as {@code s1:p3 - s2:p3}.
     */
    public String toString()
    {
        return a + " - " + b;
    }
}
