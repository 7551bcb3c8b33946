package io.kproxy.chaos;

/** A pod with an echo server on 8080 (the testkit topology's pod1, pod2 and rpod), and its node. */
enum Pod {
    POD1("10.0.1.11", ChaosWorld.NODE), POD2("10.0.1.12", ChaosWorld.NODE), RPOD("10.0.2.11", "node-b");

    private final String ip;
    private final String node;

    Pod(String ip, String node) {
        this.ip = ip;
        this.node = node;
    }

    String ip() {
        return ip;
    }

    String node() {
        return node;
    }
}
