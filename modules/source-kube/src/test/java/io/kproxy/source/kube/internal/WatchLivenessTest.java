package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ResourceKind;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WatchLivenessTest {

    private final AtomicLong now = new AtomicLong(0);

    @Test
    void timeoutSecondsSpanOnceToTwiceTheMinimumAsClientGosReflector() {
        assertThat(new WatchLiveness(Duration.ofMinutes(5), now::get, () -> 0.0).watchRequested(ResourceKind.NODE)).isEqualTo(300);
        assertThat(new WatchLiveness(Duration.ofMinutes(5), now::get, () -> 0.5).watchRequested(ResourceKind.NODE)).isEqualTo(450);
        assertThat(new WatchLiveness(Duration.ofMinutes(5), now::get, () -> 0.999).watchRequested(ResourceKind.NODE)).isEqualTo(599);
    }

    @Test
    void theDeadlineIsATenthPastTheTimeoutAtLeastFiveSeconds() {
        assertThat(new WatchLiveness(Duration.ofMinutes(5), now::get, () -> 0.0).slack()).isEqualTo(Duration.ofSeconds(30));
        WatchLiveness l = new WatchLiveness(Duration.ofSeconds(10), now::get, () -> 0.0);
        assertThat(l.slack()).isEqualTo(Duration.ofSeconds(5));
        l.watchRequested(ResourceKind.SERVICE);
        assertThat(l.pastDeadline(ResourceKind.SERVICE, Duration.ofSeconds(15).toNanos())).isFalse();
        assertThat(l.pastDeadline(ResourceKind.SERVICE, Duration.ofSeconds(16).toNanos())).isTrue();
        assertThat(l.pastDeadline(ResourceKind.NODE, Duration.ofSeconds(16).toNanos())).as("another kind").isFalse();
        l.relisted(ResourceKind.SERVICE);
        assertThat(l.pastDeadline(ResourceKind.SERVICE, Duration.ofSeconds(16).toNanos())).isFalse();
    }

    @Test
    void goneCountsFromWhenItWasSaid() {
        WatchLiveness l = new WatchLiveness(Duration.ofSeconds(10), now::get, () -> 0.0);
        now.set(100);
        l.gone(ResourceKind.SERVICE);
        assertThat(l.goneSince(ResourceKind.SERVICE, 50)).isTrue();
        assertThat(l.goneSince(ResourceKind.SERVICE, 150)).isFalse();
        l.relisted(ResourceKind.SERVICE);
        assertThat(l.goneSince(ResourceKind.SERVICE, 50)).isFalse();
    }

    @Test
    void theWatchRequestsTimeoutSecondsIsReplacedOrAdded() {
        assertThat(RequestObserver.withTimeout(URI.create("http://h:1/api/v1/services?allowWatchBookmarks=true&timeoutSeconds=600&watch=true"), 321))
                .hasToString("http://h:1/api/v1/services?allowWatchBookmarks=true&watch=true&timeoutSeconds=321");
        assertThat(RequestObserver.withTimeout(URI.create("http://h:1/api/v1/nodes"), 7)).hasToString("http://h:1/api/v1/nodes?timeoutSeconds=7");
    }
}
