package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The deferred executor opens nothing until its first script, and nothing after its close. */
class NftExecutorsTest {

    @Test
    void aDeferredExecutorIsClosedWithoutEverOpening() {
        NftExecutor deferred = NftExecutors.deferred(Optional.of("kp-never-created"));
        assertThat(deferred.kind()).isEqualTo(NftExecutors.DEFERRED);
        deferred.close();
        deferred.close();
        assertThat(deferred.kind()).isEqualTo(NftExecutors.DEFERRED);
        assertThatThrownBy(() -> deferred.run("list tables", false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
