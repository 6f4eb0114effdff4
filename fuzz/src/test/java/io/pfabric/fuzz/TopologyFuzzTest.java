package io.pfabric.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyException;
import io.pfabric.common.topology.TopologyParser;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The topology parser on any text, as YAML and as JSON: it returns a topology with at least one host and one switch,
 * or throws a {@link TopologyException} that names the source; nothing else escapes (no YAML or JSON library
 * exception, no stack overflow on deep nesting, no runaway alias expansion).
 */
class TopologyFuzzTest
{
    @FuzzTest
    void yamlParsesOrIsRefusedWithItsSource(@NotNull final String text)
    {
        parse("fuzzed.yaml", text);
    }

    @FuzzTest
    void jsonParsesOrIsRefusedWithItsSource(@NotNull final String text)
    {
        parse("fuzzed.json", text);
    }

    private static void parse(final String source, final String text)
    {
        try
        {
            final Topology topology = TopologyParser.parse(source, new StringReader(text));
            assertNotNull(topology);
            assertFalse(topology.hosts().isEmpty());
        }
        catch (final TopologyException ex)
        {
            assertTrue(ex.getMessage().startsWith(source), ex.getMessage());
        }
    }
}
