package io.pfabric.common.topology;

/**
 * Finds where in a file an element of a topology was declared, so that a problem found in the model can name the line.
 */
interface SourceLocator
{
    /**
     * For a topology built in code: no places, messages only.
     */
    SourceLocator NONE = new SourceLocator()
    {
        public TopologyException error(final Object element, final String key, final String message)
        {
            return new TopologyException(message);
        }

        public int line(final Object element)
        {
            return 0;
        }
    };

    /**
     * A problem with an element, placed at one of its keys.
     *
     * @param element the record the problem is about.
     * @param key     the key of the element's value at fault, or null for the element as a whole.
     * @param message what is wrong.
     * @return the exception to throw.
     */
    TopologyException error(Object element, String key, String message);

    /**
     * Line where an element starts.
     *
     * @param element a record of the topology.
     * @return the 1-based line, or 0 if unknown.
     */
    int line(Object element);
}
