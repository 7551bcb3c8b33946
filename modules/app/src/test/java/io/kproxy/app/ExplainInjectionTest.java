package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.ServiceFixture;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, defect 4, the reported case end to end: a journal whose Service record was forged to
 * hold the resourceVersion {@code "1\n}\ntable inet x { chain input { ... policy drop; } }\n#"}
 * used to make {@code render --explain} print a real {@code input} chain with {@code policy drop}.
 * Now the record is damage: the command says so and exits 5, and nothing it prints holds the
 * chain. (Loading the output with {@code nft -f} needs nft, which the printer tests do not.)
 */
class ExplainInjectionTest {

    static final String REPORTED = "1\n}\ntable inet x { chain input { type filter hook input priority 0; policy drop; } }\n#";

    @Test
    void aForgedResourceVersionNeverBecomesAChain(@TempDir Path dir) throws IOException {
        ForgedJournal j = new ForgedJournal();
        j.add(new ConfigRecorded(new NodeName("node-a"), Json.obj("mode", Json.of("nftables"))));
        String rv = j.placeholder(REPORTED);
        j.add(ServiceFixture.service("ns", "web").clusterIP("172.30.0.10").port("http", 80, "TCP").resourceVersion(rv).observed());
        for (ResourceKind k : ResourceKind.values()) {
            j.add(new SourceSynced(k, "42"));
        }
        j.write(dir);

        RenderCommandTest.Run r = RenderCommandTest.run("render", "--journal", dir.toString(), "--offset", "4", "--explain");
        assertThat(r.exit()).as(r.err()).isEqualTo(HistoryExits.UNREADABLE);
        assertThat(r.err()).contains("resourceVersion").contains("must be an opaque token").doesNotContain("\n}\n");
        assertThat(r.err().lines()).allMatch(l -> l.startsWith("kproxy render: "));
        assertThat(r.out()).doesNotContain("table inet x").doesNotContain("policy drop");
    }
}
