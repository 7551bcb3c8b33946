package io.kproxy.bench.history;

import io.kproxy.ui.UiServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code kproxy ui} over a large journal (docs/benchmarks.md, "kproxy ui"): a {@link ChurnJournal}
 * (by default the 1,000,000 records of {@link TimeTravelFoldBench}), served by {@link UiServer} on
 * loopback, asked over HTTP what the page asks. Prints how long the server's index took to build,
 * the first page load (the page's own requests: summary, then the timeline and the marks, then the
 * Service list), a zoom, a swimlane, and clicks on moments (a mark's record, a random time), each
 * p50 / p90 / max in milliseconds, with the heap the index holds.
 *
 * <pre>
 * java -cp ... io.kproxy.bench.history.UiApiBench [--records 1000000] [--services 10000] [--endpoints 5] [--samples 20] [--seed 7] [--dir /tmp]
 * </pre>
 */
public final class UiApiBench {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private UiApiBench() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        java.util.Map<String, String> o = new java.util.TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        ChurnJournal.Params p = new ChurnJournal.Params(Integer.parseInt(o.getOrDefault("services", "10000")),
                Integer.parseInt(o.getOrDefault("endpoints", "5")), Integer.parseInt(o.getOrDefault("records", "1000000")), 0, 20, 7);
        int samples = Integer.parseInt(o.getOrDefault("samples", "20"));
        ChurnJournal.Built j = ChurnJournal.cached(Path.of(o.getOrDefault("dir", System.getProperty("java.io.tmpdir"))), p);
        System.out.printf("journal %s: %s%n", j.dir(), j.reused() ? "reused" : "built in " + j.buildTime().toSeconds() + " s");
        long t0 = System.nanoTime();
        try (UiServer server = UiServer.forJournal(j.dir(), new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            if (!server.awaitIndexed(Duration.ofMinutes(30))) {
                throw new IllegalStateException("index not built in 30 minutes");
            }
            System.out.printf("index built: %.1f s%n", (System.nanoTime() - t0) / 1e9);
            System.gc();
            Runtime rt = Runtime.getRuntime();
            System.out.printf("heap used after the index (after a GC): %d MB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
            String base = "http://127.0.0.1:" + server.address().getPort();
            String summary = get(base + "/api/summary");
            long first = number(summary, "first");
            long last = number(summary, "last");
            System.out.println("summary: " + summary.substring(0, Math.min(200, summary.length())));
            List<Double> load = new ArrayList<>();
            List<Double> zoom = new ArrayList<>();
            List<Double> lane = new ArrayList<>();
            List<Double> clickMark = new ArrayList<>();
            List<Double> clickTime = new ArrayList<>();
            SplittableRandom rnd = new SplittableRandom(7);
            List<Long> marks = new ArrayList<>();
            Matcher m = Pattern.compile("\"offset\":(\\d+)").matcher(get(base + "/api/marks?limit=400"));
            while (m.find()) {
                marks.add(Long.parseLong(m.group(1)));
            }
            for (int i = 0; i < samples; i++) {
                load.add(timed(() -> {
                    get(base + "/api/summary");
                    get(base + "/api/timeline?buckets=400");
                    get(base + "/api/marks?limit=400");
                    get(base + "/api/services?limit=30");
                }));
                long from = first + rnd.nextLong(Math.max(1, last - first - 600_000));
                zoom.add(timed(() -> {
                    get(base + "/api/timeline?buckets=400&from=" + from + "&to=" + (from + 600_000));
                    get(base + "/api/marks?limit=400&from=" + from + "&to=" + (from + 600_000));
                }));
                lane.add(timed(() -> {
                    Matcher found = Pattern.compile("\"service\":\"([^\"]+)\"").matcher(get(base + "/api/services?q=" + rnd.nextInt(10) + "&limit=30"));
                    if (found.find()) {
                        get(base + "/api/lane?service=" + found.group(1) + "&points=600");
                    }
                }));
                long record = marks.isEmpty() ? 0 : marks.get(rnd.nextInt(marks.size()));
                clickMark.add(timed(() -> get(base + "/api/moment?record=" + record)));
                Instant at = Instant.ofEpochMilli(first + rnd.nextLong(last - first));
                clickTime.add(timed(() -> get(base + "/api/moment?at=" + at)));
            }
            report("first page load (summary, timeline 400 buckets, marks, Service list)", load);
            report("zoom to 10 minutes (timeline + marks)", zoom);
            report("Service search and its swimlane", lane);
            report("click on a mark (moment: sync found, state rebuilt, rendered, diffed)", clickMark);
            report("click on a random time (moment)", clickTime);
        }
    }

    private interface Call {
        void run() throws IOException, InterruptedException;
    }

    private static double timed(Call c) throws IOException, InterruptedException {
        long t = System.nanoTime();
        c.run();
        return (System.nanoTime() - t) / 1e6;
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 404) {
            throw new IllegalStateException(url + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + key + " in " + json);
        }
        return Long.parseLong(m.group(1));
    }

    private static void report(String what, List<Double> ms) {
        List<Double> s = new ArrayList<>(ms);
        Collections.sort(s);
        System.out.printf("%-75s first %8.1f  p50 %8.1f  p90 %8.1f  max %8.1f ms%n", what, ms.getFirst(), s.get(s.size() / 2),
                s.get((int) Math.min(s.size() - 1, Math.ceil(s.size() * 0.9) - 1)), s.getLast());
    }
}
