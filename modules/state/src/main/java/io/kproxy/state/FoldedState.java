package io.kproxy.state;

import io.kproxy.events.Envelope;
import io.kproxy.model.ServiceRef;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The fold of the event log up to {@link #offset()}: what the cluster looks like
 * ({@link #cluster()}) and what this node must program ({@link #node()}), always consistent with
 * each other. This is the engine's entry point into the pure core.
 *
 * <p>{@link #apply} is pure: it returns a new state and leaves this one valid (older states share
 * structure with newer ones, which is what time travel relies on). It costs O(size of the change):
 * a change to one Service or EndpointSlice re-projects that Service's ports only; a change of
 * the node name or zone re-projects every Service. Bad objects never make it throw: the parts
 * that are bad are skipped and listed in {@link FoldStep#rejections()}.
 *
 * <p>Immutable and thread-safe; no method blocks or does I/O; nothing returns null.
 */
public final class FoldedState {

    private static final FoldedState INITIAL = new FoldedState(ClusterState.empty(), Projector.full(ClusterState.empty()), -1);

    private final ClusterState cluster;
    private final NodeState node;
    private final long offset;

    FoldedState(ClusterState cluster, NodeState node, long offset) {
        this.cluster = cluster;
        this.node = node;
        this.offset = offset;
    }

    /** An empty cluster, the default configuration, nothing synced, offset -1. */
    public static FoldedState initial() {
        return INITIAL;
    }

    /**
     * Folds one record.
     *
     * @throws IllegalArgumentException when {@code record.offset()} is not after {@link #offset()}:
     *                                  records must be folded in log order, each once
     */
    public FoldStep apply(Envelope record) {
        if (record.offset() <= offset) {
            throw new IllegalArgumentException("record offset " + record.offset() + " is not after the folded offset " + offset);
        }
        Folder.Result r = Folder.fold(cluster, record);
        if (r.cluster() == cluster) {
            return new FoldStep(new FoldedState(cluster, node, record.offset()), StateDelta.EMPTY, r.rejections());
        }
        if (r.cluster().samePartsAs(cluster)) {
            // Only the pin changed: the live projection stays what it was (the engine chooses what to program).
            return new FoldStep(new FoldedState(r.cluster(), node, record.offset()), StateDelta.EMPTY, r.rejections());
        }
        NodeState next = Projector.update(node, cluster, r.cluster(), r.touched(), r.everything());
        return new FoldStep(new FoldedState(r.cluster(), next, record.offset()), StateDelta.between(node, next), r.rejections());
    }

    /**
     * Folds {@code records} and projects once at the end: equal to applying them one by one (same
     * cluster, offset and node state), without the per-record projection and {@link StateDelta}
     * that only the engine needs. Time travel rebuilds a state from a snapshot this way: the
     * projection is most of a fold step, and records touching one Service are projected once.
     * Rejections are not reported (apply one by one to see them). An empty list returns this state.
     *
     * @throws IllegalArgumentException when the records are not in log order after {@link #offset()}
     */
    public FoldedState applyAll(List<Envelope> records) {
        ClusterState c = cluster;
        long last = offset;
        Set<ServiceRef> touched = new HashSet<>();
        boolean everything = false;
        for (Envelope record : records) {
            if (record.offset() <= last) {
                throw new IllegalArgumentException("record offset " + record.offset() + " is not after the folded offset " + last);
            }
            Folder.Result r = Folder.fold(c, record);
            c = r.cluster();
            touched.addAll(r.touched());
            everything |= r.everything();
            last = record.offset();
        }
        if (last == offset) {
            return this;
        }
        if (c == cluster || c.samePartsAs(cluster)) {
            return new FoldedState(c, node, last);
        }
        return new FoldedState(c, Projector.update(node, cluster, c, touched, everything), last);
    }

    public ClusterState cluster() {
        return cluster;
    }

    /** The dataplane pin in force ({@link ClusterState#pin()}), or empty while the live state is programmed. */
    public Optional<Pin> pin() {
        return cluster.pin();
    }

    /** The node's desired state: the projection of {@link #cluster()}. */
    public NodeState node() {
        return node;
    }

    /** Offset of the last record folded, -1 if none. */
    public long offset() {
        return offset;
    }

    /** The versioned encoding of this state (format version byte first); see {@link #fromSnapshot}. */
    public byte[] toSnapshot() {
        return SnapshotCodec.encode(cluster, offset);
    }

    /**
     * The state a snapshot was taken of. The node state is projected again from the decoded
     * cluster state, so it equals the original's.
     *
     * @throws SnapshotDecodeException when the data is not a snapshot this version can read
     */
    public static FoldedState fromSnapshot(byte[] data) {
        SnapshotCodec.Decoded d = SnapshotCodec.decode(data);
        return new FoldedState(d.cluster(), Projector.full(d.cluster()), d.offset());
    }

    /** Equal cluster states and offsets (the node states then are equal too). */
    @Override
    public boolean equals(Object o) {
        return o instanceof FoldedState f && offset == f.offset && cluster.equals(f.cluster);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(offset) * 31 + cluster.hashCode();
    }

    @Override
    public String toString() {
        return "FoldedState[offset=" + offset + ", " + cluster + "]";
    }
}
