package io.pfabric.cli;

import java.util.Locale;

/**
 * The {@code --format} option of the benchmarks: a table for people, or CSV for scripts.
 */
public final class OutputFormats
{
    private OutputFormats()
    {
    }

    /**
     * Whether the option asks for CSV.
     *
     * @param format the option's value, {@code table} or {@code csv} in any case.
     * @return true for csv.
     * @throws IllegalArgumentException for anything else.
     */
    public static boolean isCsv(final String format)
    {
        return switch (format.toLowerCase(Locale.ROOT))
        {
            case "csv" -> true;
            case "table" -> false;
            default -> throw new IllegalArgumentException("--format must be table or csv, not '" + format + "'");
        };
    }
}
