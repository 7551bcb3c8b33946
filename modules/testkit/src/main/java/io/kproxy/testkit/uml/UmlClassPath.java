package io.kproxy.testkit.uml;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * This JVM's class and module path as one class path the guest can read: every entry of
 * {@code jdk.module.path} and {@code java.class.path}, a jar whose manifest names a
 * {@code Class-Path} (surefire's booter jar) replaced by those entries, and entries under the
 * host's {@code /tmp} (hidden in the guest by its tmpfs) named where the guest sees them,
 * {@link UmlInit#HOST_TMP}: a checkout under {@code /tmp} runs as well as one anywhere else.
 */
final class UmlClassPath {

    private UmlClassPath() {
    }

    static List<String> current() {
        Set<String> out = new LinkedHashSet<>();
        for (String prop : List.of("jdk.module.path", "java.class.path")) {
            String v = System.getProperty(prop, "");
            for (String e : v.split(java.io.File.pathSeparator)) {
                if (!e.isEmpty()) {
                    add(Path.of(e).toAbsolutePath().normalize(), out, 0);
                }
            }
        }
        return new ArrayList<>(out);
    }

    private static void add(Path entry, Set<String> out, int depth) {
        if (depth < 3 && entry.toString().endsWith(".jar") && Files.isRegularFile(entry)) {
            for (Path p : manifestClassPath(entry)) {
                add(p, out, depth + 1);
            }
        }
        out.add(inGuest(entry).toString());
    }

    /** Where the guest sees the host's {@code p}. */
    static Path inGuest(Path p) {
        Path tmp = Path.of("/tmp");
        return p.startsWith(tmp) ? Path.of(UmlInit.HOST_TMP).resolve(tmp.relativize(p)) : p;
    }

    private static List<Path> manifestClassPath(Path jar) {
        List<Path> out = new ArrayList<>();
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
            if (cp == null) {
                return out;
            }
            for (String e : cp.trim().split("\\s+")) {
                if (e.isEmpty()) {
                    continue;
                }
                Path p = e.startsWith("file:") ? Path.of(URI.create(e)) : jar.resolveSibling(e);
                out.add(p.toAbsolutePath().normalize());
            }
        } catch (IOException | IllegalArgumentException e) {
            // Not a jar we can read: keep the entry itself only.
        }
        return out;
    }
}
