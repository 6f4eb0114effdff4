package io.pfabric.sim.reproduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the points of a reproduction keep their results, and how a result is written so that it is either whole or
 * absent: the lines go to a temporary file in the same directory, which is then renamed onto the result's name. A
 * whole result ends with {@link #END}; a file without it (a copy cut short, a disk that filled) is truncated, is
 * never counted, and its point runs again.
 */
public final class Points
{
    /**
     * The last line of every whole result.
     */
    public static final String END = "# end";

    private Points()
    {
    }

    /**
     * A point's state in a directory.
     */
    public enum State
    {
        /**
         * No result.
         */
        MISSING,
        /**
         * A result without its end line.
         */
        TRUNCATED,
        /**
         * A whole result.
         */
        DONE
    }

    /**
     * The file of a point's result.
     *
     * @param dir the reproduction's directory.
     * @param id  the point.
     * @return {@code dir/points/ID.csv}, the slashes of the name as {@code _}.
     */
    public static Path resultFile(final Path dir, final String id)
    {
        return dir.resolve("points").resolve(id.replace('/', '_') + ".csv");
    }

    /**
     * The file of a point's timing: wall and CPU seconds and the load average when it ended; apart from the result,
     * which must be the same wherever and whenever it ran.
     *
     * @param dir the reproduction's directory.
     * @param id  the point.
     * @return {@code dir/points/ID.time}.
     */
    public static Path timeFile(final Path dir, final String id)
    {
        return dir.resolve("points").resolve(id.replace('/', '_') + ".time");
    }

    /**
     * A point's state.
     *
     * @param dir the reproduction's directory.
     * @param id  the point.
     * @return done, truncated or missing.
     * @throws IOException if the file exists and cannot be read.
     */
    public static State state(final Path dir, final String id) throws IOException
    {
        final Path file = resultFile(dir, id);
        if (!Files.exists(file))
        {
            return State.MISSING;
        }
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final String content = Files.readString(file, StandardCharsets.UTF_8);
        return lines.size() >= 2 && END.equals(lines.get(lines.size() - 1)) && content.endsWith("\n") ?
            State.DONE : State.TRUNCATED;
    }

    /**
     * A done point's lines, header first, without the end line.
     *
     * @param dir the reproduction's directory.
     * @param id  the point.
     * @return the lines, or null if the point is not done.
     * @throws IOException if the file cannot be read.
     */
    public static List<String> read(final Path dir, final String id) throws IOException
    {
        if (State.DONE != state(dir, id))
        {
            return null;
        }
        final List<String> lines = Files.readAllLines(resultFile(dir, id), StandardCharsets.UTF_8);
        return new ArrayList<>(lines.subList(0, lines.size() - 1));
    }

    /**
     * Write a text file whole or not at all: into a temporary file beside it, then renamed onto it.
     *
     * @param file    where.
     * @param content what.
     * @throws IOException if it cannot be written.
     */
    public static void writeAtomically(final Path file, final String content) throws IOException
    {
        Files.createDirectories(file.getParent());
        final Path temp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
        try
        {
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            if (temp.getFileSystem().supportedFileAttributeViews().contains("posix"))
            {
                Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        finally
        {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Write a point's result atomically, with its end line.
     *
     * @param dir   the reproduction's directory.
     * @param id    the point.
     * @param lines header and data lines.
     * @throws IOException if it cannot be written.
     */
    public static void write(final Path dir, final String id, final List<String> lines) throws IOException
    {
        writeAtomically(resultFile(dir, id), String.join("\n", lines) + "\n" + END + "\n");
    }

    /**
     * A load as points and tables name it.
     *
     * @param load such as 0.6.
     * @return such as {@code 0.6}; at most three decimals, no trailing zeros.
     */
    public static String loadLabel(final double load)
    {
        final String text = String.format(Locale.ROOT, "%.3f", load);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
