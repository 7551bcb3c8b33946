package io.kproxy.ui;

import io.kproxy.testkit.KernelTests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * A real headless Chromium driven through chromedriver with the W3C WebDriver protocol
 * (https://www.w3.org/TR/webdriver2/) over the JDK's HTTP client: sessions, navigation, elements,
 * clicks, scripts and screenshots, nothing more. Chromium runs with a fresh profile and every
 * background service off, so it talks to nothing but the page under test.
 *
 * <p>{@link #start} skips the test with a message when {@code /usr/bin/chromium} or
 * {@code chromedriver} is missing, and fails it instead when {@code CI=true} or
 * {@code KPROXY_REQUIRE_KERNEL=1} ({@code .ci/run} installs both). Not thread-safe.
 */
final class WebDriver implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process driver;
    private final URI base;
    private final String session;

    private WebDriver(Process driver, URI base, String session) {
        this.driver = driver;
        this.base = base;
        this.session = session;
    }

    static WebDriver start(Path scratch) throws IOException, InterruptedException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String why = "browser test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", " + CHROMEDRIVER + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI")) || KernelTests.required()) {
                throw new AssertionFailedError(why + ": missing, and CI=true or " + KernelTests.REQUIRE_ENV + "=1 makes that a failure");
            }
            throw new TestAbortedException(why + "; skipped (apt-get install chromium chromium-driver)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = scratch.resolve("chromedriver.log");
        Process p = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port, "--allowed-ips=127.0.0.1")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        URI base = URI.create("http://127.0.0.1:" + port + "/");
        try {
            for (int i = 0; ; i++) { // bounded: 20 s
                try {
                    if (call("GET", base.resolve("status"), null).contains("\"ready\":true")) {
                        break;
                    }
                } catch (UncheckedIOException e) {
                    if (i >= 200) {
                        throw new IOException("chromedriver did not answer in 20 s: " + Files.readString(log), e);
                    }
                }
                Thread.sleep(100);
            }
            Path profile = Files.createTempDirectory(scratch, "chromium-profile");
            String args = String.join(",", List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
                    "--disable-default-apps", "--window-size=1400,2600", "--hide-scrollbars", "--user-data-dir=" + profile)
                    .stream().map(a -> "\"" + a + "\"").toList());
            String caps = "{\"capabilities\":{\"alwaysMatch\":{\"browserName\":\"chrome\",\"goog:chromeOptions\":{\"binary\":\"" + CHROMIUM
                    + "\",\"args\":[" + args + "]}}}}";
            String created = call("POST", base.resolve("session"), caps);
            Matcher m = Pattern.compile("\"sessionId\":\"([^\"]+)\"").matcher(created);
            if (!m.find()) {
                throw new IOException("chromedriver did not create a session: " + created);
            }
            return new WebDriver(p, base, m.group(1));
        } catch (IOException | RuntimeException | InterruptedException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    private static String call(String method, URI uri, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("WebDriver " + method + " " + uri.getPath() + ": " + r.statusCode() + " " + r.body());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String command(String method, String path, String body) {
        return call(method, base.resolve("session/" + session + "/" + path), body);
    }

    void open(String url) {
        command("POST", "url", "{\"url\":" + quote(url) + "}");
    }

    /** The element {@code css} selects (the first), failing when there is none. */
    String find(String css) {
        String r = command("POST", "element", "{\"using\":\"css selector\",\"value\":" + quote(css) + "}");
        Matcher m = Pattern.compile("\"" + ELEMENT + "\":\"([^\"]+)\"").matcher(r);
        if (!m.find()) {
            throw new AssertionFailedError("no element " + css + ": " + r);
        }
        return m.group(1);
    }

    /** A real click: the browser scrolls the element into view and sends the pointer events. */
    void click(String element) {
        command("POST", "element/" + element + "/click", "{}");
    }

    /** The value of a script's {@code return} as a string. */
    String script(String js) {
        return unquote(command("POST", "execute/sync", "{\"script\":" + quote("return String(" + js + ");") + ",\"args\":[]}"));
    }

    /** Polls {@code js} until it is true; bounded by {@code timeout}. */
    void waitFor(String js, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!script(js).equals("true")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionFailedError("timed out after " + timeout.toSeconds() + " s waiting for " + js);
            }
            Thread.sleep(100);
        }
    }

    /** A PNG of one element, written to {@code file}. */
    void screenshot(String element, Path file) throws IOException {
        String r = command("GET", "element/" + element + "/screenshot", null);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(unquote(r)));
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    /** The string of {@code {"value":"..."}}, JSON escapes undone. */
    private static String unquote(String response) {
        int start = response.indexOf("\"value\":\"");
        if (start < 0) {
            throw new IllegalStateException("not a string value: " + response);
        }
        StringBuilder b = new StringBuilder();
        for (int i = start + 9; i < response.length(); i++) {
            char c = response.charAt(i);
            if (c == '"') {
                return b.toString();
            }
            if (c == '\\') {
                char n = response.charAt(++i);
                switch (n) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(response.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    default -> b.append(n);
                }
            } else {
                b.append(c);
            }
        }
        throw new IllegalStateException("unterminated string: " + response);
    }

    @Override
    public void close() {
        try {
            call("DELETE", base.resolve("session/" + session), null);
        } catch (RuntimeException e) {
            // the browser is gone already; the driver goes below
        }
        driver.destroy();
        try {
            if (!driver.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                driver.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            driver.destroyForcibly();
        }
    }
}
