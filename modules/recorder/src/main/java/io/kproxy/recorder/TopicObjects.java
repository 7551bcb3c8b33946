package io.kproxy.recorder;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.TopicImage;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.ObjectFingerprint;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The topic's state as the recorder needs it: folded from the newest snapshot and the records
 * after it ({@link #fold}), and as the source's {@link KnownObjects} (a fingerprint of every
 * object's latest observation), so that a new leader's relist appends only what differs from the
 * topic, as a restarted node source does from its journal. Blocks on the broker.
 */
final class TopicObjects {

    private static final int PAGE = 1024;

    private TopicObjects() {
    }

    /** The image of everything the topic holds: the newest usable snapshot plus every record after it. */
    static TopicImage fold(KafkaEventLog topic) {
        Optional<Snapshot> snap = topic.snapshotAtOrBefore(Long.MAX_VALUE);
        TopicImage image = snap.map(s -> TopicImage.decode(s.offset(), s.data())).orElseGet(TopicImage::new);
        return advance(topic, image);
    }

    /** Folds the records after the image's offset into it, up to the topic's end. */
    static TopicImage advance(KafkaEventLog topic, TopicImage image) {
        long from = image.offset() + 1;
        LogPages pages = LogPages.refusing(topic, from, Long.MAX_VALUE, PAGE);
        while (pages.hasNext()) {
            for (Envelope e : pages.next()) {
                image.apply(e);
            }
        }
        return image;
    }

    /** What the source must not append again: each object's fingerprint, and the kinds that synced. */
    static KnownObjects known(TopicImage image) {
        Map<ResourceKind, Map<String, ObjectFingerprint>> objects = new EnumMap<>(ResourceKind.class);
        for (ResourceKind k : ResourceKind.values()) {
            Map<String, ObjectFingerprint> m = new HashMap<>();
            for (Map.Entry<String, ClusterEvent> o : image.objects(k).entrySet()) {
                m.put(o.getKey(), ObjectFingerprint.of(TopicImage.object(o.getValue())));
            }
            objects.put(k, m);
        }
        return KnownObjects.of(objects, image.synced());
    }

}
