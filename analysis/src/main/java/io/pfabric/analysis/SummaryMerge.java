package io.pfabric.analysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One table and one plot from the summaries of several sweeps of the same trace, each sweep giving some of the
 * schemes: the way a figure is assembled when its schemes were run at different times (a new baseline, a scheme
 * added later) on the same workload, flows per load and seed.
 */
public final class SummaryMerge
{
    private SummaryMerge()
    {
    }

    /**
     * Where some of a figure's schemes come from.
     *
     * @param summary a {@code summary.csv}.
     * @param schemes the schemes to take from it; empty for all of them.
     */
    public record Source(Path summary, Set<String> schemes)
    {
        /**
         * Parse {@code FILE} or {@code FILE:SCHEME,SCHEME...}.
         *
         * @param text as given.
         * @return the source.
         */
        public static Source parse(final String text)
        {
            final int colon = text.lastIndexOf(':');
            if (colon <= 0 || text.indexOf('/', colon) >= 0)
            {
                return new Source(Path.of(text), Set.of());
            }
            final String schemes = text.substring(colon + 1).trim();
            if (schemes.isEmpty())
            {
                throw new IllegalArgumentException("no schemes after ':' in '" + text + "'");
            }
            return new Source(Path.of(text.substring(0, colon)), Set.of(schemes.split(",")));
        }
    }

    /**
     * The lines of every source's chosen schemes, in the order of the sources, then of each file.
     *
     * @param sources where each scheme comes from.
     * @return the merged table.
     * @throws IOException              if a summary cannot be read.
     * @throws IllegalArgumentException if a chosen scheme is missing from its file, or two sources give one scheme.
     */
    public static List<ResultsTable.Line> merge(final List<Source> sources) throws IOException
    {
        final Map<String, Path> origin = new LinkedHashMap<>();
        final List<ResultsTable.Line> merged = new ArrayList<>();
        for (final Source source : sources)
        {
            final List<ResultsTable.Line> lines = ResultsTable.readCsv(source.summary());
            for (final String scheme : source.schemes())
            {
                if (lines.stream().noneMatch(line -> line.scheme().equals(scheme)))
                {
                    throw new IllegalArgumentException(source.summary() + " has no scheme '" + scheme + "'");
                }
            }
            final Map<String, Path> fromHere = new LinkedHashMap<>();
            for (final ResultsTable.Line line : lines)
            {
                if (source.schemes().isEmpty() || source.schemes().contains(line.scheme()))
                {
                    final Path earlier = origin.get(line.scheme());
                    if (null != earlier)
                    {
                        throw new IllegalArgumentException("scheme '" + line.scheme() + "' is in both " + earlier +
                            " and " + source.summary() + ": choose one with FILE:SCHEMES");
                    }
                    fromHere.put(line.scheme(), source.summary());
                    merged.add(line);
                }
            }
            origin.putAll(fromHere);
        }
        return merged;
    }
}
