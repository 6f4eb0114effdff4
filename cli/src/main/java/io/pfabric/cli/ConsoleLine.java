package io.pfabric.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A line of output written whole: one write of its bytes, so that commands printing to one terminal or file at once
 * (a {@code recv} in the background beside a {@code send}) never interleave inside each other's lines, as a
 * {@code printf}, written in pieces, can.
 */
final class ConsoleLine
{
    private ConsoleLine()
    {
    }

    /**
     * Write a line whole and flush it.
     *
     * @param out  where.
     * @param line the line, ending in a line separator.
     */
    static void print(final PrintStream out, final String line)
    {
        final byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
        out.flush();
    }
}
