package io.kproxy.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ListPagesTest {

    private final AtomicLong now = new AtomicLong();
    private final ListPages pages = new ListPages(2, Duration.ofMinutes(5), now::get);
    private final List<String> items = IntStream.range(0, 7).mapToObj(i -> "{\"i\":" + i + "}").toList();

    @Test
    void pagesCoverTheSnapshotOnceAtTheFirstPagesVersion() {
        List<String> seen = new ArrayList<>();
        ListPages.Page p = pages.first(new ArrayList<>(items), 42, 3);
        String body = text(p);
        seen.add(body);
        int calls = 1;
        while (p.more()) {
            String token = ClusterSimulator.continueToken(body).orElseThrow();
            p = pages.next(token, 3).orElseThrow();
            body = text(p);
            seen.add(body);
            calls++;
        }
        assertThat(calls).isEqualTo(3);
        assertThat(seen).allSatisfy(b -> assertThat(b).contains("\"resourceVersion\": \"42\""));
        assertThat(String.join("", seen)).contains(items.toArray(String[]::new));
        assertThat(seen.get(2)).contains("{\"i\":6}").doesNotContain("continue");
        assertThat(pages.openSnapshots()).as("the last page closes the snapshot").isZero();
    }

    @Test
    void withoutALimitOnePageHoldsEverything() {
        ListPages.Page p = pages.first(items, 7, 0);
        assertThat(p.more()).isFalse();
        assertThat(text(p)).startsWith("{\"apiVersion\":\"v1\",\"kind\":\"List\", \"items\": [{\"i\":0},{\"i\":1}")
                .endsWith("{\"i\":6}], \"metadata\": {\"resourceVersion\": \"7\", \"selfLink\": \"\"}}");
        assertThat(pages.openSnapshots()).isZero();
    }

    @Test
    void anOldUnknownOrEvictedTokenIsExpired() {
        String old = ClusterSimulator.continueToken(text(pages.first(items, 1, 2))).orElseThrow();
        now.addAndGet(Duration.ofMinutes(5).plusMillis(1).toNanos());
        assertThat(pages.next(old, 2)).as("older than the compaction interval").isEmpty();

        String first = ClusterSimulator.continueToken(text(pages.first(items, 2, 2))).orElseThrow();
        pages.first(items, 3, 2);
        pages.first(items, 4, 2);
        assertThat(pages.next(first, 2)).as("evicted: at most two open").isEmpty();
        assertThat(pages.next("not-a-token", 2)).isEmpty();
        assertThat(pages.next(ListPages.encode(99, 0), 2)).isEmpty();
    }

    @Test
    void tokensRoundTripAndRefuseForeignOnes() {
        assertThat(ListPages.decode(ListPages.encode(12, 500))).containsExactly(12, 500);
        assertThat(ListPages.decode("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTJ9")).as("an API server's token").isNull();
        assertThat(ListPages.decode(ListPages.encode(-1, 0))).isNull();
    }

    private static String text(ListPages.Page p) {
        return new String(p.body(), StandardCharsets.UTF_8);
    }
}
