package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTokenTest {

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong();

    @Test
    void trimsAndRereadsEveryMinuteAndAfterExpire() throws IOException {
        Path f = dir.resolve("token");
        Files.writeString(f, "one\n");
        FileToken t = new FileToken(f, now::get);
        assertThat(t.getToken()).isEqualTo("one");
        Files.writeString(f, "two\n");
        now.addAndGet(FileToken.PERIOD.toNanos() - 1);
        assertThat(t.getToken()).as("still within the period").isEqualTo("one");
        now.addAndGet(1);
        assertThat(t.getToken()).as("the kubelet rotated it").isEqualTo("two");
        Files.writeString(f, "three");
        t.expire();   // a 401
        assertThat(t.getToken()).isEqualTo("three");
    }

    @Test
    void keepsThePreviousTokenWhenTheFileGoesAndFailsWithoutOne() throws IOException {
        Path f = dir.resolve("token");
        Files.writeString(f, "one\n");
        FileToken t = new FileToken(f, now::get);
        assertThat(t.getToken()).isEqualTo("one");
        Files.delete(f);
        t.expire();
        assertThat(t.getToken()).isEqualTo("one");
        assertThatThrownBy(() -> new FileToken(f, now::get).getToken()).isInstanceOf(CredentialException.class)
                .hasMessage("cannot read token file " + f + ": no such file");
    }

    @Test
    void refusesEmptyAndMultiLineTokensWithoutQuotingThem() throws IOException {
        Path f = dir.resolve("token");
        Files.writeString(f, " \n\t\n");
        assertThatThrownBy(() -> FileToken.readOnce(f)).hasMessage("token file " + f + " holds an empty token");
        Files.writeString(f, "secret-part-one\nsecret-part-two\n");
        assertThatThrownBy(() -> FileToken.readOnce(f)).hasMessageContaining("control character at position 15")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }
}
