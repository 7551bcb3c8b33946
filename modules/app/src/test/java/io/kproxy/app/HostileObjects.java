package io.kproxy.app;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded generator of Services, EndpointSlices and a Node whose free-text fields hold hostile
 * strings (issue 18, defect 4): line feeds, carriage returns, U+0085/U+2028/U+2029, quotes that
 * close a comment, {@code ;}, {@code #}, braces, NUL, ESC and 8-bit CSI, bidi controls, very long
 * strings. Every hostile string puts the marker {@value #MARK} right after each character that
 * could end a line or a quoted string, so a line of output that starts with it (or a rule that
 * holds it outside quotes) was made by the input. Names are valid DNS labels but for one object
 * in ten, whose name is hostile too (it must be skipped, not rendered). Not thread-safe.
 */
final class HostileObjects {

    static final String MARK = "PWN";
    static final String NODE = "node-a";

    /** Each piece ends a line, a quoted string or a word of some output syntax, then says {@value #MARK}. */
    private static final String[] PAYLOADS = {
        "\n}\ntable inet PWN { chain input { type filter hook input priority 0; policy drop; } }\n#",
        "\nPWN add chain ip kube-proxy PWN",
        "\nCOMMIT\n*filter\n-A INPUT -j DROP PWN",
        "\rPWN", "\u2028PWN", "\u2029PWN", "\u0085PWN", "\r\nPWN",
        "\" ; add rule ip kube-proxy services PWN drop ; #",
        "\" -j ACCEPT PWN",
        "\u001b[2J\u001b[31mPWN", "\u009b2JPWN", "\u0000PWN", "{PWN}", "#PWN", "; PWN", "'PWN'", "\u202ePWN", "\\nPWN", "\tPWN",
    };

    private final SplittableRandom rnd;
    private int n;

    HostileObjects(long seed) {
        this.rnd = new SplittableRandom(seed);
    }

    /** A hostile string: a benign word, one to three payloads, and now and then 10,000 more characters. */
    String hostile() {
        StringBuilder b = new StringBuilder(rnd.nextBoolean() ? "x" : "184555");
        for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
            b.append(PAYLOADS[rnd.nextInt(PAYLOADS.length)]);
        }
        if (rnd.nextInt(20) == 0) {
            b.append("A".repeat(10_000)).append("\nPWN");
        }
        return b.toString();
    }

    /** A hostile resourceVersion: long enough (16 bytes and more) to be replaced in a journal by a same-length placeholder. */
    String hostileResourceVersion() {
        return "1000000000000000" + hostile();
    }

    boolean chance(int oneIn) {
        return rnd.nextInt(oneIn) == 0;
    }

    /** One case: one to three Services, each with a slice, and the Node. */
    List<Json.Obj> objects() {
        List<Json.Obj> out = new ArrayList<>();
        out.add(node());
        for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
            String ns = "ns" + rnd.nextInt(3);
            String name = chance(10) ? hostile() : "svc" + (n++);
            List<String> ports = new ArrayList<>();
            for (int p = 1 + rnd.nextInt(2); p > 0; p--) {
                ports.add(chance(5) ? hostile() : "p" + p);
            }
            out.add(service(ns, name, ports));
            out.add(slice(ns, name, ports));
        }
        return out;
    }

    private String rv() {
        return chance(3) ? hostileResourceVersion() : Long.toString(1 + rnd.nextInt(1_000_000));
    }

    private Json.Obj meta(String ns, String name, Map<String, Json> labels) {
        Map<String, Json> m = new LinkedHashMap<>();
        if (ns != null) {
            m.put("namespace", Json.of(ns));
        }
        m.put("name", Json.of(name));
        m.put("resourceVersion", Json.of(rv()));
        if (chance(2)) {
            m.put("annotations", Json.obj("note", Json.of(hostile()), "kproxy.io/" + rnd.nextInt(9), Json.of(hostile())));
        }
        if (chance(2)) {
            labels.put("app", Json.of(hostile()));
        }
        m.put("labels", new Json.Obj(labels));
        m.put("uid", Json.of(chance(3) ? hostile() : "uid-" + rnd.nextInt(1000)));
        return new Json.Obj(m);
    }

    private Json.Obj node() {
        Map<String, Json> labels = new LinkedHashMap<>();
        labels.put("topology.kubernetes.io/zone", Json.of(chance(2) ? hostile() : "zone-a"));
        labels.put("kubernetes.io/hostname", Json.of(chance(2) ? hostile() : NODE));
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Node"), "metadata", meta(null, NODE, labels),
                "spec", Json.obj("podCIDRs", Json.arr(Json.of("10.0.1.0/24"))),
                "status", Json.obj("addresses", Json.arr(Json.obj("type", Json.of("InternalIP"), "address", Json.of("192.168.0.2")),
                        Json.obj("type", Json.of("Hostname"), "address", Json.of(hostile())))));
    }

    private Json.Obj service(String ns, String name, List<String> ports) {
        String type = switch (rnd.nextInt(4)) {
            case 0 -> "NodePort";
            case 1 -> "LoadBalancer";
            case 2 -> chance(4) ? hostile() : "ClusterIP";
            default -> "ClusterIP";
        };
        String ip = "172.30." + rnd.nextInt(200) + "." + (1 + rnd.nextInt(250));
        List<Json> portList = new ArrayList<>();
        for (int p = 0; p < ports.size(); p++) {
            portList.add(Json.obj("name", Json.of(ports.get(p)), "port", Json.of(80 + p), "protocol", Json.of("TCP"),
                    "targetPort", Json.of(chance(3) ? hostile() : "8080"), "nodePort", Json.of(30000 + rnd.nextInt(2000))));
        }
        Map<String, Json> spec = new LinkedHashMap<>();
        spec.put("type", Json.of(type));
        spec.put("clusterIP", Json.of(ip));
        spec.put("clusterIPs", Json.arr(Json.of(ip)));
        spec.put("ipFamilies", Json.arr(Json.of("IPv4")));
        spec.put("ports", Json.arr(portList));
        spec.put("sessionAffinity", Json.of(chance(3) ? hostile() : "None"));
        if (chance(3)) {
            spec.put("externalName", Json.of(hostile()));
            spec.put("loadBalancerClass", Json.of(hostile()));
            spec.put("externalTrafficPolicy", Json.of(hostile()));
        }
        if (chance(3)) {
            spec.put("externalIPs", Json.arr(Json.of(chance(2) ? hostile() : "203.0.113." + (1 + rnd.nextInt(250)))));
        }
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"), "metadata", meta(ns, name, new LinkedHashMap<>()),
                "spec", new Json.Obj(spec), "status", Json.obj("loadBalancer", Json.obj("ingress", Json.arr(
                        Json.obj("ip", Json.of(chance(2) ? hostile() : "198.51.100." + (1 + rnd.nextInt(250))), "hostname", Json.of(hostile()))))));
    }

    private Json.Obj slice(String ns, String service, List<String> ports) {
        Map<String, Json> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/service-name", Json.of(service));
        labels.put("endpointslice.kubernetes.io/managed-by", Json.of(chance(2) ? hostile() : "endpointslice-controller.k8s.io"));
        List<Json> portList = new ArrayList<>();
        for (String p : ports) {
            portList.add(Json.obj("name", Json.of(chance(8) ? hostile() : p), "port", Json.of(8080), "protocol", Json.of("TCP")));
        }
        List<Json> endpoints = new ArrayList<>();
        for (int e = 1 + rnd.nextInt(3); e > 0; e--) {
            Map<String, Json> ep = new LinkedHashMap<>();
            ep.put("addresses", Json.arr(Json.of(chance(8) ? hostile() : "10.0." + rnd.nextInt(3) + "." + (1 + rnd.nextInt(250)))));
            ep.put("conditions", Json.obj("ready", Json.of(!chance(5))));
            ep.put("hostname", Json.of(hostile()));
            ep.put("nodeName", Json.of(chance(2) ? hostile() : NODE));
            ep.put("zone", Json.of(hostile()));
            ep.put("hints", Json.obj("forZones", Json.arr(Json.obj("name", Json.of(hostile()))),
                    "forNodes", Json.arr(Json.obj("name", Json.of(hostile())))));
            ep.put("targetRef", Json.obj("kind", Json.of("Pod"), "namespace", Json.of(ns), "name", Json.of(hostile()), "uid", Json.of(hostile())));
            endpoints.add(new Json.Obj(ep));
        }
        String name = (service.length() > 40 || !service.matches("[a-z0-9-]+") ? "s" : service) + "-" + rnd.nextInt(100_000);
        return Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", meta(ns, name, labels), "addressType", Json.of("IPv4"), "ports", Json.arr(portList),
                "endpoints", Json.arr(endpoints));
    }

    /** JSON text of {@code j}: every character below U+0020 and {@code "}, {@code \} escaped; the rest as it is (UTF-8 in the file). */
    static String json(Json j) {
        StringBuilder b = new StringBuilder();
        write(b, j);
        return b.toString();
    }

    private static void write(StringBuilder b, Json j) {
        switch (j) {
            case Json.Obj o -> {
                b.append('{');
                boolean first = true;
                for (Map.Entry<String, Json> e : o.fields().entrySet()) {
                    b.append(first ? "" : ",");
                    first = false;
                    string(b, e.getKey());
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
            }
            case Json.Arr a -> {
                b.append('[');
                for (int i = 0; i < a.items().size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    write(b, a.items().get(i));
                }
                b.append(']');
            }
            case Json.Str s -> string(b, s.value());
            case Json.Int i -> b.append(i.value());
            case Json.Dec d -> b.append(d.value());
            case Json.Bool x -> b.append(x.value());
            case Json.Null x -> b.append("null");
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }
}
