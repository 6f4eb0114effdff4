package io.pfabric.sim.reproduce;

import io.pfabric.analysis.ChartGrid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A reproduction's report: {@code report.md} and {@code report.html} (one page, its plots embedded as base64 PNG),
 * a front table of every figure's verdict and one section per figure, with each figure's table as
 * {@code figures/figID.csv} and its plot as {@code figures/figID.png}. Everything below the provenance block
 * follows from the points' results alone, so the same points give the same report wherever they ran.
 */
public final class Report
{
    /**
     * The line that opens the provenance block of {@code report.md}.
     */
    public static final String PROVENANCE_BEGIN = "<!-- provenance -->";

    /**
     * The line that closes it.
     */
    public static final String PROVENANCE_END = "<!-- /provenance -->";

    private static final int PANEL_WIDTH = 520;
    private static final int PANEL_HEIGHT = 380;

    private Report()
    {
    }

    /**
     * A figure's state in the report.
     *
     * @param figure  the figure.
     * @param done    its points done.
     * @param section its section if every point is done, else null.
     */
    public record Entry(Figure figure, int done, Figure.Section section)
    {
        /**
         * The verdict in the front table.
         *
         * @return agrees, differs, or not run (with the points done).
         */
        public String verdict()
        {
            if (null != section)
            {
                return section.agrees() ? "agrees" : "differs";
            }
            return figure.available() ? String.format(Locale.ROOT, "not run (%d of %d points done)", done,
                figure.points().size()) : "not run";
        }
    }

    /**
     * Write the report.
     *
     * @param dir        the reproduction's directory.
     * @param title      the report's title.
     * @param provenance facts of the run, such as the commit and the wall time, in order.
     * @param entries    the figures.
     * @throws IOException if a file cannot be written.
     */
    public static void write(final Path dir, final String title, final Map<String, String> provenance,
        final List<Entry> entries) throws IOException
    {
        final Path figures = dir.resolve("figures");
        Files.createDirectories(figures);
        final StringBuilder md = new StringBuilder();
        final StringBuilder html = new StringBuilder();
        md.append("# ").append(title).append("\n\n").append(PROVENANCE_BEGIN).append("\n\n| | |\n|---|---|\n");
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(escape(title))
            .append("</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:auto} table{border-collapse:" +
                "collapse} td,th{border:1px solid #bbb;padding:2px 6px;text-align:right} td:first-child{text-align:" +
                "left} .agrees{color:#060} .differs{color:#a00} img{max-width:100%}</style></head><body>\n<h1>")
            .append(escape(title)).append("</h1>\n<table>\n");
        for (final Map.Entry<String, String> fact : provenance.entrySet())
        {
            md.append("| ").append(fact.getKey()).append(" | ").append(cell(fact.getValue())).append(" |\n");
            html.append("<tr><th>").append(escape(fact.getKey())).append("</th><td style=\"text-align:left\">")
                .append(escape(fact.getValue())).append("</td></tr>\n");
        }
        md.append("\n").append(PROVENANCE_END).append("\n\n## Figures\n\n| figure | what it plots | verdict |\n" +
            "|---|---|---|\n");
        html.append("</table>\n<h2>Figures</h2>\n<table>\n<tr><th>figure</th><th>what it plots</th><th>verdict</th>" +
            "</tr>\n");
        for (final Entry entry : entries)
        {
            md.append("| [").append(entry.figure().id()).append("](#fig-").append(entry.figure().id()).append(") | ")
                .append(cell(entry.figure().title())).append(" | ").append(entry.verdict()).append(" |\n");
            html.append("<tr><td><a href=\"#fig-").append(entry.figure().id()).append("\">")
                .append(entry.figure().id()).append("</a></td><td style=\"text-align:left\">")
                .append(escape(entry.figure().title())).append("</td><td class=\"")
                .append(entry.verdict().split(" ")[0]).append("\">").append(escape(entry.verdict()))
                .append("</td></tr>\n");
        }
        html.append("</table>\n");
        for (final Entry entry : entries)
        {
            section(figures, entry, md, html);
        }
        html.append("</body></html>\n");
        Points.writeAtomically(dir.resolve("report.md"), md.toString());
        Points.writeAtomically(dir.resolve("report.html"), html.toString());
    }

    private static void section(final Path figures, final Entry entry, final StringBuilder md,
        final StringBuilder html) throws IOException
    {
        final Figure figure = entry.figure();
        final String name = "fig" + figure.id();
        md.append("\n<a id=\"fig-").append(figure.id()).append("\"></a>\n\n## Fig ").append(figure.id()).append(": ")
            .append(figure.title()).append("\n\n");
        html.append("<h2 id=\"fig-").append(figure.id()).append("\">Fig ").append(figure.id()).append(": ")
            .append(escape(figure.title())).append("</h2>\n");
        md.append("**The paper:** ").append(figure.claim()).append("\n\n");
        html.append("<p><b>The paper:</b> ").append(escape(figure.claim())).append("</p>\n");
        if (!figure.available())
        {
            md.append("**Not run:** ").append(figure.notRun()).append(".\n");
            html.append("<p><b>Not run:</b> ").append(escape(figure.notRun())).append(".</p>\n");
            return;
        }
        md.append("**Rule:** ").append(figure.rule()).append("\n\n");
        html.append("<p><b>Rule:</b> ").append(escape(figure.rule())).append("</p>\n");
        final Figure.Section section = entry.section();
        if (null == section)
        {
            md.append("**Not run:** ").append(entry.verdict()).append("; the section appears once every point is " +
                "done.\n");
            html.append("<p><b>Not run:</b> ").append(escape(entry.verdict())).append("</p>\n");
            return;
        }
        md.append("**Verdict: ").append(entry.verdict()).append(".** ").append(section.finding()).append("\n\n");
        html.append("<p><b class=\"").append(entry.verdict()).append("\">Verdict: ").append(entry.verdict())
            .append(".</b> ").append(escape(section.finding())).append("</p>\n");
        final Path png = figures.resolve(name + ".png");
        ChartGrid.write(section.charts(), section.columns(), PANEL_WIDTH, PANEL_HEIGHT, "Fig " + figure.id() +
            " (reproduced): " + figure.title(), png);
        md.append("![Fig ").append(figure.id()).append("](figures/").append(name).append(".png)\n\n");
        html.append("<img alt=\"Fig ").append(figure.id()).append("\" src=\"data:image/png;base64,")
            .append(Base64.getEncoder().encodeToString(Files.readAllBytes(png))).append("\">\n");
        final StringBuilder csv = new StringBuilder(String.join(",", section.header())).append('\n');
        md.append("| ").append(String.join(" | ", section.header())).append(" |\n|")
            .append("---|".repeat(section.header().size())).append('\n');
        html.append("<table>\n<tr>");
        for (final String column : section.header())
        {
            html.append("<th>").append(escape(column)).append("</th>");
        }
        html.append("</tr>\n");
        for (final List<String> row : section.rows())
        {
            csv.append(String.join(",", row.stream().map(Report::csvField).toList())).append('\n');
            md.append("| ").append(String.join(" | ", row.stream().map(Report::cell).toList())).append(" |\n");
            html.append("<tr>");
            for (final String value : row)
            {
                html.append("<td>").append(escape(value)).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
        md.append("\nThe table as CSV: [figures/").append(name).append(".csv](figures/").append(name)
            .append(".csv).\n");
        Points.writeAtomically(figures.resolve(name + ".csv"), csv.toString());
    }

    /**
     * The facts of a run in the order the report gives them.
     *
     * @param commit   the commit of the sources.
     * @param scale    the scale.
     * @param seed     the seed.
     * @param done     points done.
     * @param total    points planned.
     * @param wallTime how long it took, as text.
     * @return the facts.
     */
    public static Map<String, String> provenance(final String commit, final Scale scale, final long seed,
        final int done, final int total, final String wallTime)
    {
        final Map<String, String> facts = new LinkedHashMap<>();
        facts.put("commit", commit);
        facts.put("JDK", Provenance.jdk());
        facts.put("machine", Provenance.machine());
        facts.put("load average when written", Provenance.loadAverage());
        facts.put("scale", scale.name() + ": " + scale.description());
        facts.put("seed", Long.toString(seed));
        facts.put("points done", done + " of " + total);
        facts.put("wall time", wallTime);
        return facts;
    }

    /**
     * The lines of {@code report.md} outside its provenance block: what must be the same for the same points.
     *
     * @param report the text of a report.md.
     * @return the text without the block.
     */
    public static String withoutProvenance(final String report)
    {
        final int begin = report.indexOf(PROVENANCE_BEGIN);
        final int end = report.indexOf(PROVENANCE_END);
        return begin < 0 || end < begin ? report : report.substring(0, begin) +
            report.substring(end + PROVENANCE_END.length());
    }

    private static String cell(final String text)
    {
        return text.replace("|", "\\|");
    }

    private static String csvField(final String text)
    {
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private static String escape(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
