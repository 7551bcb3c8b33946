package io.kproxy.config;

import static io.kproxy.config.Trees.defaultsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kproxy.model.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The {@code ipvs} section: bound with upstream's names, defaulted as
 * {@code pkg/proxy/apis/config/v1alpha1/defaults.go}, validated as
 * {@code pkg/proxy/apis/config/validation/validation.go} (in ipvs mode only) with the scheduler
 * list the fold and the backend share ({@link IpvsConfig#SCHEDULERS}).
 */
class IpvsSectionTest {

    static final List<String> SCHEDULERS = IpvsConfig.SCHEDULERS;

    private static ProxyConfig bind(Json.Obj ipvs) {
        return ConfigTrees.bind(Json.obj("apiVersion", Json.of(Defaults.API_VERSION), "kind", Json.of(Defaults.KIND), "mode", Json.of("ipvs"),
                "ipvs", ipvs), Availability.EVERYTHING);
    }

    @Test
    void everyFieldIsBoundWithUpstreamsName() {
        ProxyConfig c = bind(Json.obj("scheduler", Json.of("wrr"), "syncPeriod", Json.of("1m"), "minSyncPeriod", Json.of("5s"),
                "excludeCIDRs", Json.arr(Json.of("10.0.0.0/8"), Json.of("fd00::/64")), "strictARP", Json.of(true), "tcpTimeout", Json.of("15m"),
                "tcpFinTimeout", Json.of("30s"), "udpTimeout", Json.of("5m")));
        assertThat(c.ipvs()).isEqualTo(new IpvsConfig(Duration.ofMinutes(1), Duration.ofSeconds(5), "wrr", List.of("10.0.0.0/8", "fd00::/64"),
                true, Duration.ofMinutes(15), Duration.ofSeconds(30), Duration.ofMinutes(5)));
        assertThat(c.syncPeriod()).as("ipvs mode's sync period").isEqualTo(Duration.ofMinutes(1));
        assertThat(c.minSyncPeriod()).isEqualTo(Duration.ofSeconds(5));
        assertThat(ConfigTrees.fromTree(ConfigTrees.toTree(c))).as("written back and read again").isEqualTo(c);
    }

    @Test
    void defaultsAreUpstreams() {
        // syncPeriod 30s when absent or zero; minSyncPeriod has no default (0: every change at once);
        // a blank scheduler means rr; zero timeouts keep the kernel's.
        assertThat(bind(Json.Obj.EMPTY).ipvs()).isEqualTo(new IpvsConfig(Duration.ofSeconds(30), Duration.ZERO, "", List.of(), false,
                Duration.ZERO, Duration.ZERO, Duration.ZERO));
        assertThat(bind(Json.obj("syncPeriod", Json.of("0s"))).ipvs().syncPeriod()).isEqualTo(Duration.ofSeconds(30));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "ipvs.tcpTimeout|-1s|-1s|must be greater than or equal to 0",
        "ipvs.tcpFinTimeout|-2s|-2s|must be greater than or equal to 0",
        "ipvs.udpTimeout|-1ms|-1ms|must be greater than or equal to 0",
        "ipvs.syncPeriod|0s|0s|must be greater than 0",
        "ipvs.minSyncPeriod|-1s|-1s|must be greater than or equal to 0",
        "ipvs.minSyncPeriod|1h|30s|must be greater than or equal to ipvs.minSyncPeriod",
        "ipvs.scheduler|fastest|fastest|must be one of rr, wrr, lc, wlc, lblc, lblcr, sh, dh, sed, nq, mh, or blank for rr",
        "ipvs.scheduler|RR|RR|must be one of rr, wrr, lc, wlc, lblc, lblcr, sh, dh, sed, nq, mh, or blank for rr",
    })
    void eachBadValueIsRefusedWithItsFieldAndReason(String path, String value, String shown, String reason) {
        List<FieldError> errs = Validator.validate(defaultsWith("mode", "ipvs", path, value));
        String expectedPath = reason.endsWith("ipvs.minSyncPeriod") ? "ipvs.syncPeriod" : path;
        assertThat(errs).extracting(FieldError::path, FieldError::value, FieldError::reason).containsExactly(tuple(expectedPath, shown, reason));
    }

    @Test
    void eachExcludeCidrMustBeACidr() {
        List<FieldError> errs = Validator.validate(defaultsWith("mode", "ipvs", "ipvs.excludeCIDRs",
                new String[] {"10.0.0.0/8", "10.0.0.1", "fd00::/129", "fd00::/64"}));
        assertThat(errs).extracting(FieldError::path, FieldError::value, FieldError::reason).containsExactly(
                tuple("ipvs.excludeCIDRs[1]", "10.0.0.1", "must be a valid CIDR"), tuple("ipvs.excludeCIDRs[2]", "fd00::/129", "must be a valid CIDR"));
    }

    @ParameterizedTest
    @FieldSource("SCHEDULERS")
    void everySchedulerOfTheListIsAccepted(String scheduler) {
        assertThat(Validator.validate(defaultsWith("mode", "ipvs", "ipvs.scheduler", scheduler))).isEmpty();
        assertThat(IpvsConfig.knownScheduler(scheduler)).isTrue();
    }

    @Test
    void aBlankSchedulerMeansRoundRobin() {
        assertThat(Validator.validate(defaultsWith("mode", "ipvs", "ipvs.scheduler", ""))).isEmpty();
        assertThat(IpvsConfig.DEFAULT_SCHEDULER).isEqualTo("rr");
        assertThat(IpvsConfig.knownScheduler(" rr")).isFalse();
    }

    @Test
    void theSectionIsNotCheckedInOtherModesAsUpstream() {
        assertThat(Validator.validate(defaultsWith("mode", "nftables", "ipvs.scheduler", "fastest", "ipvs.udpTimeout", "-1s",
                "ipvs.excludeCIDRs", new String[] {"nope"}))).isEmpty();
    }
}
