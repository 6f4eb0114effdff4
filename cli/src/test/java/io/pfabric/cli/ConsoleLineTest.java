package io.pfabric.cli;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A line reaches the stream beneath in one write, where {@code printf} hands it over in pieces.
 */
class ConsoleLineTest
{
    private static final class Writes extends OutputStream
    {
        final List<String> writes = new ArrayList<>();

        public void write(final int b)
        {
            writes.add(String.valueOf((char)b));
        }

        public void write(final byte[] b, final int off, final int len)
        {
            writes.add(new String(b, off, len, StandardCharsets.UTF_8));
        }
    }

    @Test
    void aLineIsOneWriteWhereAPrintfIsSeveral()
    {
        final Writes writes = new Writes();
        final PrintStream out = new PrintStream(writes, true, StandardCharsets.UTF_8);
        out.printf("sent %,d bytes to %s%n", 1_000_000, "h2");
        final int printfWrites = writes.writes.size();
        writes.writes.clear();
        ConsoleLine.print(out, String.format("sent %,d bytes to %s%n", 1_000_000, "h2"));
        assertEquals(List.of("sent 1,000,000 bytes to h2" + System.lineSeparator()), writes.writes);
        assertEquals(true, printfWrites > 1, "printf wrote in " + printfWrites + " pieces");
    }
}
