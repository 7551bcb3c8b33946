package io.kproxy.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The cluster's background changes, drawn from the seed: churned Services are created, deleted
 * and re-scaled (their slice's endpoints drawn from the pods), and the node's labels change.
 * Stable Services are never touched. Called from the schedule thread only.
 */
final class Churn {

    static final List<String> STABLE = List.of("stable-a", "stable-b");
    static final List<String> STABLE_IPS = List.of("172.30.0.10", "172.30.0.11");
    static final List<String> CHURNED_IPS = List.of("172.30.1.10", "172.30.1.11", "172.30.1.12", "172.30.1.13");

    private final MockCluster cluster;
    private final Random random;
    private int changes;
    private int nodeGeneration;

    Churn(MockCluster cluster, Random random) {
        this.cluster = cluster;
        this.random = random;
    }

    /** The starting cluster: the node, the two stable Services and the churned ones. */
    void seed() {
        cluster.apply(MockCluster.node(ChaosWorld.NODE, "192.168.0.2", nodeGeneration));
        cluster.apply(MockCluster.service(STABLE.get(0), STABLE_IPS.get(0)));
        cluster.apply(MockCluster.slice(STABLE.get(0), List.of(Pod.POD1, Pod.POD2)));
        cluster.apply(MockCluster.service(STABLE.get(1), STABLE_IPS.get(1)));
        cluster.apply(MockCluster.slice(STABLE.get(1), List.of(Pod.POD1, Pod.RPOD)));
        for (int i = 0; i < CHURNED_IPS.size(); i++) {
            cluster.apply(MockCluster.service(churned(i), CHURNED_IPS.get(i)));
            cluster.apply(MockCluster.slice(churned(i), pods()));
        }
    }

    private static String churned(int i) {
        return "churn-" + i;
    }

    /** A random, possibly empty, set of pods. */
    private List<Pod> pods() {
        List<Pod> out = new ArrayList<>();
        for (Pod p : Pod.values()) {
            if (random.nextBoolean()) {
                out.add(p);
            }
        }
        return out;
    }

    /** One change, drawn from the seed. */
    void step() {
        changes++;
        int i = random.nextInt(CHURNED_IPS.size());
        String name = churned(i);
        int what = random.nextInt(10);
        boolean exists = cluster.get("Service", name) != null;
        if (what == 0) {
            cluster.apply(MockCluster.node(ChaosWorld.NODE, "192.168.0.2", ++nodeGeneration));
        } else if (what <= 2 && exists) {
            cluster.delete(cluster.get("EndpointSlice", name + "-1"));
            cluster.delete(cluster.get("Service", name));
        } else if (!exists) {
            cluster.apply(MockCluster.service(name, CHURNED_IPS.get(i)));
            cluster.apply(MockCluster.slice(name, pods()));
        } else {
            cluster.apply(MockCluster.slice(name, pods()));
        }
    }

    /** Changes every 100 to 600 ms for {@code millis} (bounded by the time given). */
    void during(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            step();
            Thread.sleep(Math.min(100 + random.nextInt(500), Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
        }
    }

    int changes() {
        return changes;
    }
}
