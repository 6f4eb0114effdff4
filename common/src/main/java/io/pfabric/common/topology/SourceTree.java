package io.pfabric.common.topology;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document read into mappings, lists and scalars that remember the line and column they start at, which
 * Jackson's own tree forgets. Scalars keep their text exactly as written, so {@code 02:00:00:00:00:01} or
 * {@code 10_000} reach the topology rules unchanged whatever YAML would make of them.
 */
final class SourceTree
{
    private static final YAMLFactory YAML = new YAMLFactory();

    /**
     * Any value of the document.
     */
    sealed interface Node permits MapNode, ListNode, ScalarNode
    {
        /**
         * Line where the value starts.
         *
         * @return 1-based line.
         */
        int line();

        /**
         * Column where the value starts.
         *
         * @return 1-based column.
         */
        int column();
    }

    /**
     * A key of a mapping with its value.
     *
     * @param key    the key.
     * @param line   1-based line of the key.
     * @param column 1-based column of the key.
     * @param value  the value.
     */
    record Entry(String key, int line, int column, Node value)
    {
    }

    /**
     * A mapping, keys in document order.
     *
     * @param line    1-based line of its first key.
     * @param column  1-based column of its first key.
     * @param entries by key.
     */
    record MapNode(int line, int column, Map<String, Entry> entries) implements Node
    {
        /**
         * The value of a key.
         *
         * @param key to look up.
         * @return the value, or null if the key is absent.
         */
        Node value(final String key)
        {
            final Entry entry = entries.get(key);
            return null == entry ? null : entry.value();
        }
    }

    /**
     * A list.
     *
     * @param line   1-based line where it starts.
     * @param column 1-based column where it starts.
     * @param items  in document order.
     */
    record ListNode(int line, int column, List<Node> items) implements Node
    {
    }

    /**
     * A single value.
     *
     * @param line   1-based line.
     * @param column 1-based column.
     * @param text   as written, or null for a YAML null (an empty value, {@code ~} or {@code null}).
     */
    record ScalarNode(int line, int column, String text) implements Node
    {
    }

    private final String source;
    private final YAMLParser parser;

    private SourceTree(final String source, final YAMLParser parser)
    {
        this.source = source;
        this.parser = parser;
    }

    /**
     * Read a document.
     *
     * @param source name of the file, for messages.
     * @param reader of the text.
     * @return the document's root, or null if the document is empty.
     * @throws TopologyException if the text cannot be read or is not YAML.
     */
    static Node read(final String source, final Reader reader)
    {
        try (YAMLParser parser = YAML.createParser(reader))
        {
            final SourceTree tree = new SourceTree(source, parser);
            final JsonToken first = parser.nextToken();
            if (null == first)
            {
                return null;
            }
            final Node root = tree.node(first);
            if (null != parser.nextToken())
            {
                throw tree.error("a second YAML document starts here; a topology file holds one document");
            }
            return root;
        }
        catch (final JsonProcessingException ex)
        {
            throw syntaxError(source, ex);
        }
        catch (final IOException ex)
        {
            throw new TopologyException(source, "cannot read: " + ex, ex);
        }
    }

    private Node node(final JsonToken token) throws IOException
    {
        final JsonLocation location = parser.currentTokenLocation();
        final int line = location.getLineNr();
        final int column = location.getColumnNr();
        if (parser.isCurrentAlias())
        {
            throw error("YAML aliases (*name) are not supported; write the value out");
        }
        return switch (token)
        {
            case START_OBJECT -> mapping(line, column);
            case START_ARRAY -> list(line, column);
            case VALUE_NULL -> new ScalarNode(line, column, null);
            default -> new ScalarNode(line, column, parser.getText());
        };
    }

    private MapNode mapping(final int line, final int column) throws IOException
    {
        final Map<String, Entry> entries = new LinkedHashMap<>();
        for (JsonToken token = parser.nextToken(); JsonToken.END_OBJECT != token; token = parser.nextToken())
        {
            final String key = parser.currentName();
            final JsonLocation location = parser.currentTokenLocation();
            final Entry previous = entries.get(key);
            if (null != previous)
            {
                throw error("key '" + key + "' appears twice in one mapping (first at line " + previous.line() + ")");
            }
            final Node value = node(parser.nextToken());
            entries.put(key, new Entry(key, location.getLineNr(), location.getColumnNr(), value));
        }
        return new MapNode(line, column, entries);
    }

    private ListNode list(final int line, final int column) throws IOException
    {
        final List<Node> items = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); JsonToken.END_ARRAY != token; token = parser.nextToken())
        {
            items.add(node(token));
        }
        return new ListNode(line, column, items);
    }

    private TopologyException error(final String message)
    {
        final JsonLocation location = parser.currentTokenLocation();
        return new TopologyException(source, location.getLineNr(), location.getColumnNr(), message);
    }

    private static TopologyException syntaxError(final String source, final JsonProcessingException ex)
    {
        if (ex.getCause() instanceof MarkedYAMLException yaml && null != yaml.getProblemMark())
        {
            final Mark problem = yaml.getProblemMark();
            final Mark context = yaml.getContextMark();
            final String startsAt = null == context ? "" : " that starts at line " + (context.getLine() + 1);
            final String where = null == yaml.getContext() ? "" : " (" + yaml.getContext() + startsAt + ")";
            return new TopologyException(
                source, problem.getLine() + 1, problem.getColumn() + 1, "not valid YAML: " + yaml.getProblem() + where);
        }
        final JsonLocation location = ex.getLocation();
        final String message = String.valueOf(ex.getOriginalMessage()).lines().findFirst().orElse("");
        return null == location ?
            new TopologyException(source, 0, 0, "not valid YAML: " + message) :
            new TopologyException(source, location.getLineNr(), location.getColumnNr(), "not valid YAML: " + message);
    }
}
