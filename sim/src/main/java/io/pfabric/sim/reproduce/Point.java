package io.pfabric.sim.reproduce;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * One independent job of a reproduction: a simulation of one scheme on one trace, or one curve of the model. Its
 * result is a few CSV lines, the same for the same scale and seed wherever it runs.
 */
public interface Point
{
    /**
     * The point's name, unique in a reproduction, made of lower-case words, digits, dots and slashes, such as
     * {@code fct/websearch/pfabric/0.6}.
     *
     * @return the name.
     */
    String id();

    /**
     * Run the point.
     *
     * @param work     an empty directory for its scratch files, removed afterwards.
     * @param progress where to report.
     * @return the result: a header line, then data lines, no line breaks inside.
     * @throws IOException if a scratch file cannot be written.
     */
    List<String> run(Path work, PrintStream progress) throws IOException;
}
