package io.pfabric.bench.forwarding;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A value of one of the benchmark's options, named by a label on the command line and in the results.
 */
interface Labelled
{
    /**
     * The name on the command line and in the results.
     *
     * @return the name.
     */
    String label();

    /**
     * The value of a label, whatever its case.
     *
     * @param values the option's values.
     * @param label  as given.
     * @param what   the option's noun, for the error.
     * @param <E>    the option's type.
     * @return the value.
     * @throws IllegalArgumentException naming the values there are, for another label.
     */
    static <E extends Labelled> E byLabel(final E[] values, final String label, final String what)
    {
        final String name = label.toLowerCase(Locale.ROOT);
        for (final E value : values)
        {
            if (value.label().equals(name))
            {
                return value;
            }
        }
        final String[] labels = Arrays.stream(values).map(Labelled::label).toArray(String[]::new);
        final String choices = 1 == labels.length ? labels[0] :
            Arrays.stream(labels, 0, labels.length - 1).collect(Collectors.joining(", ")) + " or " +
                labels[labels.length - 1];
        throw new IllegalArgumentException("unknown " + what + " '" + label + "'; use " + choices);
    }
}
