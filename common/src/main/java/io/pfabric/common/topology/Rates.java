package io.pfabric.common.topology;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Line rates as text: bits per second with an optional decimal suffix {@code k}, {@code m} or {@code g}
 * (10<sup>3</sup>, 10<sup>6</sup>, 10<sup>9</sup>), such as {@code 100m}, {@code 1g}, {@code 2.5g} or
 * {@code 10000000}. Shared by the topology file and command lines ({@code --rate 1g}).
 */
public final class Rates
{
    private static final Pattern RATE = Pattern.compile("([0-9]{1,30}(?:\\.[0-9]{1,30})?)([kKmMgG]?)");
    private static final long GIGA = 1_000_000_000L;
    private static final long MEGA = 1_000_000L;
    private static final long KILO = 1_000L;

    private Rates()
    {
    }

    /**
     * Parse a rate.
     *
     * @param text such as {@code 1g}, {@code 100m}, {@code 2.5g} or {@code 10000000}; {@code 0} means unpaced.
     * @return the rate in bits per second.
     * @throws IllegalArgumentException naming the text if it is not a non-negative whole number of bits per second.
     */
    public static long parseBitsPerSec(final String text)
    {
        Objects.requireNonNull(text, "text");
        final Matcher matcher = RATE.matcher(text);
        if (!matcher.matches())
        {
            if (text.startsWith("-"))
            {
                throw new IllegalArgumentException("'" + text + "' is negative; a rate is 0 (unpaced) or more");
            }
            throw new IllegalArgumentException("'" + text +
                "' is not a rate like 100m, 1g or 2.5g (bits per second; suffix k, m or g for 10^3, 10^6, 10^9)");
        }
        final BigDecimal bitsPerSec = new BigDecimal(matcher.group(1)).movePointRight(exponent(matcher.group(2)));
        if (bitsPerSec.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0)
        {
            throw new IllegalArgumentException("'" + text + "' is too large a rate");
        }
        try
        {
            return bitsPerSec.longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bits per second", ex);
        }
    }

    /**
     * The one rule for a rate option: {@link #parseBitsPerSec} with the option named in the error, and 0 (unpaced)
     * only where the command can run unpaced.
     *
     * @param option         the option, named in the error.
     * @param text           its value.
     * @param unpacedAllowed whether 0 means unpaced here; otherwise a rate must be positive.
     * @return bits per second.
     * @throws IllegalArgumentException naming the option.
     */
    public static long parseOption(final String option, final String text, final boolean unpacedAllowed)
    {
        final long bitsPerSec;
        try
        {
            bitsPerSec = parseBitsPerSec(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option + ": " + ex.getMessage(), ex);
        }
        if (0 == bitsPerSec && !unpacedAllowed)
        {
            throw new IllegalArgumentException(option + " must be positive here (0, unpaced, is not a rate a " +
                "workload or a normalized FCT can be computed at)");
        }
        return bitsPerSec;
    }

    /**
     * Format a rate with the largest suffix that keeps it at least 1, so that {@link #parseBitsPerSec} reads it back.
     *
     * @param bitsPerSec non-negative rate.
     * @return such as {@code 10g}, {@code 2.5g}, {@code 100m} or {@code 0}.
     */
    public static String format(final long bitsPerSec)
    {
        if (bitsPerSec < 0)
        {
            throw new IllegalArgumentException("rate " + bitsPerSec + " is negative");
        }
        if (bitsPerSec >= GIGA)
        {
            return scaled(bitsPerSec, 9) + "g";
        }
        if (bitsPerSec >= MEGA)
        {
            return scaled(bitsPerSec, 6) + "m";
        }
        if (bitsPerSec >= KILO)
        {
            return scaled(bitsPerSec, 3) + "k";
        }
        return Long.toString(bitsPerSec);
    }

    private static String scaled(final long bitsPerSec, final int exponent)
    {
        return BigDecimal.valueOf(bitsPerSec, exponent).stripTrailingZeros().toPlainString();
    }

    private static int exponent(final String suffix)
    {
        return switch (suffix)
        {
            case "k", "K" -> 3;
            case "m", "M" -> 6;
            case "g", "G" -> 9;
            default -> 0;
        };
    }
}
