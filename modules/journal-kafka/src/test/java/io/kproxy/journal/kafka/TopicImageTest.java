package io.kproxy.journal.kafka;

import static io.kproxy.testkit.EndpointSliceFixture.slice;
import static io.kproxy.testkit.NodeFixture.node;
import static io.kproxy.testkit.ServiceFixture.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopicImageTest {

    private static TopicImage fold(ClusterEvent... events) {
        TopicImage image = new TopicImage();
        for (int i = 0; i < events.length; i++) {
            image.apply(new Envelope(i, Instant.EPOCH, "source/kube", events[i]));
        }
        return image;
    }

    @Test
    void keepsTheLatestObservationOfEachLiveObject() {
        TopicImage image = fold(service("ns", "a").resourceVersion("1").observed(), service("ns", "b").observed(),
                service("ns", "a").resourceVersion("2").observed(), new ServiceDeleted(service("ns", "b").ref(), "3", false),
                new SourceSynced(ResourceKind.SERVICE, "3"));
        assertThat(image.objects(ResourceKind.SERVICE)).containsOnlyKeys("ns/a");
        assertThat(((io.kproxy.events.ServiceObserved) image.objects(ResourceKind.SERVICE).get("ns/a")).resourceVersion()).isEqualTo("2");
        assertThat(image.synced()).containsExactly(ResourceKind.SERVICE);
        assertThat(image.offset()).isEqualTo(4);
    }

    @Test
    void aRelistDropsWhatVanished() {
        TopicImage image = fold(service("ns", "a").observed(), service("ns", "b").observed(),
                new SourceRelisted(ResourceKind.SERVICE, "9", Set.of("ns/b")));
        assertThat(image.objects(ResourceKind.SERVICE)).containsOnlyKeys("ns/b");
    }

    @Test
    void aSnapshotRoundTripsAndEndsWithOneRelistPerSyncedKind() {
        TopicImage image = fold(service("ns", "a").observed(), slice("ns", "a-1", "a").endpoint("10.0.0.1").observed(),
                node("n1").observed(), node("n2").observed(), new SourceSynced(ResourceKind.SERVICE, "5"),
                new SourceSynced(ResourceKind.NODE, "6"));
        TopicImage back = TopicImage.decode(41, image.encode());
        assertThat(back.offset()).isEqualTo(41);
        assertThat(back.events()).isEqualTo(image.events());
        List<ClusterEvent> events = image.events();
        assertThat(events.subList(events.size() - 2, events.size())).containsExactly(
                new SourceRelisted(ResourceKind.SERVICE, "5", Set.of("ns/a")), new SourceRelisted(ResourceKind.NODE, "6", Set.of("n1", "n2")));
    }

    @Test
    void dataThatIsNoSnapshotIsRefused() {
        assertThatThrownBy(() -> TopicImage.decode(0, new byte[] {0, 0, 0, 2, 0, 0, 0, 9, 1})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("claims 9 bytes");
        assertThatThrownBy(() -> fold(service("ns", "a").observed()).apply(new Envelope(0, Instant.EPOCH, "s", service("ns", "b").observed())))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
