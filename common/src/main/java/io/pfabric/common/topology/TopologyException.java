package io.pfabric.common.topology;

/**
 * A topology is not valid: the message names the file, the line and column where known, the element and what is
 * wrong, for example {@code topo.yaml:7:10: host 'h2': mac '02:00:zz' is not a MAC address like 02:00:00:00:00:01}.
 */
public final class TopologyException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    /**
     * A problem with no place in a file, as found in a topology built in code.
     *
     * @param message what is wrong.
     */
    public TopologyException(final String message)
    {
        super(message);
        line = 0;
        column = 0;
    }

    /**
     * A problem at a place in a file.
     *
     * @param source  name of the file.
     * @param line    1-based line, or 0 if unknown.
     * @param column  1-based column, or 0 if unknown.
     * @param message what is wrong.
     */
    public TopologyException(final String source, final int line, final int column, final String message)
    {
        super(place(source, line, column) + message);
        this.line = line;
        this.column = column;
    }

    /**
     * A problem with a whole file, such as one that cannot be read.
     *
     * @param source  name of the file.
     * @param message what is wrong.
     * @param cause   the underlying failure.
     */
    public TopologyException(final String source, final String message, final Throwable cause)
    {
        super(place(source, 0, 0) + message, cause);
        line = 0;
        column = 0;
    }

    /**
     * Line of the problem.
     *
     * @return the 1-based line, or 0 if unknown.
     */
    public int line()
    {
        return line;
    }

    /**
     * Column of the problem.
     *
     * @return the 1-based column, or 0 if unknown.
     */
    public int column()
    {
        return column;
    }

    private static String place(final String source, final int line, final int column)
    {
        if (0 == line)
        {
            return source + ": ";
        }
        return 0 == column ? source + ":" + line + ": " : source + ":" + line + ":" + column + ": ";
    }
}
