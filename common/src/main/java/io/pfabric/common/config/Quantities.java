package io.pfabric.common.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations and sizes as people write them on a command line: {@code 100us}, {@code 2.5ms}, {@code 30s},
 * {@code 1MB}, {@code 64KiB}, {@code 1500}.
 */
public final class Quantities
{
    private static final Pattern QUANTITY = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Zµ]*)");

    private Quantities()
    {
    }

    /**
     * A duration.
     *
     * @param text a number with a unit: ns, us (or µs), ms, s, m (minutes) or h.
     * @return nanoseconds.
     * @throws IllegalArgumentException if the text is not a duration.
     */
    public static long parseNanos(final String text)
    {
        final Matcher matcher = match(text, "duration such as 100us, 2ms or 30s");
        final double value = Double.parseDouble(matcher.group(1));
        final double nanosPerUnit = switch (matcher.group(2).toLowerCase(Locale.ROOT))
        {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m", "min" -> 60e9;
            case "h" -> 3600e9;
            default -> throw new IllegalArgumentException(
                "'" + text + "' has no time unit; write e.g. 100us, 2ms or 30s");
        };
        return checkedRound(value * nanosPerUnit, text);
    }

    /**
     * A size.
     *
     * @param text a number, optionally with B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of 1024).
     * @return bytes.
     * @throws IllegalArgumentException if the text is not a size.
     */
    public static long parseBytes(final String text)
    {
        final Matcher matcher = match(text, "size such as 1500, 100KB or 1MiB");
        final double value = Double.parseDouble(matcher.group(1));
        final double bytesPerUnit = switch (matcher.group(2).toLowerCase(Locale.ROOT))
        {
            case "", "b" -> 1;
            case "kb", "k" -> 1e3;
            case "mb", "m" -> 1e6;
            case "gb", "g" -> 1e9;
            case "kib" -> 1024;
            case "mib" -> 1024.0 * 1024;
            case "gib" -> 1024.0 * 1024 * 1024;
            default -> throw new IllegalArgumentException("'" + text + "' has an unknown size unit; use B, KB, MB, " +
                "GB, KiB, MiB or GiB");
        };
        return checkedRound(value * bytesPerUnit, text);
    }

    private static Matcher match(final String text, final String what)
    {
        final Matcher matcher = QUANTITY.matcher(null == text ? "" : text.trim());
        if (!matcher.matches())
        {
            throw new IllegalArgumentException("'" + text + "' is not a " + what);
        }
        return matcher;
    }

    private static long checkedRound(final double value, final String text)
    {
        if (value > Long.MAX_VALUE / 2.0)
        {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        return Math.round(value);
    }

    /**
     * The one rule for an offered load, wherever a command takes one: a fraction of the access link's rate, above 0
     * and below 1 (at 1 the queues of a Poisson workload never drain).
     *
     * @param option the option, named in the error.
     * @param load   its value.
     * @return the load.
     * @throws IllegalArgumentException naming the option if the load is not above 0 and below 1.
     */
    public static double requireLoad(final String option, final double load)
    {
        if (!(load > 0 && load < 1))
        {
            throw new IllegalArgumentException(option + " must be above 0 and below 1 (a fraction of the link rate), " +
                "not " + load);
        }
        return load;
    }
}
