package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigException;
import io.kproxy.model.Json;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, defect 6: {@code namespace: *n} became the string "n" with exit 0. Aliases and merge
 * keys are refused at their position; anchors alone change nothing; an alias bomb is refused at
 * its first alias, fast and with bounded memory.
 */
class YamlAliasTest {

    private static final String HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";

    @Test
    void anAliasIsRefusedNeverReadAsText() {
        assertThatThrownBy(() -> ConfigText.parseAll("kind: Service\nmetadata:\n  name: &n web\n  namespace: *n\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("line 4, column 14")
                .hasMessageContaining("YAML aliases (*n) are not supported");
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "clusterCIDR: &c 10.0.0.0/8\nkproxy:\n  serviceCIDRs: [*c]\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("YAML aliases (*c) are not supported");
    }

    @Test
    void anAnchorWithoutAnAliasIsTheValueItself() {
        Json doc = ConfigText.parse("a: &x {b: 1}\nc: &y text\n");
        assertThat(doc).isEqualTo(Json.obj("a", Json.obj("b", Json.of(1L)), "c", Json.of("text")));
    }

    @Test
    void aMergeKeyIsRefusedButAQuotedOneIsAnOrdinaryKey() {
        assertThatThrownBy(() -> ConfigText.parse("base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("line 3, column 3: YAML merge keys (<<) are not supported");
        assertThatThrownBy(() -> ConfigText.parse("d:\n  <<: {x: 1}\n  y: 2\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("line 2").hasMessageContaining("YAML merge keys (<<) are not supported");
        assertThat(ConfigText.parse("\"<<\": 1\n")).isEqualTo(Json.obj("<<", Json.of(1L)));
    }

    @Test
    void anAliasBombIsRefusedAtItsFirstAliasFastAndSmall() {
        StringBuilder bomb = new StringBuilder("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i <= 9; i++) {
            bomb.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                bomb.append(j == 0 ? "" : ",").append("*a").append(i - 1);
            }
            bomb.append("]\n");
        }
        long start = System.nanoTime();
        long bytes = YamlInputLimitsTest.allocated(() -> assertThatThrownBy(() -> ConfigText.parseAll(bomb.toString()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("line 2").hasMessageContaining("YAML aliases (*a0)"));
        assertThat(bytes).isLessThan(16 << 20);
        assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L);
    }
}
