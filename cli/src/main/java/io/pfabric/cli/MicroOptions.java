package io.pfabric.cli;

import io.pfabric.common.config.Quantities;

/**
 * Checks the micro-experiments' commands share: what of {@code pfabric sim}'s options they do not take, and sizes and
 * durations named by their option when they do not parse.
 */
final class MicroOptions
{
    private MicroOptions()
    {
    }

    /**
     * Refuse the options that make a mix or add deadlines, and require {@code --out}.
     *
     * @param options the simulator's options.
     * @param command the command, for the message.
     */
    static void requireSingleWorkload(final SimOptions options, final String command)
    {
        if (null == options.out)
        {
            throw new IllegalArgumentException("give --out DIR");
        }
        if (options.isMix())
        {
            throw new IllegalArgumentException("--app: " + command + " runs one --workload");
        }
        if (!options.deadlines.isEmpty())
        {
            throw new IllegalArgumentException("--deadlines: " + command + " has no deadlines");
        }
    }

    /**
     * A size such as 20MB.
     *
     * @param option the option.
     * @param text   its value.
     * @return bytes, positive.
     */
    static long bytes(final String option, final String text)
    {
        final long bytes;
        try
        {
            bytes = Quantities.parseBytes(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option + " takes sizes such as 100KB or 20MB, not '" + text + "'", ex);
        }
        if (bytes <= 0)
        {
            throw new IllegalArgumentException(option + " must be positive, not '" + text + "'");
        }
        return bytes;
    }

    /**
     * A duration such as 45us.
     *
     * @param option the option.
     * @param text   its value.
     * @return nanoseconds, positive.
     */
    static long nanos(final String option, final String text)
    {
        final long nanos;
        try
        {
            nanos = Quantities.parseNanos(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option + " takes durations such as 45us or 10ms, not '" + text + "'",
                ex);
        }
        if (nanos <= 0)
        {
            throw new IllegalArgumentException(option + " must be positive, not '" + text + "'");
        }
        return nanos;
    }
}
