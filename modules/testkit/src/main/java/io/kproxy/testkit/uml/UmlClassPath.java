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
 * {@code Class-Path} (surefire's booter jar) replaced by those entries, and entries under
 * {@code /tmp} dropped, since the guest's tmpfs hides them (surefire keeps only its own booter
 * files there, which a main class does not need).
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
        if (!visibleInGuest(entry)) {
            return;
        }
        out.add(entry.toString());
    }

    static boolean visibleInGuest(Path p) {
        return !p.startsWith("/tmp");
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
