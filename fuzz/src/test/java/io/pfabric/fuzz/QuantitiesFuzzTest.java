package io.pfabric.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;

import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line's size, duration and rate parsers on any text: a value that is not negative, or an
 * IllegalArgumentException whose message quotes the text; a rate formatted and parsed again is the same rate.
 */
class QuantitiesFuzzTest
{
    @FuzzTest
    void aSizeParsesOrIsRefused(@NotNull final String text)
    {
        check(text, Quantities::parseBytes);
    }

    @FuzzTest
    void aDurationParsesOrIsRefused(@NotNull final String text)
    {
        check(text, Quantities::parseNanos);
    }

    @FuzzTest
    void aRateParsesOrIsRefusedAndFormatsBackToItself(@NotNull final String text)
    {
        final long rateBitsPerSec = check(text, Rates::parseBitsPerSec);
        if (rateBitsPerSec >= 0)
        {
            assertEquals(rateBitsPerSec, Rates.parseBitsPerSec(Rates.format(rateBitsPerSec)), Rates.format(rateBitsPerSec));
        }
    }

    private static long check(final String text, final ToLongFunction<String> parser)
    {
        try
        {
            final long value = parser.applyAsLong(text);
            assertTrue(value >= 0, () -> "'" + text + "' parsed to " + value);
            return value;
        }
        catch (final IllegalArgumentException ex)
        {
            assertTrue(null != ex.getMessage() && ex.getMessage().contains(text.strip()), ex.getMessage());
            return -1;
        }
    }
}
