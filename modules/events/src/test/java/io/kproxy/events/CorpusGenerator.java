package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes the v1 corpus. Not a test of anything: it runs only when asked, and it never rewrites
 * a {@code .bin} that exists (those bytes are the compatibility contract; see
 * {@code events/corpus/README.md}).
 *
 * <ul>
 *   <li>{@code ./mvnw -q -pl modules/events -am verify -Dtest=CorpusGenerator -Dsurefire.failIfNoSpecifiedTests=false -Dcorpus.generate=true}
 *       writes the {@link CorpusRecords} entries whose {@code .bin} is missing, each with its
 *       {@code .json}.</li>
 *   <li>{@code ... -Dcorpus.regenerateJson=true} rewrites every {@code .json} from its
 *       {@code .bin} (after an event record gained a field: review the diff).</li>
 * </ul>
 */
class CorpusGenerator {

    @Test
    @EnabledIfSystemProperty(named = "corpus.generate", matches = "true")
    void writeMissingRecords() throws IOException {
        Path dir = Corpus.v1();
        Files.createDirectories(dir);
        for (CorpusRecords.Entry e : CorpusRecords.all()) {
            Path bin = dir.resolve(e.name() + ".bin");
            if (Files.exists(bin)) {
                continue;
            }
            assertThat(e.name()).endsWith(Corpus.fileType(e.envelope().event().type()));
            byte[] bytes = EventCodec.encode(e.envelope());
            Files.write(bin, bytes);
            Envelope decoded = EventCodec.decode(Corpus.offsetOf(bin), bytes);
            Files.writeString(Corpus.jsonFor(bin), EnvelopePrinter.print(decoded), StandardCharsets.US_ASCII);
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "corpus.regenerateJson", matches = "true")
    void rewriteExpectedJsonFromTheBinaries() throws IOException {
        for (Path bin : Corpus.binFiles()) {
            Envelope decoded = EventCodec.decode(Corpus.offsetOf(bin), Files.readAllBytes(bin));
            Files.writeString(Corpus.jsonFor(bin), EnvelopePrinter.print(decoded), StandardCharsets.US_ASCII);
        }
    }
}
