package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./kproxy ui} as an operator runs it, on the module path: the page, uPlot out of the ui
 * jar and a moment of the sample are served, and a SIGTERM stops it (docs/ui.md).
 */
class UiLaunchIT {

    @Test
    void theLauncherServesThePageItsLibraryAndAMoment() throws Exception {
        Process p = AgentProcess.builder(AgentProcess.command(List.of(), List.of("ui", "--journal",
                TimeTravelCommandsTest.SAMPLE.toAbsolutePath().toString(), "--listen", "127.0.0.1:0"))).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            for (int i = 0; line != null && !line.startsWith("kproxy ui: serving ") && i < 50; i++) {
                line = out.readLine(); // a JVM warning may come first; bounded, and by the process ending
            }
            assertThat(line).as("kproxy ui says where it serves").isNotNull().startsWith("kproxy ui: serving ");
            Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(line);
            assertThat(m.find()).as(line).isTrue();
            String base = "http://127.0.0.1:" + m.group(1);
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThat(get(client, base + "/")).contains("<title>kproxy ui</title>");
            assertThat(get(client, base + "/assets/uplot/uPlot.iife.min.js")).contains("uPlot");
            assertThat(get(client, base + "/api/moment?record=853")).contains("#853 2026-11-22T03:12:04.500Z ServiceObserved shop/checkout");
        } finally {
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("kproxy ui stops on SIGTERM").isTrue();
        }
    }

    private static String get(HttpClient client, String url) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return r.body();
    }
}
