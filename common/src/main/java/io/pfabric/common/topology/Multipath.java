package io.pfabric.common.topology;

/**
 * How a switch spreads packets over the equal-cost ports toward a destination.
 */
public enum Multipath
{
    /**
     * Per-packet spraying: each packet takes the next of the equal-cost ports (pFabric's evaluation setting).
     */
    SPRAY("spray"),

    /**
     * Per-flow hashing: all packets of a flow take the same port.
     */
    ECMP("ecmp");

    private final String keyword;

    Multipath(final String keyword)
    {
        this.keyword = keyword;
    }

    /**
     * The word that names this mode in a topology file.
     *
     * @return {@code spray} or {@code ecmp}.
     */
    public String keyword()
    {
        return keyword;
    }

    /**
     * The mode a topology file names.
     *
     * @param keyword {@code spray} or {@code ecmp}.
     * @return the mode.
     * @throws IllegalArgumentException if the word names no mode.
     */
    public static Multipath parse(final String keyword)
    {
        for (final Multipath multipath : values())
        {
            if (multipath.keyword.equals(keyword))
            {
                return multipath;
            }
        }
        throw new IllegalArgumentException("'" + keyword + "' is not a multipath mode: use spray or ecmp");
    }
}
