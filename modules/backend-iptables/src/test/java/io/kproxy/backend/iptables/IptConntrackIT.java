package io.kproxy.backend.iptables;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.testkit.BackendNode;
import io.kproxy.backend.testkit.ConntrackScenario;
import io.kproxy.model.IpFamily;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reference row 37 in the iptables mode ({@link ConntrackScenario}): a UDP client keeps its
 * conntrack entry after its endpoint is replaced until the sync's conntrack cleanup deletes the
 * stale flow; then it reaches the new endpoint.
 */
class IptConntrackIT {

    static BackendNode node;

    @BeforeAll
    static void setUp() {
        node = BackendNode.open("iptables", "ip", "conntrack", "iptables-nft-restore", "ip6tables-nft-restore");
    }

    @AfterAll
    static void tearDown() {
        if (node != null) {
            node.close();
        }
    }

    @ParameterizedTest
    @EnumSource(IpFamily.class)
    void udpFlowFollowsTheNewEndpointOnlyAfterConntrackCleanup(IpFamily family) throws KernelException {
        ConntrackScenario.udpFlowFollowsTheNewEndpointOnlyAfterConntrackCleanup(node, IptStates.node(), family);
    }
}
