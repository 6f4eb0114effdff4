package io.pfabric.common.packet;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The few libxdp calls an AF_XDP socket needs to be set up and torn down (Debian {@code libxdp1}, which brings
 * {@code libbpf1}), bound with JNA direct mapping. The rings' per-frame operations, which libxdp has as inline
 * functions in its header, are {@link XskRing}'s, in Java. Loaded on first use; {@link #LOAD_ERROR} says why it could
 * not be.
 */
final class LibXdp
{
    /**
     * Why the library could not be loaded, or null if it was.
     */
    static final String LOAD_ERROR;

    /**
     * {@code XDP_FLAGS_SKB_MODE}: the generic hook, after the kernel has built a socket buffer.
     */
    static final int XDP_FLAGS_SKB_MODE = 1 << 1;

    /**
     * {@code XDP_FLAGS_DRV_MODE}: the driver's own (native) hook.
     */
    static final int XDP_FLAGS_DRV_MODE = 1 << 2;

    /**
     * {@code XDP_USE_NEED_WAKEUP}: the kernel says in each ring's flags when it needs a system call to go on.
     */
    static final short XDP_USE_NEED_WAKEUP = 1 << 3;

    /**
     * Length of {@code struct xsk_ring_prod} and {@code struct xsk_ring_cons}.
     */
    static final int RING_STRUCT_LENGTH = 48;

    /**
     * Offsets in a ring struct: its size, and the pointers to the producer index, consumer index, entries and flags.
     */
    static final int RING_SIZE_OFFSET = 12;
    static final int RING_PRODUCER_OFFSET = 16;
    static final int RING_CONSUMER_OFFSET = 24;
    static final int RING_ENTRIES_OFFSET = 32;
    static final int RING_FLAGS_OFFSET = 40;

    /**
     * Length of {@code struct xsk_umem_config}: fill size, completion size, frame size, headroom, flags.
     */
    static final int UMEM_CONFIG_LENGTH = 20;

    /**
     * Length of {@code struct xsk_socket_config}: receive size, transmit size, libxdp flags, XDP flags, bind flags.
     */
    static final int SOCKET_CONFIG_LENGTH = 20;

    static
    {
        String error = null;
        try
        {
            final NativeLibrary library = NativeLibrary.getInstance("libxdp.so.1");
            Native.register(LibXdp.class, library);
            libxdp_set_print(null);
            final NativeLibrary libbpf = NativeLibrary.getInstance("libbpf.so.1");
            libbpf.getFunction("libbpf_set_print").invokePointer(new Object[] {null});
        }
        catch (final UnsatisfiedLinkError | IllegalArgumentException ex)
        {
            error = ex.getMessage();
        }
        LOAD_ERROR = error;
    }

    private LibXdp()
    {
    }

    static native Pointer libxdp_set_print(Pointer function);

    static native int xsk_umem__create(
        Pointer umemOut, Pointer area, long length, Pointer fill, Pointer completion, Pointer config);

    static native int xsk_socket__create(
        Pointer socketOut, String interfaceName, int queue, Pointer umem, Pointer rx, Pointer tx, Pointer config);

    static native int xsk_socket__create_shared(
        Pointer socketOut, String interfaceName, int queue, Pointer umem, Pointer rx, Pointer tx, Pointer fill,
        Pointer completion, Pointer config);

    static native int xsk_socket__fd(Pointer socket);

    static native void xsk_socket__delete(Pointer socket);

    static native int xsk_umem__delete(Pointer umem);

    static native Pointer xdp_multiprog__get_from_ifindex(int ifindex);

    static native long libxdp_get_error(Pointer object);

    static native boolean xdp_multiprog__is_legacy(Pointer multiprog);

    static native Pointer xdp_multiprog__main_prog(Pointer multiprog);

    static native Pointer xdp_multiprog__next_prog(Pointer program, Pointer multiprog);

    static native String xdp_program__name(Pointer program);

    static native int xdp_program__id(Pointer program);

    static native int xdp_multiprog__detach(Pointer multiprog);

    static native void xdp_multiprog__close(Pointer multiprog);
}
