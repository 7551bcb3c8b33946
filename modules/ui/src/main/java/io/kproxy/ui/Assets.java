package io.kproxy.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The page's files, resources of this module under {@code io/kproxy/ui/assets/}: the page, its
 * script and style, and uPlot (unpacked there from its WebJar by the build, see the module's
 * pom.xml). Only the names listed here are served, so a request can never read another resource.
 * Thread-safe; files are read once and cached.
 */
final class Assets {

    /** A file and its content type. */
    record Asset(byte[] bytes, String type) {
    }

    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/assets/ui.js", "ui.js",
            "/assets/ui.css", "ui.css",
            "/assets/uplot/uPlot.iife.min.js", "uplot/uPlot.iife.min.js",
            "/assets/uplot/uPlot.min.css", "uplot/uPlot.min.css",
            "/assets/uplot/LICENSE", "uplot/LICENSE");
    private final Map<String, Asset> cache = new ConcurrentHashMap<>();

    Optional<Asset> get(String path) {
        String file = FILES.get(path);
        if (file == null) {
            return Optional.empty();
        }
        return Optional.of(cache.computeIfAbsent(file, Assets::load));
    }

    private static Asset load(String file) {
        try (InputStream in = Assets.class.getResourceAsStream("assets/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the ui jar lacks assets/" + file + " (a broken build)");
            }
            return new Asset(in.readAllBytes(), type(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String type(String file) {
        if (file.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (file.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (file.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "text/plain; charset=utf-8";
    }
}
