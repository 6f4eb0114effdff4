package io.pfabric.common.topology;

import java.util.Arrays;

/**
 * Traffic classes of a port (HotNets 2012, §2.5): which class each IPv4 DSCP value belongs to, and each class's weight
 * in the port's bandwidth. Immutable.
 * <p>
 * Written as classes in order, separated by {@code ;}, each {@code WEIGHT} or {@code WEIGHT:DSCPS} where DSCPS is a
 * comma-separated list of values and ranges {@code LOW-HIGH}: {@code 3:0-7;1:8-15,46} is class 0 of weight 3 with
 * DSCP 0 to 7, class 1 of weight 1 with DSCP 8 to 15 and 46. A DSCP no class lists belongs to class 0. The default,
 * {@link #DEFAULT}, is the eight IP precedences of equal weight: class = DSCP / 8, so DSCP 0 (best effort) is class 0
 * and the class selector CSn (DSCP 8n) is class n.
 */
public final class TrafficClasses
{
    /**
     * Number of DSCP values.
     */
    public static final int DSCP_COUNT = 64;

    /**
     * Most classes a port may have.
     */
    public static final int MAX_CLASSES = 64;

    /**
     * Largest weight of a class.
     */
    public static final int MAX_WEIGHT = 1_000;

    /**
     * Eight classes of weight 1 by IP precedence: class = DSCP / 8.
     */
    public static final TrafficClasses DEFAULT = parse("1:0-7;1:8-15;1:16-23;1:24-31;1:32-39;1:40-47;1:48-55;1:56-63");

    private final int[] weights;
    private final int[] classOfDscp;

    private TrafficClasses(final int[] weights, final int[] classOfDscp)
    {
        this.weights = weights;
        this.classOfDscp = classOfDscp;
    }

    /**
     * Classes from their written form.
     *
     * @param spec such as {@code 3:0-7;1:8-15,46}.
     * @return the classes.
     * @throws IllegalArgumentException saying what is wrong, starting with the quoted spec.
     */
    public static TrafficClasses parse(final String spec)
    {
        if (null == spec || spec.isBlank())
        {
            throw new IllegalArgumentException("'" + spec + "' is empty; give classes such as 3:0-7;1:8-15,46");
        }
        final String[] classTexts = spec.trim().split(";", -1);
        if (classTexts.length > MAX_CLASSES)
        {
            throw invalid(spec, "more than " + MAX_CLASSES + " classes");
        }
        final int[] weights = new int[classTexts.length];
        final int[] classOfDscp = new int[DSCP_COUNT];
        Arrays.fill(classOfDscp, -1);
        for (int trafficClass = 0; trafficClass < classTexts.length; trafficClass++)
        {
            final String text = classTexts[trafficClass].trim();
            final int colon = text.indexOf(':');
            final String weightText = -1 == colon ? text : text.substring(0, colon).trim();
            weights[trafficClass] = parseNumber(spec, weightText, "weight", 1, MAX_WEIGHT);
            if (-1 == colon)
            {
                continue;
            }
            for (final String item : text.substring(colon + 1).split(",", -1))
            {
                final String range = item.trim();
                final int dash = range.indexOf('-');
                final int low = parseNumber(spec, -1 == dash ? range : range.substring(0, dash).trim(), "DSCP", 0,
                    DSCP_COUNT - 1);
                final int high = -1 == dash ? low :
                    parseNumber(spec, range.substring(dash + 1).trim(), "DSCP", 0, DSCP_COUNT - 1);
                if (high < low)
                {
                    throw invalid(spec, "DSCP range " + range + " runs backwards");
                }
                for (int dscp = low; dscp <= high; dscp++)
                {
                    if (-1 != classOfDscp[dscp])
                    {
                        throw invalid(spec, "DSCP " + dscp + " is in class " + classOfDscp[dscp] + " and class " +
                            trafficClass);
                    }
                    classOfDscp[dscp] = trafficClass;
                }
            }
        }
        for (int dscp = 0; dscp < DSCP_COUNT; dscp++)
        {
            if (-1 == classOfDscp[dscp])
            {
                classOfDscp[dscp] = 0;
            }
        }
        return new TrafficClasses(weights, classOfDscp);
    }

    /**
     * Number of classes.
     *
     * @return the count, at least 1.
     */
    public int classCount()
    {
        return weights.length;
    }

    /**
     * Weight of a class.
     *
     * @param trafficClass index from 0.
     * @return the weight, 1 to {@link #MAX_WEIGHT}.
     */
    public int weight(final int trafficClass)
    {
        return weights[trafficClass];
    }

    /**
     * Sum of the weights of all classes.
     *
     * @return the total weight.
     */
    public int totalWeight()
    {
        int total = 0;
        for (final int weight : weights)
        {
            total += weight;
        }
        return total;
    }

    /**
     * Class of a DSCP value.
     *
     * @param dscp 0 to 63.
     * @return the class index.
     */
    public int classOf(final int dscp)
    {
        return classOfDscp[dscp];
    }

    /**
     * The written form, every DSCP listed with its class, which {@link #parse(String)} reads back to equal classes.
     *
     * @return such as {@code 3:0-7;1:8-15,46}.
     */
    public String toString()
    {
        final StringBuilder out = new StringBuilder();
        for (int trafficClass = 0; trafficClass < weights.length; trafficClass++)
        {
            if (trafficClass > 0)
            {
                out.append(';');
            }
            out.append(weights[trafficClass]);
            char separator = ':';
            int dscp = 0;
            while (dscp < DSCP_COUNT)
            {
                if (classOfDscp[dscp] != trafficClass)
                {
                    dscp++;
                    continue;
                }
                int high = dscp;
                while (high + 1 < DSCP_COUNT && classOfDscp[high + 1] == trafficClass)
                {
                    high++;
                }
                out.append(separator).append(dscp);
                if (high > dscp)
                {
                    out.append('-').append(high);
                }
                separator = ',';
                dscp = high + 1;
            }
        }
        return out.toString();
    }

    /**
     * {@inheritDoc}
     */
    public boolean equals(final Object other)
    {
        return other instanceof TrafficClasses that && Arrays.equals(weights, that.weights) &&
            Arrays.equals(classOfDscp, that.classOfDscp);
    }

    /**
     * {@inheritDoc}
     */
    public int hashCode()
    {
        return 31 * Arrays.hashCode(weights) + Arrays.hashCode(classOfDscp);
    }

    private static int parseNumber(
        final String spec, final String text, final String what, final int min, final int max)
    {
        final int value;
        try
        {
            value = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw invalid(spec, what + " '" + text + "' is not a whole number");
        }
        if (value < min || value > max)
        {
            throw invalid(spec, what + " " + value + " is not in " + min + " to " + max);
        }
        return value;
    }

    private static IllegalArgumentException invalid(final String spec, final String problem)
    {
        return new IllegalArgumentException("'" + spec + "': " + problem + "; give classes such as 3:0-7;1:8-15,46");
    }
}
