/**
 * A platform thread pinned to a network namespace ({@link io.kproxy.netns.NetnsThread}): it enters
 * {@code /var/run/netns/<name>} with {@code setns(2)} through the JDK's foreign-function API and
 * runs every task given to it there. Sockets (netlink or IP) belong to the namespace of the thread
 * that creates them, so the netlink writers, the demo and the packet-test topology create theirs
 * on such a thread. It sits below both {@code io.kproxy.netlink} and {@code io.kproxy.testkit} and
 * depends on nothing; launch with {@code --enable-native-access=io.kproxy.netns}.
 */
module io.kproxy.netns {
    exports io.kproxy.netns;
}
