package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeDeleted;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.NodeFixture;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fold of {@code LocalAddressesObserved}: the node's recorded local addresses are the last
 * record's, kept across Node records (they come from the kernel, not the Node object), dropped
 * when the configuration names another node, a node-level change for the sync, and carried by
 * snapshots.
 */
class LocalAddressesFoldTest {

    private static final NodeName NODE = new NodeName(Logs.NODE);

    private static List<IpAddress> ips(String... s) {
        return Arrays.stream(s).map(IpAddress::parse).toList();
    }

    private static LocalAddressesObserved observed(String... s) {
        return new LocalAddressesObserved(NODE, ips(s));
    }

    @Test
    void theLastRecordIsTheNodesAndANodeLevelChange() {
        FoldedState s = Logs.fold(Logs.synced());
        assertThat(s.node().node().localAddresses()).as("none recorded").isEmpty();

        FoldStep first = Logs.step(s, observed("203.0.113.1", "192.168.0.2", "fd00::2"));
        assertThat(first.state().node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1", "fd00::2"));
        assertThat(first.delta().nodeChanged()).isTrue();
        assertThat(first.rejections()).isEmpty();

        FoldStep same = Logs.step(first.state(), observed("192.168.0.2", "fd00::2", "203.0.113.1"));
        assertThat(same.delta().isEmpty()).as("the same set again changes nothing").isTrue();

        FoldStep fewer = Logs.step(same.state(), observed("192.168.0.2"));
        assertThat(fewer.state().node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2"));
        assertThat(fewer.delta().nodeChanged()).isTrue();
    }

    @Test
    void nodeRecordsKeepThemAndAnotherNodesAreSkipped() {
        FoldedState s = Logs.step(Logs.fold(Logs.synced()), observed("192.168.0.2", "203.0.113.1")).state();
        FoldedState observedNode = Logs.step(s, NodeFixture.node(Logs.NODE).internalIP("192.168.0.2").observed()).state();
        assertThat(observedNode.node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1"));
        assertThat(observedNode.node().node().primaryIPs()).containsExactlyElementsOf(ips("192.168.0.2"));
        FoldedState deleted = Logs.step(observedNode, new NodeDeleted(NODE, "", false)).state();
        assertThat(deleted.node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1"));

        FoldStep other = Logs.step(deleted, new LocalAddressesObserved(new NodeName("node-2"), ips("10.0.0.9")));
        assertThat(other.rejections()).singleElement().satisfies(r -> assertThat(r.kind()).isEqualTo("LocalAddresses"));
        assertThat(other.state().node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1"));

        FoldedState renamed = Logs.step(deleted, new ConfigRecorded(new NodeName("node-2"), Json.Obj.EMPTY)).state();
        assertThat(renamed.node().node().localAddresses()).as("another node's agent records its own").isEmpty();
        FoldedState restarted = Logs.step(observedNode, new ConfigRecorded(NODE, Json.Obj.EMPTY)).state();
        assertThat(restarted.node().node().localAddresses()).as("a restart with the same node keeps them")
                .containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1"));
    }

    @Test
    void snapshotsCarryThem() {
        FoldedState s = Logs.step(Logs.fold(Logs.synced()), observed("192.168.0.2", "2001:db8::7")).state();
        byte[] snap = s.toSnapshot();
        assertThat(snap[0]).isEqualTo(SnapshotCodec.VERSION);
        FoldedState back = FoldedState.fromSnapshot(snap);
        assertThat(back).isEqualTo(s);
        assertThat(back.node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2", "2001:db8::7"));
    }
}
