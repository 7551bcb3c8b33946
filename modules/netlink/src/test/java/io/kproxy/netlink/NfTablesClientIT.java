package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The netlink writer against the kernel, inside a test namespace: commit, dry run, atomic refusal naming the operation. */
class NfTablesClientIT {

    static NfBatch tableWithRule(String chainOfRule) {
        NfBatch b = new NfBatch();
        b.addTable(NfFamily.IPV4, "kp-nl", null);
        b.addChain(NfFamily.IPV4, "kp-nl", "c", null, null);
        b.addChain(NfFamily.IPV4, "kp-nl", "d", null, null);
        b.addRule(NfFamily.IPV4, "kp-nl", chainOfRule, List.of(new NfExpr.Verdict(NfVerdict.jump("d"))), null);
        return b;
    }

    @Test
    void commitsChecksAndRefusesAtomically() throws NfTablesException {
        KernelTests.require("nft", "ip");
        try (NetNs ns = NetNs.create("nlclient"); NetNs other = NetNs.create("nlother"); NfTablesClient client = NfTablesClient.open(Optional.of(ns.name()))) {
            client.check(tableWithRule("c"));
            assertThat(ns.exec("nft", "list", "tables")).doesNotContain("kp-nl");

            client.commit(tableWithRule("c"));
            assertThat(ns.exec("nft", "list", "chain", "ip", "kp-nl", "c")).contains("jump d");
            assertThat(other.exec("nft", "list", "tables")).doesNotContain("kp-nl");

            NfBatch bad = new NfBatch();
            bad.addChain(NfFamily.IPV4, "kp-nl", "e", null, null);
            bad.addRule(NfFamily.IPV4, "kp-nl", "no-such-chain", List.of(new NfExpr.Verdict(NfVerdict.of(NfVerdict.DROP))), null);
            bad.addChain(NfFamily.IPV4, "kp-nl", "f", null, null);
            assertThatThrownBy(() -> client.commit(bad)).isInstanceOfSatisfying(NfTablesException.class, e -> {
                assertThat(e.operation()).hasValue(1);
                assertThat(e.operationText()).isEqualTo("NEWRULE ip kp-nl no-such-chain");
                assertThat(e.errno()).isEqualTo(2);
                assertThat(e.retryable()).isFalse();
                assertThat(e.getMessage()).contains("ENOENT");
            });
            // Nothing of the refused batch was applied.
            assertThat(ns.exec("nft", "list", "table", "ip", "kp-nl")).doesNotContain("chain e").doesNotContain("chain f");
            assertThatThrownBy(() -> client.check(bad)).isInstanceOf(NfTablesException.class);

            NfBatch cleanup = new NfBatch();
            cleanup.deleteTable(NfFamily.IPV4, "kp-nl");
            client.commit(cleanup);
            assertThat(ns.exec("nft", "list", "tables")).doesNotContain("kp-nl");
        }
    }
}
