package io.kproxy.backend.spi;

import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import java.util.List;

/** Deletes conntrack entries. Blocks; one caller at a time. */
public interface ConntrackPort {

    /** Deletes every flow matched by one of {@code filters}; returns how many were deleted. */
    int delete(List<ConntrackFilter> filters) throws KernelException;
}
