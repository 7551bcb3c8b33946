package io.kproxy.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON API over events/samples/cluster-hour (its story: events/samples/README.md): what the
 * timeline, marks, lanes and moments answer, that every installed backend renders, and that
 * malformed requests get 400 with a reason and nothing but GET is served.
 */
class UiApiTest {

    private static UiServer server;
    private static Http http;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        server = Journals.serve(Journals.CLUSTER_HOUR);
        http = new Http(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String ok(String path) {
        HttpResponse<String> r = http.get(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(v -> assertThat(v).contains("default-src 'self'"));
        return r.body();
    }

    private static long sum(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\\[([0-9,]*)]").matcher(json);
        assertThat(m.find()).as(key).isTrue();
        long n = 0;
        for (String v : m.group(1).split(",")) {
            n += v.isEmpty() ? 0 : Long.parseLong(v);
        }
        return n;
    }

    @Test
    void summaryNamesTheJournal() {
        assertThat(ok("/api/summary")).contains("\"records\":1576", "\"lostRecords\":0", "\"services\":302", "\"indexing\":false",
                "\"first\":" + java.time.Instant.parse("2026-11-22T03:00:00Z").toEpochMilli(), "\"nftables\"", "\"iptables\"", "\"ipvs\"");
    }

    @Test
    void timelineBucketsHoldEveryRecordOnce() {
        String t = ok("/api/timeline?buckets=120");
        long all = 0;
        for (Category c : Category.values()) {
            all += sum(t, c.key());
        }
        assertThat(all).isEqualTo(1576);
        assertThat(sum(t, "fullSyncs")).isPositive();
        // zoomed to the outage's minute: the bad edit, its slices and the syncs after it
        String zoom = ok("/api/timeline?from=2026-11-22T03:12:00Z&to=2026-11-22T03:13:00Z&buckets=60");
        assertThat(sum(zoom, "observations")).isGreaterThanOrEqualTo(5);
        assertThat(sum(zoom, "partialSyncs")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void marksShowTheOutageTheQuietSourceAndTheRelist() {
        String m = ok("/api/marks");
        assertThat(m).contains("{\"kind\":\"service-changed\",\"start\":" + java.time.Instant.parse("2026-11-22T03:12:04.500Z").toEpochMilli()
                + ",\"end\":" + java.time.Instant.parse("2026-11-22T03:12:04.500Z").toEpochMilli() + ",\"offset\":853,\"service\":\"shop/checkout\"");
        assertThat(m).contains("\"kind\":\"relist\"", "\"offset\":1123", "\"offset\":1140", "the source was quiet for 274 s");
        assertThat(m).contains("\"offset\":1376,\"service\":\"shop/checkout\""); // the fix
        assertThat(m).doesNotContain("\"kind\":\"damaged\"", "failed-sync");
        assertThat(ok("/api/marks?limit=2")).contains("\"dropped\":4");
    }

    @Test
    void aMarkOpensTheSyncThatProgrammedItWithItsCauses() {
        String moment = ok("/api/moment?record=853");
        assertThat(moment).contains("\"sync\":{\"offset\":855", "\"previous\":{\"offset\":852", "\"rollback\":false",
                "== shop/checkout", "10.0.1.11 . 8081", "caused by:",
                "#853 2026-11-22T03:12:04.500Z ServiceObserved shop/checkout rv 184779",
                "ruleset hash 5b8f00000a18 equals the one the sync recorded");
        // by time: what was programmed at 03:12:07, the sync of 03:12:06.004 that sent everything to 8081
        assertThat(ok("/api/moment?at=2026-11-22T03:12:07Z")).contains("\"sync\":{\"offset\":859", "records up to #858",
                "EndpointSliceDeleted shop/checkout-46mn5");
    }

    @ParameterizedTest
    @ValueSource(strings = {"nftables", "iptables", "ipvs"})
    void everyInstalledBackendRendersTheMoment(String mode) {
        String moment = ok("/api/moment?record=853&mode=" + mode);
        assertThat(moment).contains("\"mode\":\"" + mode + "\"", "== shop/checkout", "caused by:", "ServiceObserved shop/checkout");
        assertThat(ok("/api/ruleset?record=853&mode=" + mode + "&grep=10.0.1.11&limit=5")).contains("\"mode\":\"" + mode + "\"", "10.0.1.11");
    }

    @Test
    void lanesAndSearchAndAudit() {
        assertThat(ok("/api/services?q=checkout")).contains("\"service\":\"shop/checkout\"");
        String lane = ok("/api/lane?service=shop/checkout");
        assertThat(lane).contains("\"ready\":[2,4,6,8,6,4,6,8,6,4]", "\"terminating\":[0,0,0,0,0,0,0,0,0,0]");
        assertThat(ok("/api/audit?service=shop/checkout")).contains("kproxy audit shop/checkout", "reached the kernel at");
        assertThat(ok("/api/ruleset?at=2026-11-22T03:12:07Z&explain=true&grep=shop/checkout")).contains("# shop/checkout: Service #853");
    }

    @Test
    void malformedRequestsGet400WithTheReason() {
        assertBad("/api/timeline?from=yesterday", "from: cannot read time");
        assertBad("/api/timeline?buckets=0", "buckets: 0 is out of range");
        assertBad("/api/timeline?from=2026-11-22T03:30:00Z&to=2026-11-22T03:00:00Z", "to must be after from");
        assertBad("/api/marks?limit=ten", "limit: \\\"ten\\\" is not a whole number");
        assertBad("/api/moment?record=853&at=now", "give exactly one of at");
        assertBad("/api/moment", "give exactly one of at");
        assertBad("/api/moment?record=853&mode=userspace", "no installed backend is called");
        assertBad("/api/lane?service=no-slash", "expected NAMESPACE/NAME");
        assertBad("/api/summary?x=1", "unknown parameter \\\"x\\\"");
        assertBad("/api/services?q=a&q=b", "parameter q is given twice");
        assertBad("/api/ruleset?record=853&explain=maybe", "explain: expected true or false");
        assertThat(http.get("/api/moment?at=2026-11-21T00:00:00Z").statusCode()).isEqualTo(404);
        assertThat(http.get("/api/moment?record=999999").statusCode()).isEqualTo(404);
        assertThat(http.get("/api/lane?service=shop/nothing").statusCode()).isEqualTo(404);
        assertThat(http.get("/api/nothing").statusCode()).isEqualTo(404);
        assertThat(http.get("/etc/passwd").statusCode()).isEqualTo(404);
        assertThat(http.get("/assets/../../module-info.class").statusCode()).isEqualTo(404);
    }

    private static void assertBad(String path, String reason) {
        HttpResponse<String> r = http.get(path);
        assertThat(r.statusCode()).as(path).isEqualTo(400);
        assertThat(r.body()).as(path).contains("\"status\":400", reason);
    }

    @Test
    void nothingButGetAndHeadIsServedAndOtherHostsAreRefused() {
        for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
            HttpResponse<String> r = http.send(method, "/api/summary");
            assertThat(r.statusCode()).as(method).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
        }
        assertThat(http.send("HEAD", "/").statusCode()).isEqualTo(200);
        assertThat(http.rawStatus("attacker.example:8080")).isEqualTo(421);
        assertThat(http.rawStatus("localhost:8080")).isEqualTo(200);
        assertThat(http.rawStatus("[::1]:8080")).isEqualTo(200);
        assertThat(http.rawStatus("127.0.0.1")).isEqualTo(200);
    }

    @Test
    void thePageAndItsLibraryComeFromTheJar() {
        assertThat(ok("/")).contains("<script src=\"/assets/uplot/uPlot.iife.min.js\"></script>").doesNotContain("http://", "https://");
        assertThat(ok("/assets/uplot/uPlot.iife.min.js")).contains("uPlot");
        assertThat(ok("/assets/ui.js")).contains("textContent");
    }

    @Test
    void aRollbackIsShownAsTheChangeItMade(@TempDir Path tmp) throws IOException, InterruptedException {
        try (UiServer pinned = Journals.serve(Journals.pinned(tmp.resolve("j")))) {
            Http h = new Http(pinned);
            String marks = h.get("/api/marks").body();
            Matcher pin = Pattern.compile("\"kind\":\"pin\",\"start\":\\d+,\"end\":\\d+,\"offset\":(\\d+)").matcher(marks);
            assertThat(pin.find()).as(marks).isTrue();
            assertThat(marks).contains("dataplane pinned to #852: roll back the checkout targetPort edit", "\"kind\":\"unpin\"");
            String moment = h.get("/api/moment?record=" + pin.group(1)).body();
            assertThat(moment).contains("\"rollback\":true", "\"pin\":{\"kind\":\"pin\"", "a rollback: dataplane pinned to #852",
                    "== shop/checkout", "undone by the rollback", "ServiceObserved shop/checkout rv 184779");
            // the rollback removed the 8081 backends and restored 8080
            assertThat(moment).containsPattern("\\\\n- add element ip kube-proxy endpoints-tcp-\\d+ \\{[^}]*8081");
            assertThat(moment).containsPattern("\\\\n\\+ add element ip kube-proxy endpoints-tcp-\\d+ \\{ \\d+-\\d+ : 10.0.1.11 . 8080");
        }
    }

    @Test
    void aDamagedJournalShowsWhatItCanAndMarksTheLoss(@TempDir Path tmp) throws IOException, InterruptedException {
        try (UiServer damaged = Journals.serve(Journals.damaged(tmp.resolve("j")))) {
            Http h = new Http(damaged);
            String summary = h.get("/api/summary").body();
            assertThat(summary).containsPattern("\"lostRecords\":[1-9]");
            String marks = h.get("/api/marks").body();
            assertThat(marks).contains("\"kind\":\"damaged\"", "are lost (damage)");
            // before the damage: answered; an answer that needs the lost records: 422 naming them
            assertThat(h.get("/api/moment?at=2026-11-22T03:05:00Z").statusCode()).isEqualTo(200);
            HttpResponse<String> lost = h.get("/api/moment?at=2026-11-22T03:20:00Z");
            assertThat(lost.statusCode()).as(lost.body()).isEqualTo(422);
            assertThat(lost.body()).contains("the answer needs offsets");
        }
    }
}
