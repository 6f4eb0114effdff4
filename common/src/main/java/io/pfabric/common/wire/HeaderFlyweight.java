package io.pfabric.common.wire;

import org.agrona.MutableDirectBuffer;

/**
 * What every header flyweight holds: the buffer it is wrapped over and the offset of its header in that buffer.
 * Subclasses read and write their fields at {@code offset + *_FIELD_OFFSET}, in network byte order.
 */
public abstract class HeaderFlyweight
{
    /**
     * The wrapped buffer.
     */
    protected MutableDirectBuffer buffer;

    /**
     * Offset of the header in {@link #buffer}.
     */
    protected int offset;

    /**
     * Point the flyweight at a header.
     *
     * @param buffer holding the header.
     * @param offset of the header in the buffer.
     */
    protected final void wrapHeader(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
    }

    /**
     * The wrapped buffer.
     *
     * @return the wrapped buffer.
     */
    public final MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Offset of the header in the wrapped buffer.
     *
     * @return offset of the header in the wrapped buffer.
     */
    public final int offset()
    {
        return offset;
    }
}
