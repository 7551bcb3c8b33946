package io.kproxy.sample.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The Services of the sample cluster at the start of the recording: about 300, across namespaces,
 * of every kind a proxy treats differently (ClusterIP, NodePort, LoadBalancer with an ingress IP,
 * {@code externalTrafficPolicy: Local} with a health-check node port, ClientIP affinity, UDP,
 * dual-stack, headless), each with ready pods spread over twelve nodes. The scripted ones come
 * first: {@code shop/checkout} and {@code shop/cart} run on the demo topology's pods
 * ({@code io.kproxy.testkit.netns.Topology}: 10.0.1.11/12 on {@code demo-node}, 10.0.2.11 on the
 * second node, port 8080), so that a demo can send real traffic to them. Deterministic for a seed.
 */
final class SampleServices {

    static final String CHECKOUT = "shop/checkout";
    static final String CART = "shop/cart";
    static final String FRONTEND = "shop/frontend";
    static final String OLD_API = "legacy/old-api";

    private static final List<String> TEAM_SERVICES = List.of("api", "web", "worker", "cache", "db-proxy", "queue", "auth", "search",
            "gateway", "scheduler", "billing", "reports", "ledger", "users", "profile", "media", "thumbnails", "events", "audit", "export",
            "import", "sync", "webhook", "cron", "notifier", "pricing", "geo", "mailer");
    private static final List<String> SHOP_SERVICES = List.of("catalog", "payments", "search", "reviews", "recommendations", "inventory",
            "shipping", "orders", "notifications", "email", "currency", "ads");

    private final ClusterModel m;
    private final Random random;
    private int clusterIPs = 256;
    private int nodePorts = 30_100;
    private int healthPorts = 32_001;
    private int loadBalancers = 20;

    private SampleServices(ClusterModel m) {
        this.m = m;
        this.random = m.random();
    }

    /** Creates every workload in the model (nothing is recorded yet). */
    static void create(ClusterModel m) {
        new SampleServices(m).build();
    }

    private void build() {
        ServiceDef.PortDef http = new ServiceDef.PortDef("http", "TCP", 80, 8080, 0);
        scripted(new ServiceDef("shop", "checkout", "NodePort", false, "172.30.0.20", "fd00:172:30::20",
                List.of(new ServiceDef.PortDef("http", "TCP", 80, 8080, 30080)), "", false, 0, 0), 1, 11, 12);
        scripted(new ServiceDef("shop", "cart", "ClusterIP", false, "172.30.0.21", "fd00:172:30::21", List.of(http), "", false, 0, 0), 2, 11);
        Workload frontend = scripted(new ServiceDef("shop", "frontend", "LoadBalancer", false, "172.30.0.22", "",
                List.of(new ServiceDef.PortDef("http", "TCP", 80, 8080, 30081)), "198.51.100.10", true, 32000, 0), 1, 13);
        addPods(frontend, 2);
        Workload old = scripted(new ServiceDef("legacy", "old-api", "ClusterIP", false, "172.30.0.30", "", List.of(http), "", false, 0, 0), 0);
        addPods(old, 2);
        workload(new ServiceDef("kube-system", "kube-dns", "ClusterIP", false, "172.30.0.10", "", List.of(
                new ServiceDef.PortDef("dns", "UDP", 53, 53, 0), new ServiceDef.PortDef("dns-tcp", "TCP", 53, 53, 0),
                new ServiceDef.PortDef("metrics", "TCP", 9153, 9153, 0)), "", false, 0, 0), 2);
        workload(new ServiceDef("kube-system", "metrics-server", "ClusterIP", false, ip4(), "",
                List.of(new ServiceDef.PortDef("https", "TCP", 443, 10250, 0)), "", false, 0, 0), 1);
        workload(new ServiceDef("ingress", "ingress-nginx-controller", "LoadBalancer", false, ip4(), "", List.of(
                new ServiceDef.PortDef("http", "TCP", 80, 80, nodePorts++), new ServiceDef.PortDef("https", "TCP", 443, 443, nodePorts++)),
                "198.51.100.11", true, healthPorts++, 0), 3);
        for (String name : List.of("prometheus", "alertmanager", "grafana", "kube-state-metrics")) {
            generated("monitoring", name);
        }
        workload(new ServiceDef("monitoring", "node-exporter", "ClusterIP", true, "", "",
                List.of(new ServiceDef.PortDef("metrics", "TCP", 9100, 9100, 0)), "", false, 0, 0), 0);
        generated("logging", "loki");
        workload(new ServiceDef("logging", "syslog", "ClusterIP", false, ip4(), "",
                List.of(new ServiceDef.PortDef("syslog", "UDP", 514, 5514, 0)), "", false, 0, 0), 2);
        for (String name : SHOP_SERVICES) {
            generated("shop", name);
        }
        for (char team = 'a'; team <= 'l'; team++) {
            List<String> names = new ArrayList<>(TEAM_SERVICES);
            for (int i = 0; i < 23; i++) {
                generated("team-" + team, names.remove(random.nextInt(names.size())));
            }
        }
    }

    /** A workload the churn leaves alone, with ready pods at fixed addresses of node {@code nodeIndex}. */
    private Workload scripted(ServiceDef def, int nodeIndex, int... hosts) {
        Workload w = new Workload(def, sliceName(def), def.clusterIPv6().isEmpty() ? null : sliceName(def), true);
        w.template = m.suffix(10);
        for (int h : hosts) {
            w.pods().add(m.fixedPod(w, w.template, nodeIndex, h));
        }
        m.add(w);
        return w;
    }

    private void workload(ServiceDef def, int replicas) {
        Workload w = new Workload(def, def.headless() ? null : sliceName(def), def.clusterIPv6().isEmpty() ? null : sliceName(def), false);
        addPods(w, replicas);
        m.add(w);
    }

    private void addPods(Workload w, int replicas) {
        if (w.template.isEmpty()) {
            w.template = m.suffix(10);
        }
        for (int i = 0; i < replicas; i++) {
            w.pods().add(m.newPod(w, w.template, 0).asReady());
        }
    }

    private String sliceName(ServiceDef def) {
        return def.name() + "-" + m.suffix(5);
    }

    /** A Service of a random kind, with 1 to 5 pods. */
    private void generated(String namespace, String name) {
        double kind = random.nextDouble();
        boolean dual = random.nextDouble() < 0.12;
        List<ServiceDef.PortDef> ports = new ArrayList<>();
        String type = kind < 0.68 ? "ClusterIP" : kind < 0.84 ? "NodePort" : kind < 0.94 ? "LoadBalancer" : "ClusterIP";
        boolean headless = kind >= 0.97;
        boolean external = type.equals("NodePort") || type.equals("LoadBalancer");
        ports.add(new ServiceDef.PortDef("http", "TCP", 80, 8080, external ? nodePorts++ : 0));
        double extra = random.nextDouble();
        if (extra < 0.2) {
            ports.add(new ServiceDef.PortDef("metrics", "TCP", 9100, 9100, external ? nodePorts++ : 0));
        } else if (extra < 0.3) {
            ports.add(new ServiceDef.PortDef("grpc", "TCP", 9090, 9090, external ? nodePorts++ : 0));
        }
        boolean local = type.equals("LoadBalancer") && random.nextDouble() < 0.35;
        String lb = type.equals("LoadBalancer") ? "198.51.100." + loadBalancers++ : "";
        int affinity = !headless && random.nextDouble() < 0.06 ? (random.nextBoolean() ? 10800 : 600) : 0;
        String v4 = headless ? "" : ip4();
        String v6 = headless || !dual ? "" : "fd00:172:30::" + Integer.toHexString(clusterIPs - 1);
        double r = random.nextDouble();
        int replicas = r < 0.2 ? 1 : r < 0.55 ? 2 : r < 0.85 ? 3 : 4 + random.nextInt(2);
        workload(new ServiceDef(namespace, name, type, headless, v4, v6, ports, lb, local, local ? healthPorts++ : 0, affinity), replicas);
    }

    private String ip4() {
        int n = clusterIPs++;
        return "172.30." + (n / 250) + "." + (n % 250 + 1);
    }
}
