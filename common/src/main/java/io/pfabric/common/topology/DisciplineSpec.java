package io.pfabric.common.topology;

import java.util.Arrays;
import java.util.Locale;

/**
 * A queue discipline as named on the command line and in topology files, {@code NAME[:PARAMS]}, checked but not yet
 * built (the switch and the simulator map it onto a queue class):
 * <ul>
 *     <li>{@code pfabric}, {@code droptail}, {@code ecn}, {@code pfabric-classes}: no parameters;</li>
 *     <li>{@code strict}: eight queues split at fixed remaining sizes (10 KB to 100 MB);</li>
 *     <li>{@code strict:N}, {@code strict:N:model}: N strict-priority queues, thresholds from the pFabric paper's
 *     §6.1 M/G/1 model for the run's workload and load; {@code strict:N:equal}: thresholds split equally over the
 *     workload's flow-size range; {@code strict:N:T1,T2,...}: the N - 1 thresholds given, in bytes, increasing;</li>
 *     <li>{@code sp-pifo[:N[:shared]]}: SP-PIFO over N queues (default 8), each holding an equal share of the buffer
 *     of its own (SP-PIFO's queues of ten packets each, with 120,000 bytes over eight), or with {@code shared} all of
 *     them taking from the whole buffer first come first served;</li>
 *     <li>{@code aifo[:k=K,w=W,s=S]}: AIFO's admission with headroom K in (0, 1), a window of W ranks sampled one
 *     arrival in S (defaults 0.1, 20, 15);</li>
 *     <li>{@code pias[:N[:K]]}: N strict-priority queues chosen by DSCP, ECN marking above K bytes per queue (defaults
 *     8 and 22,500).</li>
 * </ul>
 *
 * @param name        the discipline's name, such as {@code strict}.
 * @param queueCount  queues of {@code strict}, {@code sp-pifo} and {@code pias}, 1 to {@link #MAX_QUEUES}; 0 for the
 *                    other disciplines.
 * @param thresholds  how {@code strict} finds its thresholds; null for the other disciplines.
 * @param given       the thresholds of {@link Thresholds#GIVEN} (for bare {@code strict}, its fixed ones), in bytes;
 *                    empty otherwise.
 * @param headroom    AIFO's k.
 * @param windowRanks AIFO's W.
 * @param sampleEvery AIFO's S.
 * @param markingLength PIAS's per-queue ECN marking threshold, bytes.
 * @param sharedBuffer  whether the queues of {@code sp-pifo} share the whole buffer rather than split it equally.
 */
public record DisciplineSpec(
    String name,
    int queueCount,
    Thresholds thresholds,
    long[] given,
    double headroom,
    int windowRanks,
    int sampleEvery,
    long markingLength,
    boolean sharedBuffer)
{
    /** Most queues of a strict-priority discipline: a commodity switch port has eight. */
    public static final int MAX_QUEUES = 8;

    /** AIFO's headroom k in its pFabric experiment. */
    public static final double DEFAULT_AIFO_HEADROOM = 0.1;

    /** AIFO's window of ranks W in its pFabric experiment. */
    public static final int DEFAULT_AIFO_WINDOW_RANKS = 20;

    /** AIFO's sampling period S in its pFabric experiment: one arrival in S enters the window. */
    public static final int DEFAULT_AIFO_SAMPLE_EVERY = 15;

    /** PIAS's per-queue ECN marking threshold: DCTCP's K in the pFabric simulations, 22.5 KB. */
    public static final long DEFAULT_PIAS_MARKING_LENGTH = 22_500;

    /** The fixed thresholds of bare {@code strict}: 10 KB, 20 KB, 50 KB, 100 KB, 1 MB, 10 MB, 100 MB. */
    private static final long[] FIXED_THRESHOLDS =
        { 10_000, 20_000, 50_000, 100_000, 1_000_000, 10_000_000, 100_000_000 };

    /**
     * Where the thresholds of a {@code strict} discipline come from.
     */
    public enum Thresholds
    {
        /** The §6.1 M/G/1 model for the run's workload and load. */
        MODEL,
        /** An equal split of the workload's flow-size range. */
        EQUAL,
        /** Given in the name. */
        GIVEN
    }

    /**
     * Check and copy.
     */
    public DisciplineSpec
    {
        given = given.clone();
    }

    /**
     * Parse {@code NAME[:PARAMS]}.
     *
     * @param text the discipline as written.
     * @return the discipline.
     * @throws IllegalArgumentException in one line saying what is wrong.
     */
    public static DisciplineSpec parse(final String text)
    {
        if (null == text || text.isBlank())
        {
            throw new IllegalArgumentException("no discipline given");
        }
        final String lower = text.trim().toLowerCase(Locale.ROOT);
        final int colon = lower.indexOf(':');
        final String name = colon < 0 ? lower : lower.substring(0, colon);
        final String params = colon < 0 ? null : lower.substring(colon + 1);
        return switch (name)
        {
            case "pfabric", "droptail", "ecn", "pfabric-classes", "pfabric-edf" ->
            {
                if (null != params)
                {
                    throw new IllegalArgumentException("'" + name + "' takes no parameters, got '" + text + "'");
                }
                yield plain(name);
            }
            case "strict" -> strict(text, params);
            case "sp-pifo" -> spPifo(text, params);
            case "aifo" -> aifo(text, params);
            case "pias" -> pias(text, params);
            default -> throw new IllegalArgumentException("'" + text + "' is not a queue discipline: use pfabric, " +
                "droptail, ecn, strict[:N[:model|equal|T1,T2,...]], pfabric-classes, sp-pifo[:N[:shared]], " +
                "aifo[:k=K,w=W,s=S] or pias[:N[:K]]");
        };
    }

    /**
     * A discipline without parameters.
     *
     * @param name of the discipline.
     * @return the discipline.
     */
    public static DisciplineSpec plain(final String name)
    {
        return new DisciplineSpec(name, 0, null, new long[0], 0, 0, 0, 0, false);
    }

    /**
     * {@code strict:N} with the thresholds given.
     *
     * @param thresholds increasing, in bytes; N - 1 of them.
     * @return the discipline.
     * @throws IllegalArgumentException if they do not increase or are too many.
     */
    public static DisciplineSpec strictWith(final long[] thresholds)
    {
        requireThresholds(thresholds.length + 1, thresholds, Arrays.toString(thresholds));
        return new DisciplineSpec("strict", thresholds.length + 1, Thresholds.GIVEN, thresholds, 0, 0, 0, 0, false);
    }

    private static DisciplineSpec strict(final String text, final String params)
    {
        if (null == params)
        {
            return new DisciplineSpec("strict", FIXED_THRESHOLDS.length + 1, Thresholds.GIVEN, FIXED_THRESHOLDS,
                0, 0, 0, 0, false);
        }
        final int colon = params.indexOf(':');
        final int queues = queues(text, colon < 0 ? params : params.substring(0, colon));
        final String how = colon < 0 ? "model" : params.substring(colon + 1);
        if (1 == queues && ("model".equals(how) || "equal".equals(how)))
        {
            return new DisciplineSpec("strict", 1, Thresholds.GIVEN, new long[0], 0, 0, 0, 0, false);
        }
        if ("model".equals(how) || "equal".equals(how))
        {
            return new DisciplineSpec("strict", queues, "model".equals(how) ? Thresholds.MODEL : Thresholds.EQUAL,
                new long[0], 0, 0, 0, 0, false);
        }
        final String[] fields = how.isEmpty() ? new String[0] : how.split(",", -1);
        final long[] thresholds = new long[fields.length];
        for (int i = 0; i < fields.length; i++)
        {
            try
            {
                thresholds[i] = Long.parseLong(fields[i].trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("'" + text + "': thresholds are 'model', 'equal' or whole " +
                    "numbers of bytes, not '" + fields[i] + "'");
            }
        }
        if (thresholds.length != queues - 1)
        {
            throw new IllegalArgumentException("'" + text + "': " + queues + " queues need " + (queues - 1) +
                " thresholds, got " + thresholds.length);
        }
        requireThresholds(queues, thresholds, text);
        return new DisciplineSpec("strict", queues, Thresholds.GIVEN, thresholds, 0, 0, 0, 0, false);
    }

    private static void requireThresholds(final int queues, final long[] thresholds, final String text)
    {
        if (queues < 1 || queues > MAX_QUEUES)
        {
            throw new IllegalArgumentException("'" + text + "': the number of queues must be 1 to " + MAX_QUEUES);
        }
        for (int i = 0; i < thresholds.length; i++)
        {
            if (thresholds[i] <= 0 || (i > 0 && thresholds[i] <= thresholds[i - 1]))
            {
                throw new IllegalArgumentException("'" + text + "': thresholds must be positive and strictly " +
                    "increasing");
            }
        }
    }

    private static int queues(final String text, final String field)
    {
        final int queues;
        try
        {
            queues = Integer.parseInt(field.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + text + "': the number of queues must be 1 to " + MAX_QUEUES +
                ", not '" + field + "'");
        }
        if (queues < 1 || queues > MAX_QUEUES)
        {
            throw new IllegalArgumentException("'" + text + "': the number of queues must be 1 to " + MAX_QUEUES +
                ", not " + queues);
        }
        return queues;
    }

    private static DisciplineSpec spPifo(final String text, final String params)
    {
        if (null == params)
        {
            return new DisciplineSpec("sp-pifo", MAX_QUEUES, null, new long[0], 0, 0, 0, 0, false);
        }
        final int colon = params.indexOf(':');
        final int queues = queues(text, colon < 0 ? params : params.substring(0, colon));
        final String buffer = colon < 0 ? null : params.substring(colon + 1).trim();
        if (null != buffer && !"shared".equals(buffer))
        {
            throw new IllegalArgumentException("'" + text + "': sp-pifo's queues split the buffer equally unless " +
                "'shared' follows the number of queues, not '" + buffer + "'");
        }
        return new DisciplineSpec("sp-pifo", queues, null, new long[0], 0, 0, 0, 0, null != buffer);
    }

    private static DisciplineSpec aifo(final String text, final String params)
    {
        double headroom = DEFAULT_AIFO_HEADROOM;
        int window = DEFAULT_AIFO_WINDOW_RANKS;
        int sampleEvery = DEFAULT_AIFO_SAMPLE_EVERY;
        if (null != params)
        {
            for (final String field : params.split(",", -1))
            {
                final int equals = field.indexOf('=');
                final String key = equals < 0 ? field : field.substring(0, equals).trim();
                final String value = equals < 0 ? "" : field.substring(equals + 1).trim();
                try
                {
                    switch (key)
                    {
                        case "k" -> headroom = Double.parseDouble(value);
                        case "w" -> window = Integer.parseInt(value);
                        case "s" -> sampleEvery = Integer.parseInt(value);
                        default -> throw new IllegalArgumentException("'" + text + "': aifo takes k=K, w=W and " +
                            "s=S, not '" + field + "'");
                    }
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalArgumentException("'" + text + "': '" + value + "' is not a number for " + key);
                }
            }
        }
        if (!(headroom > 0 && headroom < 1))
        {
            throw new IllegalArgumentException("'" + text + "': aifo's headroom k must be in (0, 1), not " + headroom);
        }
        if (window < 1 || sampleEvery < 1)
        {
            throw new IllegalArgumentException("'" + text + "': aifo's window w and sampling period s must be at " +
                "least 1");
        }
        return new DisciplineSpec("aifo", 0, null, new long[0], headroom, window, sampleEvery, 0, false);
    }

    private static DisciplineSpec pias(final String text, final String params)
    {
        if (null == params)
        {
            return new DisciplineSpec("pias", MAX_QUEUES, null, new long[0], 0, 0, 0, DEFAULT_PIAS_MARKING_LENGTH,
                false);
        }
        final int colon = params.indexOf(':');
        final int queues = queues(text, colon < 0 ? params : params.substring(0, colon));
        long marking = DEFAULT_PIAS_MARKING_LENGTH;
        if (colon >= 0)
        {
            try
            {
                marking = Long.parseLong(params.substring(colon + 1).trim());
            }
            catch (final NumberFormatException ex)
            {
                marking = -1;
            }
            if (marking < 0)
            {
                throw new IllegalArgumentException("'" + text + "': pias's marking threshold K is a whole number " +
                    "of bytes, not '" + params.substring(colon + 1) + "'");
            }
        }
        return new DisciplineSpec("pias", queues, null, new long[0], 0, 0, 0, marking, false);
    }

    /**
     * Whether the thresholds are still to be computed from the run's workload (and load, for the model).
     *
     * @return true for {@code strict:N}, {@code strict:N:model} and {@code strict:N:equal}.
     */
    public boolean needsWorkload()
    {
        return Thresholds.MODEL == thresholds || Thresholds.EQUAL == thresholds;
    }

    /**
     * This discipline with its thresholds computed.
     *
     * @param computed the N - 1 thresholds, in bytes, increasing.
     * @return a {@code strict} discipline with these thresholds.
     */
    public DisciplineSpec withThresholds(final long[] computed)
    {
        if (computed.length != queueCount - 1)
        {
            throw new IllegalArgumentException(queueCount + " queues need " + (queueCount - 1) + " thresholds");
        }
        return strictWith(computed);
    }

    /**
     * The thresholds (only for {@link Thresholds#GIVEN} or once computed).
     *
     * @return a copy, in bytes.
     */
    public long[] given()
    {
        return given.clone();
    }

    /**
     * The discipline as written, {@code NAME[:PARAMS]}, such that {@link #parse} gives it back.
     *
     * @return the text.
     */
    public String toString()
    {
        return switch (name)
        {
            case "strict" -> Thresholds.GIVEN == thresholds ? "strict:" + queueCount + (queueCount > 1 ? ":" : "") +
                join(given) : "strict:" + queueCount + ":" + thresholds.name().toLowerCase(Locale.ROOT);
            case "sp-pifo" -> "sp-pifo:" + queueCount + (sharedBuffer ? ":shared" : "");
            case "aifo" -> "aifo:k=" + headroom + ",w=" + windowRanks + ",s=" + sampleEvery;
            case "pias" -> "pias:" + queueCount + ":" + markingLength;
            default -> name;
        };
    }

    private static String join(final long[] values)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.length; i++)
        {
            out.append(i > 0 ? "," : "").append(values[i]);
        }
        return out.toString();
    }

    /**
     * {@inheritDoc}
     */
    public boolean equals(final Object other)
    {
        return other instanceof DisciplineSpec that && toString().equals(that.toString());
    }

    /**
     * {@inheritDoc}
     */
    public int hashCode()
    {
        return toString().hashCode();
    }
}
