package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every record of the v1 corpus ({@code events/corpus/v1/NNN-<type>.bin}) still decodes, to
 * exactly what its {@code .json} says. This test only reads the corpus; it never writes it
 * ({@link CorpusGenerator} does, on request, and never over an existing {@code .bin}).
 */
class CorpusTest {

    @TestFactory
    Stream<DynamicTest> everyRecordDecodesToItsExpectedForm() {
        return Corpus.binFiles().stream().map(bin -> DynamicTest.dynamicTest(bin.getFileName().toString(), () -> {
            byte[] bytes = Files.readAllBytes(bin);
            Envelope e = EventCodec.decode(Corpus.offsetOf(bin), bytes);
            assertThat(Corpus.fileType(e.event().type())).as("type named by the file").isEqualTo(Corpus.name(bin).group(2));
            String expected = Files.readString(Corpus.jsonFor(bin), StandardCharsets.US_ASCII).replace("\r\n", "\n");
            assertThat(EnvelopePrinter.print(e)).as("%s decodes to %s", bin.getFileName(), Corpus.jsonFor(bin).getFileName())
                    .isEqualTo(expected);
            assertThat(EventCodec.peekType(bytes, 0, bytes.length)).isEqualTo(e.event().type());
            assertThat(EventCodec.peekRecordedAt(bytes, 0, bytes.length)).isEqualTo(e.recordedAt());
            // holds while this build writes format v1; a v2 writer will not reproduce v1 bytes
            assertThat(EventCodec.encode(e)).as("re-encoding is byte-identical").isEqualTo(bytes);
        }));
    }

    @Test
    void corpusCoversEveryEventTypeAndPairsEveryFile() throws IOException {
        List<Path> bins = Corpus.binFiles();
        assertThat(bins).as("events/corpus/v1 holds the v1 records").isNotEmpty();
        Set<EventType> covered = EnumSet.noneOf(EventType.class);
        for (Path bin : bins) {
            assertThat(Corpus.jsonFor(bin)).as("expected form of %s", bin.getFileName()).exists();
            covered.add(EventCodec.peekType(Files.readAllBytes(bin), 0, (int) Files.size(bin)));
        }
        assertThat(covered).containsExactlyInAnyOrder(EventType.values());
        try (Stream<Path> all = Files.list(Corpus.v1())) {
            for (Path p : all.toList()) {
                String f = p.getFileName().toString();
                assertThat(f).as("only NNN-<type>.bin/.json in the corpus").matches("\\d{3}-[a-z-]+\\.(bin|json)");
                if (f.endsWith(".json")) {
                    assertThat(p.resolveSibling(f.replace(".json", ".bin"))).as("a .json without its .bin").exists();
                }
            }
        }
    }

    @Test
    void theRealisticSliceIsAboutOneKilobyte() throws IOException {
        Path slice = Corpus.v1().resolve("006-endpoint-slice-observed.bin");
        assertThat(Files.size(slice)).isBetween(600L, 1400L);
    }
}
