package io.kproxy.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, see
 * {@link WebDriver}): over events/samples/cluster-hour an operator finds the 03:12 outage of
 * shop/checkout marked on the timeline, clicks it, and sees the diff with the records that caused
 * it; a link to that moment opens it again; a pinned rollback shows as the change it made; a
 * damaged journal shows what it can with the lost range marked. Screenshots of the timeline, a
 * diff and a swimlane go to {@code target/ui-screenshots/} (docs/ui.md shows them).
 */
class UiBrowserIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path SHOTS = Path.of(System.getProperty("kproxy.ui.screenshots", "target/ui-screenshots"));

    @TempDir
    static Path tmp;

    private static WebDriver browser;

    @BeforeAll
    static void startBrowser() throws IOException, InterruptedException {
        browser = WebDriver.start(tmp);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private static String url(UiServer server, String hash) {
        return "http://localhost:" + server.address().getPort() + "/" + hash;
    }

    private static void load(UiServer server, String hash) throws InterruptedException {
        browser.open(url(server, hash));
        browser.waitFor("document.body.dataset.ready === 'true'", WAIT);
    }

    @Test
    void theOutageIsMarkedAndItsDiffNamesTheRecordsThatCausedIt() throws IOException, InterruptedException {
        try (UiServer server = Journals.serve(Journals.CLUSTER_HOUR)) {
            load(server, "");
            assertThat(browser.script("document.querySelectorAll('#timeline canvas').length > 0")).isEqualTo("true");
            String outage = "#marks button[data-kind='service-changed'][data-service='shop/checkout'][data-offset='853']";
            assertThat(browser.script("document.querySelector(\"" + outage + "\").textContent"))
                    .contains("2026-11-22 03:12:04.500", "Service shop/checkout changed: spec.ports");
            assertThat(browser.script("document.querySelectorAll(\"#marks button[data-kind='relist']\").length")).isEqualTo("2");
            assertThat(browser.script("document.querySelectorAll(\"#marks button[data-kind='gap']\").length")).isEqualTo("1");
            browser.screenshot(browser.find("#timeline-section"), SHOTS.resolve("ui-timeline.png"));

            browser.click(browser.find(outage));
            browser.waitFor("document.getElementById('diff').dataset.state === 'loaded'", WAIT);
            String diff = browser.script("document.getElementById('diff').textContent");
            assertThat(diff).contains("== shop/checkout", "caused by:", "#853 2026-11-22T03:12:04.500Z ServiceObserved shop/checkout rv 184779",
                    "#854 2026-11-22T03:12:05.000Z EndpointSliceObserved shop/checkout-j6ts4");
            assertThat(diff).containsPattern("\\+ add element ip kube-proxy endpoints-tcp-\\d+ \\{[^}]*10.0.1.11 . 8081");
            assertThat(browser.script("document.querySelectorAll('#diff .cause').length")).isEqualTo("2");
            assertThat(browser.script("document.querySelector('#diff .svc').dataset.service")).isEqualTo("shop/checkout");
            assertThat(browser.script("document.getElementById('moment-summary').textContent"))
                    .contains("sync generation 72 (partial, nftables)", "equals the one the sync recorded");
            // the mark's Service got a swimlane
            browser.waitFor("document.querySelectorAll(\".lane[data-service='shop/checkout'] canvas\").length > 0", WAIT);
            browser.screenshot(browser.find("#moment"), SHOTS.resolve("ui-diff.png"));
            // search a namespace, open a Service that rolled its pods: ready, serving and terminating over the hour
            browser.click(browser.find("#search"));
            browser.script("(() => { const s = document.getElementById('search'); s.value = 'team-h/'; s.dispatchEvent(new Event('input')); return 1; })()");
            // the list answers the search: only team-h's Services, the most churned first
            browser.waitFor("(() => { const b = [...document.querySelectorAll('#services button')];"
                    + " return b.length > 0 && b.every(x => x.dataset.service.startsWith('team-h/')); })()", WAIT);
            assertThat(browser.script("document.querySelector('#services button').dataset.service")).isEqualTo("team-h/users");
            browser.click(browser.find("#services button[data-service='team-h/users']"));
            browser.waitFor("document.querySelectorAll(\".lane[data-service='team-h/users'] canvas\").length > 0", WAIT);
            browser.screenshot(browser.find("#lanes-section"), SHOTS.resolve("ui-swimlane.png"));

            // the Service's audit, as kproxy audit prints it
            browser.click(browser.find(".lane[data-service='shop/checkout'] .lane-head button"));
            browser.waitFor("document.getElementById('audit').textContent.startsWith('kproxy audit shop/checkout')", WAIT);
            assertThat(browser.script("document.getElementById('audit').textContent")).contains("#853 2026-11-22T03:12:04.500Z ServiceObserved shop/checkout",
                    "reached the kernel at 2026-11-22T03:12:05.002Z");

            // the address bar now names the moment: pasted into a ticket, it opens the same diff
            String link = browser.script("location.hash");
            assertThat(link).contains("record=853", "shop%2Fcheckout");
            browser.open("about:blank");
            load(server, link);
            browser.waitFor("document.getElementById('diff').dataset.state === 'loaded'", WAIT);
            assertThat(browser.script("document.getElementById('diff').textContent")).contains("#853 2026-11-22T03:12:04.500Z ServiceObserved");

            // the ruleset programmed then, with the records each Service's rules came from
            browser.click(browser.find(".tabs button[data-tab='ruleset']"));
            browser.waitFor("document.getElementById('ruleset').textContent.includes('table ip kube-proxy')", WAIT);
        }
    }

    @Test
    void aPinnedRollbackShowsTheChangeItMade() throws IOException, InterruptedException {
        try (UiServer server = Journals.serve(Journals.pinned(tmp.resolve("pinned")))) {
            load(server, "");
            String pin = "#marks button[data-kind='pin']";
            assertThat(browser.script("document.querySelector(\"" + pin + "\").textContent"))
                    .contains("2026-11-22 03:15:00.000", "dataplane pinned to #852: roll back the checkout targetPort edit");
            browser.click(browser.find(pin));
            browser.waitFor("document.getElementById('diff').dataset.state === 'loaded'", WAIT);
            assertThat(browser.script("document.getElementById('diff').dataset.rollback")).isEqualTo("true");
            assertThat(browser.script("document.getElementById('moment-pin').textContent"))
                    .contains("pinned: dataplane pinned to #852", "this sync rolled the dataplane back");
            String diff = browser.script("document.getElementById('diff').textContent");
            assertThat(diff).contains("a rollback: dataplane pinned to #852", "== shop/checkout", "undone by the rollback",
                    "ServiceObserved shop/checkout rv 184779");
            assertThat(diff).containsPattern("\n- add element ip kube-proxy endpoints-tcp-\\d+ \\{[^}]*8081");
            assertThat(diff).containsPattern("\n\\+ add element ip kube-proxy endpoints-tcp-\\d+ \\{ \\d+-\\d+ : 10.0.1.11 . 8080");
            browser.screenshot(browser.find("#moment"), SHOTS.resolve("ui-rollback.png"));
        }
    }

    @Test
    void aDamagedJournalShowsWhatItCanAndMarksTheLostRange() throws IOException, InterruptedException {
        try (UiServer server = Journals.serve(Journals.damaged(tmp.resolve("damaged")))) {
            load(server, "");
            assertThat(browser.script("document.getElementById('warnings').hidden")).isEqualTo("false");
            assertThat(browser.script("document.getElementById('warnings').textContent")).contains("records are lost to damage");
            assertThat(browser.script("document.querySelector(\"#marks button[data-kind='damaged']\").textContent")).contains("are lost (damage)");
            assertThat(browser.script("document.querySelectorAll('#timeline canvas').length > 0")).isEqualTo("true");
        }
    }
}
