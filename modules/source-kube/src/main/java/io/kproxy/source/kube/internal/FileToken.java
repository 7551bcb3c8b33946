package io.kproxy.source.kube.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A token read from a file and re-read as client-go does
 * ({@code staging/src/k8s.io/client-go/transport/token_source.go}: {@code NewCachedFileTokenSource}):
 * the content is trimmed ({@code strings.TrimSpace}), an empty file is an error, the value is
 * kept for {@link #PERIOD} and read again after it (the kubelet rotates projected service
 * account tokens in place), and at once after {@link #expire()} (a 401). When a re-read fails
 * but an earlier read succeeded, the earlier token is used and the failure logged once per
 * episode, as client-go's {@code cachingTokenSource} does; with no earlier token, the failure is
 * thrown. Thread-safe (synchronized); {@link #getToken()} reads the file when due.
 */
public final class FileToken implements TokenSource {

    /** client-go re-reads the token file every minute ({@code fileTokenSource.period}). */
    public static final Duration PERIOD = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(FileToken.class);

    private final Path path;
    private final LongSupplier nanoTime;
    private String token;
    private long readAt;
    private boolean failing;

    public FileToken(Path path, LongSupplier nanoTime) {
        this.path = path;
        this.nanoTime = nanoTime;
    }

    public FileToken(Path path) {
        this(path, System::nanoTime);
    }

    /** Reads the file now (for validation at start); throws {@link CredentialException} when it cannot. */
    public static String readOnce(Path path) {
        try {
            return TokenSource.checked(Files.readString(path, StandardCharsets.UTF_8), "token file " + path);
        } catch (IOException e) {
            throw new CredentialException("cannot read token file " + path + ": " + IoReason.of(e), e);
        }
    }

    @Override
    public synchronized String getToken() {
        long now = nanoTime.getAsLong();
        if (token != null && now - readAt < PERIOD.toNanos()) {
            return token;
        }
        try {
            String fresh = readOnce(path);
            if (token != null && !fresh.equals(token)) {
                LOG.info("decision=rotate-token source=\"tokenFile {}\"", path);
            }
            if (failing) {
                LOG.info("decision=token-file-readable-again path={}", path);
            }
            token = fresh;
            readAt = now;
            failing = false;
            return token;
        } catch (CredentialException e) {
            if (token == null) {
                throw e;
            }
            if (!failing) {
                LOG.warn("decision=keep-previous-token reason=\"{}\"", e.getMessage());
                failing = true;
            }
            readAt = now;
            return token;
        }
    }

    @Override
    public synchronized void expire() {
        readAt = nanoTime.getAsLong() - PERIOD.toNanos();
    }

    @Override
    public String describe() {
        return "tokenFile " + path;
    }

    @Override
    public String toString() {
        return "FileToken[" + path + "]";
    }
}
