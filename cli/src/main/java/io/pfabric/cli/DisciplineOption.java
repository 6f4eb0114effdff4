package io.pfabric.cli;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.dataplane.queue.DisciplineKind;

/**
 * Reads a {@code NAME[:PARAMS]} discipline option, naming the option in the error.
 */
final class DisciplineOption
{
    private DisciplineOption()
    {
    }

    /**
     * Check a discipline given on the command line.
     *
     * @param option the option's name, such as {@code --discipline}.
     * @param text   the value given.
     * @return the discipline.
     * @throws IllegalArgumentException in one line, naming the option.
     */
    static DisciplineSpec check(final String option, final String text)
    {
        try
        {
            final DisciplineSpec spec = DisciplineSpec.parse(text);
            DisciplineKind.byName(spec.name());
            return spec;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option + ": " + ex.getMessage());
        }
    }

    /**
     * Check a discipline for switches that run without a workload: a {@code strict} one must give its thresholds.
     *
     * @param option the option's name, such as {@code --discipline}.
     * @param text   the value given.
     * @return the discipline.
     * @throws IllegalArgumentException in one line, naming the option.
     */
    static DisciplineSpec checkGiven(final String option, final String text)
    {
        final DisciplineSpec spec = check(option, text);
        if (spec.needsWorkload())
        {
            throw new IllegalArgumentException(option + ": '" + text + "' takes its thresholds from a run's " +
                "workload and load, which a switch does not know: give them, as strict:" + spec.queueCount() +
                ":T1,T2,... ('pfabric thresholds' prints the model's)");
        }
        return spec;
    }
}
