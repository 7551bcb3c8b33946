package io.kproxy.kafka.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child JVM's class path: the jars the build wrote into {@code broker.classpath} (the
 * broker's runtime dependencies, in the local Maven repository) plus this fixture's own classes.
 */
final class BrokerClassPath {

    private BrokerClassPath() {
    }

    static String get() {
        try (InputStream in = BrokerClassPath.class.getResourceAsStream("broker.classpath")) {
            if (in == null) {
                throw new IllegalStateException("broker.classpath is missing: kafka-testkit was not built by Maven");
            }
            String jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            Path self = Path.of(BrokerClassPath.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return self + File.pathSeparator + jars;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
