package io.kproxy.kafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.kafka.testkit.BrokerSelection.Kind;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The one place that picks the tests' broker: Testcontainers with a Docker engine, else the KRaft child JVM; the override. */
class BrokerSelectionTest {

    private final AtomicInteger dockerChecks = new AtomicInteger();

    private BooleanSupplier docker(boolean answers) {
        return () -> {
            dockerChecks.incrementAndGet();
            return answers;
        };
    }

    @Test
    void autoUsesTestcontainersOnlyWhenADockerEngineAnswers() {
        assertThat(BrokerSelection.choose(Optional.empty(), true, docker(true)).kind()).isEqualTo(Kind.TESTCONTAINERS);
        BrokerSelection.Choice none = BrokerSelection.choose(Optional.of("auto"), true, docker(false));
        assertThat(none.kind()).isEqualTo(Kind.KRAFT_PROCESS);
        assertThat(none.reason()).isEqualTo("no Docker engine answers");
        assertThat(dockerChecks).hasValue(2);
    }

    @Test
    void withoutTestcontainersOnTheClassPathDockerIsNotEvenAsked() {
        BrokerSelection.Choice c = BrokerSelection.choose(Optional.empty(), false, docker(true));
        assertThat(c.kind()).isEqualTo(Kind.KRAFT_PROCESS);
        assertThat(c.reason()).isEqualTo("Testcontainers is not on the class path");
        assertThat(dockerChecks).hasValue(0);
    }

    @Test
    void theOverrideForcesKraftOrRequiresDocker() {
        assertThat(BrokerSelection.choose(Optional.of(" kraft "), true, docker(true)).kind()).isEqualTo(Kind.KRAFT_PROCESS);
        assertThat(dockerChecks).hasValue(0);
        assertThat(BrokerSelection.choose(Optional.of("testcontainers"), true, docker(true)).kind()).isEqualTo(Kind.TESTCONTAINERS);
        assertThatThrownBy(() -> BrokerSelection.choose(Optional.of("testcontainers"), true, docker(false)))
                .hasMessage("kproxy.kafka.broker=testcontainers but no Docker engine answers");
        assertThatThrownBy(() -> BrokerSelection.choose(Optional.of("testcontainers"), false, docker(true)))
                .hasMessageContaining("not on the class path");
        assertThatThrownBy(() -> BrokerSelection.choose(Optional.of("podman"), true, docker(true)))
                .hasMessage("kproxy.kafka.broker=podman: expected auto, kraft or testcontainers");
    }

    @Test
    void thisJvmsChoiceIsMadeOnceAndIsARealBroker() {
        BrokerSelection.Choice first = BrokerSelection.current();
        assertThat(BrokerSelection.current()).isSameAs(first);
        // Testcontainers is on this module's test class path, so auto asked the Docker engine.
        assertThat(first.reason()).isIn("a Docker engine answers", "no Docker engine answers", "kproxy.kafka.broker=kraft",
                "kproxy.kafka.broker=testcontainers");
    }
}
