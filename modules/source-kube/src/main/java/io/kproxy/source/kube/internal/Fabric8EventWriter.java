package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.EventRecorderOptions;
import io.kproxy.source.kube.ObjectRef;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Events through fabric8, as client-go's events recorder makes them
 * ({@code staging/src/k8s.io/client-go/tools/events/event_recorder.go}, makeEvent): named
 * {@code <object name>.<nanoseconds in hex>}, in the object's namespace or {@code default},
 * with {@code eventTime}, {@code reportingController} and {@code reportingInstance}. Through
 * {@code events.k8s.io/v1} until the API server answers that it does not serve it (404 for the
 * resource, not for a namespace): from then on through {@code core/v1}, as upstream's
 * {@code NewEventBroadcasterAdapter} chooses the legacy API when discovery lacks events.k8s.io/v1.
 * Series are written with a JSON merge patch (no read first, so the Events permissions are
 * {@code create} and {@code patch}): {@code series} in events.k8s.io/v1,
 * {@code count} and {@code lastTimestamp} in core/v1.
 */
final class Fabric8EventWriter implements EventWriter {

    private static final Logger LOG = LoggerFactory.getLogger(Fabric8EventWriter.class);
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").withZone(ZoneOffset.UTC);
    /** events.k8s.io/v1 validation: a note of at most 1 kB. */
    static final int NOTE_LIMIT_BYTES = 1024;
    /** The longest wait for the API server's answer to a series update. */
    private static final Duration PATCH_TIMEOUT = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final EventRecorderOptions options;
    private final String host;
    private volatile boolean coreOnly;

    Fabric8EventWriter(KubernetesClient client, EventRecorderOptions options, String host) {
        this.client = client;
        this.options = options;
        this.host = host;
    }

    @Override
    public WrittenEvent create(ApiEvent e, Instant now) throws EventWriteException {
        String ns = e.regarding().eventNamespace();
        String name = e.regarding().name() + "." + Long.toHexString(ChronoUnit.NANOS.between(Instant.EPOCH, now));
        if (!coreOnly) {
            try {
                client.events().v1().events().inNamespace(ns).resource(v1(e, ns, name, now)).create();
                return new WrittenEvent(WrittenEvent.Api.EVENTS_V1, ns, name);
            } catch (KubernetesClientException x) {
                if (!resourceMissing(x)) {
                    throw failure(x);
                }
                coreOnly = true;
                LOG.info("decision=events-api-fallback api=core/v1 reason=\"the API server does not serve events.k8s.io/v1\"");
            }
        }
        try {
            client.v1().events().inNamespace(ns).resource(core(e, ns, name, now)).create();
            return new WrittenEvent(WrittenEvent.Api.CORE_V1, ns, name);
        } catch (KubernetesClientException x) {
            throw failure(x);
        }
    }

    @Override
    public void updateSeries(WrittenEvent w, int count, Instant lastObserved) throws EventWriteException {
        String path;
        String body;
        switch (w.api()) {
            case EVENTS_V1 -> {
                path = "apis/events.k8s.io/v1";
                body = "{\"series\":{\"count\":" + count + ",\"lastObservedTime\":\"" + MICRO.format(lastObserved) + "\"}}";
            }
            case CORE_V1 -> {
                path = "api/v1";
                body = "{\"count\":" + count + ",\"lastTimestamp\":\"" + SECONDS.format(lastObserved) + "\"}";
            }
            default -> throw new IllegalStateException();
        }
        // A plain PATCH: fabric8's patch() reads the object first, which would need "get" on
        // events besides the "create" and "patch" upstream's recorder uses.
        String base = client.getMasterUrl().toString();
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(base + (base.endsWith("/") ? "" : "/") + path + "/namespaces/" + w.namespace() + "/events/" + w.name())
                .method("PATCH", "application/merge-patch+json", body).build();
        HttpResponse<String> response;
        try {
            response = client.getHttpClient().sendAsync(request, String.class).get(PATCH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EventWriteException("interrupted", false);
        } catch (ExecutionException | TimeoutException e) {
            Throwable root = e.getCause() == null ? e : e.getCause();
            throw new EventWriteException("no answer: " + root.getClass().getSimpleName() + ": " + Redactor.scrub(String.valueOf(root.getMessage())),
                    true);
        }
        int code = response.code();
        if (code < 200 || code > 299) {
            throw new EventWriteException("HTTP " + code + " to the series update of " + w.name(), code == 429 || code >= 500);
        }
    }

    private Event v1(ApiEvent e, String ns, String name, Instant now) {
        Event ev = new Event();
        ev.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace(ns).withName(name).build());
        ev.setEventTime(new MicroTime(MICRO.format(now)));
        ev.setReportingController(options.reportingController());
        ev.setReportingInstance(options.reportingInstance());
        ev.setAction(e.action());
        ev.setReason(e.reason());
        ev.setRegarding(reference(e.regarding()));
        ev.setNote(cut(e.note()));
        ev.setType(e.type().apiName());
        return ev;
    }

    private io.fabric8.kubernetes.api.model.Event core(ApiEvent e, String ns, String name, Instant now) {
        String at = SECONDS.format(now);
        return new EventBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata()
                .withInvolvedObject(reference(e.regarding()))
                .withReason(e.reason()).withMessage(cut(e.note())).withType(e.type().apiName())
                .withNewSource().withComponent(options.reportingController()).withHost(host).endSource()
                .withFirstTimestamp(at).withLastTimestamp(at).withCount(1)
                .withAction(e.action()).withReportingComponent(options.reportingController())
                .withReportingInstance(options.reportingInstance())
                .build();
    }

    private static ObjectReference reference(ObjectRef r) {
        ObjectReferenceBuilder b = new ObjectReferenceBuilder().withKind(r.kind()).withName(r.name()).withUid(r.uid());
        if (!r.apiVersion().isEmpty()) {
            b.withApiVersion(r.apiVersion());
        }
        if (!r.namespace().isEmpty()) {
            b.withNamespace(r.namespace());
        }
        return b.build();
    }

    /** {@code note} cut to {@link #NOTE_LIMIT_BYTES} bytes of UTF-8, on a character boundary. */
    static String cut(String note) {
        if (note.getBytes(StandardCharsets.UTF_8).length <= NOTE_LIMIT_BYTES) {
            return note;
        }
        StringBuilder out = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < note.length(); ) {
            int cp = note.codePointAt(i);
            int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + n > NOTE_LIMIT_BYTES) {
                break;
            }
            out.appendCodePoint(cp);
            bytes += n;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** A 404 about the resource itself (the group or version is not served), not about a namespace. */
    private static boolean resourceMissing(KubernetesClientException x) {
        if (x.getCode() != 404) {
            return false;
        }
        Status s = x.getStatus();
        return s == null || s.getDetails() == null || !"namespaces".equals(s.getDetails().getKind());
    }

    /** Connection failures (code 0), 429 and 5xx may pass; any other answer will not. */
    private static EventWriteException failure(KubernetesClientException x) {
        int code = x.getCode();
        boolean retryable = code <= 0 || code == 429 || code >= 500;
        String what = code > 0 ? "HTTP " + code : "no answer";
        Throwable root = x;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String detail = root == x ? x.getMessage() : root.getClass().getSimpleName() + ": " + root.getMessage();
        return new EventWriteException(what + ": " + Redactor.scrub(detail), retryable);
    }

    @Override
    public void close() {
        client.close();
    }
}
