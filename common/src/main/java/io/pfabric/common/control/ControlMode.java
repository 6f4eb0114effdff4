package io.pfabric.common.control;

import java.util.Locale;

/**
 * How a controller steers its hosts: SYN grants timeslots and paths, ASY grants rates.
 */
public enum ControlMode
{
    /**
     * Fastpass-style: hosts report cumulative demand in slots and send one packet per granted slot, on the granted
     * spine.
     */
    SYN,

    /**
     * Central rates: hosts report offered rates and send through per-destination leaky buckets at the granted rates,
     * ECMP by flow.
     */
    ASY;

    /**
     * The mode of a command-line name.
     *
     * @param name {@code syn} or {@code asy}, any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the choices.
     */
    public static ControlMode named(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "syn" -> SYN;
            case "asy" -> ASY;
            default -> throw new IllegalArgumentException("control mode must be syn or asy, not '" + name + "'");
        };
    }
}
