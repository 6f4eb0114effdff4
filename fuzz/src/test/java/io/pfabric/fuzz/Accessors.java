package io.pfabric.fuzz;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every read accessor a flyweight declares: its public methods without parameters that return a value other than the
 * flyweight itself (those are fluent writers such as {@code computeChecksum()}), less {@code buffer()} and
 * {@code offset()}. A target calls them all on what a parser accepted, so an accessor added later is fuzzed too.
 */
final class Accessors
{
    private final List<Method> methods = new ArrayList<>();

    Accessors(final Class<?> flyweight)
    {
        for (final Method method : flyweight.getMethods())
        {
            if (0 == method.getParameterCount() && !Modifier.isStatic(method.getModifiers()) &&
                void.class != method.getReturnType() && !method.getReturnType().isAssignableFrom(flyweight) &&
                !method.getReturnType().isAssignableFrom(Object.class) && Object.class != method.getDeclaringClass() &&
                !"buffer".equals(method.getName()) && !"offset".equals(method.getName()) &&
                !"hashCode".equals(method.getName()) && !"toString".equals(method.getName()))
            {
                methods.add(method);
            }
        }
        methods.sort(Comparator.comparing(Method::getName));
        if (methods.isEmpty())
        {
            throw new IllegalArgumentException(flyweight + " declares no accessors");
        }
    }

    /**
     * Call every accessor; an exception one throws is rethrown as itself.
     *
     * @param flyweight wrapped over the input.
     */
    void readAll(final Object flyweight)
    {
        for (final Method method : methods)
        {
            try
            {
                method.invoke(flyweight);
            }
            catch (final InvocationTargetException ex)
            {
                if (ex.getCause() instanceof RuntimeException cause)
                {
                    throw cause;
                }
                throw new AssertionError(method.getName() + " threw " + ex.getCause(), ex.getCause());
            }
            catch (final IllegalAccessException ex)
            {
                throw new AssertionError(ex);
            }
        }
    }

    /**
     * The accessors' names.
     *
     * @return sorted.
     */
    List<String> names()
    {
        return methods.stream().map(Method::getName).toList();
    }
}
