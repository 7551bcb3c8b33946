package io.kproxy.sample.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * A Service of the sample cluster with the pods behind it and the names of its EndpointSlices
 * (one per IP family, as the EndpointSlice controller makes them for fewer than 100 endpoints).
 * Mutable; confined to the generator's thread.
 */
final class Workload {

    private ServiceDef def;
    private final List<Pod> pods = new ArrayList<>();
    private String sliceV4;
    private String sliceV6;
    /** Scripted workloads are left alone by the random churn. */
    private final boolean scripted;
    /** A rollout or restart is in progress: the churn picks another workload. */
    boolean busy;
    /** The pod-template hash of the current ReplicaSet (the middle part of pod names). */
    String template = "";

    Workload(ServiceDef def, String sliceV4, String sliceV6, boolean scripted) {
        this.def = def;
        this.sliceV4 = sliceV4;
        this.sliceV6 = sliceV6;
        this.scripted = scripted;
    }

    ServiceDef def() {
        return def;
    }

    void def(ServiceDef d) {
        this.def = d;
    }

    List<Pod> pods() {
        return pods;
    }

    /** Slice names in family order: IPv4, then IPv6 when dual-stack; none for a headless Service. */
    List<String> slices() {
        if (sliceV4 == null) {
            return List.of(); // headless: the source does not record its slices
        }
        return def.dualStack() ? List.of(sliceV4, sliceV6) : List.of(sliceV4);
    }

    String sliceV4() {
        return sliceV4;
    }

    String sliceV6() {
        return sliceV6;
    }

    void renameSlices(String v4, String v6) {
        this.sliceV4 = v4;
        this.sliceV6 = v6;
    }

    boolean scripted() {
        return scripted;
    }

    int indexOf(String podName) {
        for (int i = 0; i < pods.size(); i++) {
            if (pods.get(i).name().equals(podName)) {
                return i;
            }
        }
        return -1;
    }

    void replace(String podName, Pod next) {
        int i = indexOf(podName);
        if (i >= 0) {
            pods.set(i, next);
        }
    }

    void remove(String podName) {
        int i = indexOf(podName);
        if (i >= 0) {
            pods.remove(i);
        }
    }
}
