package io.kproxy.bench.state;

import io.kproxy.state.FoldedState;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Measures the heap a folded 10,000 × 5 state holds: used heap after full GCs with the state
 * reachable, minus used heap after full GCs once it is not. Prints one {@code key=value} line.
 * Usage: {@code java -cp ... io.kproxy.bench.state.StateHeap [services] [endpoints]}.
 */
public final class StateHeap {

    private StateHeap() {
    }

    public static void main(String[] args) {
        int services = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int endpoints = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long empty = usedAfterGc(memory);
        FoldedState state = new SyntheticCluster(services, endpoints).fold();
        long held = usedAfterGc(memory);
        byte[] snapshot = state.toSnapshot();
        int ports = state.node().ipv4().ports().size();
        state = null;
        long after = usedAfterGc(memory);
        System.out.printf("services=%d endpoints=%d ports=%d heldMB=%.1f baselineMB=%.1f releasedMB=%.1f snapshotMB=%.2f%n", services,
                endpoints, ports, (held - empty) / 1e6, empty / 1e6, (held - after) / 1e6, snapshot.length / 1e6);
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
