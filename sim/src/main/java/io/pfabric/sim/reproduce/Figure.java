package io.pfabric.sim.reproduce;

import org.knowm.xchart.XYChart;

import java.util.List;

/**
 * One figure of the paper in a reproduction: the points it needs, what the paper says of it, and how its section
 * and its verdict follow from the points' results. A figure with no points is one the project cannot run yet; the
 * report lists it as not run, saying why.
 *
 * @param id     as {@code --only} takes it, such as {@code 7} or {@code 5a}.
 * @param title  what it plots.
 * @param claim  the paper's claim for it, in one sentence; "as recalled" where the wording is not checked.
 * @param rule   how the verdict follows from the numbers.
 * @param points the points it needs; empty if not available.
 * @param judge  builds the section from the results; null if not available.
 * @param notRun why it is not available, or null.
 */
public record Figure(String id, String title, String claim, String rule, List<Point> points, Judge judge,
    String notRun)
{
    /**
     * Copies the points.
     */
    public Figure
    {
        points = List.copyOf(points);
    }

    /**
     * A figure the project cannot run yet.
     *
     * @param id     its name.
     * @param title  what it plots.
     * @param claim  the paper's claim.
     * @param reason why not, and what would run it.
     * @return the entry.
     */
    public static Figure notAvailable(final String id, final String title, final String claim, final String reason)
    {
        return new Figure(id, title, claim, "", List.of(), null, reason);
    }

    /**
     * Whether the project can run it.
     *
     * @return true if it has points.
     */
    public boolean available()
    {
        return null == notRun;
    }

    /**
     * What a figure's section shows, built from its points' results.
     *
     * @param header  the table's column names.
     * @param rows    the table's rows, already formatted; also the figure's CSV.
     * @param charts  the plot's panels.
     * @param columns panels per row.
     * @param agrees  the verdict the rule gives.
     * @param finding the numbers that decided it, in one or two sentences.
     */
    public record Section(List<String> header, List<List<String>> rows, List<XYChart> charts, int columns,
        boolean agrees, String finding)
    {
    }

    /**
     * Builds a figure's section from its results.
     */
    @FunctionalInterface
    public interface Judge
    {
        /**
         * Build the section.
         *
         * @param results every done point's lines by point name, header first; the figure's own are all there.
         * @return the section.
         */
        Section judge(Results results);
    }

    /**
     * The done points' results.
     *
     * @param byId lines by point name, header first.
     */
    public record Results(java.util.Map<String, List<String>> byId)
    {
        /**
         * A value of an FCT point: the column of the line of a bin.
         *
         * @param id     the point.
         * @param bin    small, medium, large or all.
         * @param column count, incomplete, mean, p50 or p99.
         * @return the value, NaN if the bin is absent.
         */
        public double fct(final String id, final String bin, final String column)
        {
            return value(id, 0, bin, column);
        }

        /**
         * A value of a point from the line whose column {@code keyColumn} equals {@code key}.
         *
         * @param id        the point.
         * @param keyColumn the index of the key column.
         * @param key       its value.
         * @param column    the name of the column wanted.
         * @return the value, NaN if there is no such line.
         */
        public double value(final String id, final int keyColumn, final String key, final String column)
        {
            final List<String> lines = byId.get(id);
            if (null == lines)
            {
                throw new IllegalStateException("no result for " + id);
            }
            final int index = List.of(lines.get(0).split(",")).indexOf(column);
            for (final String line : lines.subList(1, lines.size()))
            {
                final String[] fields = line.split(",", -1);
                if (key.equals(fields[keyColumn]))
                {
                    return Double.parseDouble(fields[index]);
                }
            }
            return Double.NaN;
        }

        /**
         * A point's data lines, split into fields.
         *
         * @param id the point.
         * @return the lines after the header.
         */
        public List<String[]> lines(final String id)
        {
            final List<String> lines = byId.get(id);
            if (null == lines)
            {
                throw new IllegalStateException("no result for " + id);
            }
            return lines.subList(1, lines.size()).stream().map(line -> line.split(",", -1)).toList();
        }
    }
}
