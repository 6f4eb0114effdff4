package io.pfabric.cli.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a systemd unit file a test needs: its {@code [Service]} settings, and its {@code ExecStart} command line
 * as systemd would run it for one instance of a template ({@code %i}, {@code %%}, {@code $VAR} and {@code ${VAR}} from
 * {@code Environment=}). Quoting is not supported; a unit that quotes is rejected rather than misread.
 */
final class SystemdUnit
{
    private final Path file;
    private final Map<String, String> service;
    private final Map<String, String> environment;

    private SystemdUnit(final Path file, final Map<String, String> service, final Map<String, String> environment)
    {
        this.file = file;
        this.service = service;
        this.environment = environment;
    }

    /**
     * Read a unit file.
     *
     * @param file the unit.
     * @return its settings.
     * @throws IOException if it cannot be read.
     */
    static SystemdUnit read(final Path file) throws IOException
    {
        final Map<String, String> service = new LinkedHashMap<>();
        final Map<String, String> environment = new HashMap<>();
        String section = "";
        final StringBuilder continued = new StringBuilder();
        for (final String raw : Files.readAllLines(file, StandardCharsets.UTF_8))
        {
            final String line = raw.strip();
            if (line.endsWith("\\"))
            {
                continued.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            final String whole = continued.append(line).toString();
            continued.setLength(0);
            if (whole.isEmpty() || whole.startsWith("#") || whole.startsWith(";"))
            {
                continue;
            }
            if (whole.startsWith("[") && whole.endsWith("]"))
            {
                section = whole;
                continue;
            }
            final int equals = whole.indexOf('=');
            if ("[Service]".equals(section) && equals > 0)
            {
                final String key = whole.substring(0, equals).strip();
                final String value = whole.substring(equals + 1).strip();
                if ("Environment".equals(key))
                {
                    final int inner = value.indexOf('=');
                    environment.put(value.substring(0, inner), value.substring(inner + 1));
                }
                else
                {
                    service.put(key, value);
                }
            }
        }
        return new SystemdUnit(file, service, environment);
    }

    /**
     * A {@code [Service]} setting (the last assignment), with {@code %i} replaced.
     *
     * @param key      the setting.
     * @param instance the template instance.
     * @return its value, or null if the unit does not set it.
     */
    String value(final String key, final String instance)
    {
        final String value = service.get(key);
        return null == value ? null : specifiers(value, instance);
    }

    /**
     * The {@code ExecStart} command line for one instance, split into words as systemd splits it.
     *
     * @param instance  the template instance ({@code %i}).
     * @param overrides environment variables that replace the unit's {@code Environment=} values.
     * @return the words.
     */
    List<String> execStart(final String instance, final Map<String, String> overrides)
    {
        final String line = service.get("ExecStart");
        if (null == line)
        {
            throw new IllegalStateException(file + " has no ExecStart");
        }
        if (line.contains("\"") || line.contains("'"))
        {
            throw new IllegalStateException(file + ": quoted ExecStart words are not supported by this test: " + line);
        }
        final Map<String, String> variables = new HashMap<>(environment);
        variables.putAll(overrides);
        final List<String> words = new ArrayList<>();
        for (final String word : line.split("\\s+"))
        {
            if (word.matches("\\$[A-Za-z_][A-Za-z0-9_]*"))
            {
                final String value = variables.getOrDefault(word.substring(1), "").strip();
                if (!value.isEmpty())
                {
                    words.addAll(List.of(value.split("\\s+")));
                }
            }
            else
            {
                String expanded = specifiers(word, instance);
                for (final Map.Entry<String, String> variable : variables.entrySet())
                {
                    expanded = expanded.replace("${" + variable.getKey() + "}", variable.getValue());
                }
                words.add(expanded);
            }
        }
        return words;
    }

    /**
     * The unit file.
     *
     * @return its path.
     */
    Path file()
    {
        return file;
    }

    private static String specifiers(final String text, final String instance)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if ('%' == c && i + 1 < text.length())
            {
                final char specifier = text.charAt(++i);
                switch (specifier)
                {
                    case 'i' -> out.append(instance);
                    case '%' -> out.append('%');
                    default -> throw new IllegalStateException("unsupported specifier %" + specifier + " in " + text);
                }
            }
            else
            {
                out.append(c);
            }
        }
        return out.toString();
    }
}
