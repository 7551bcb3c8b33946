package io.kproxy.backend.ipvs;

import io.kproxy.netlink.IpsetClient;
import io.kproxy.netlink.IpsetOp;
import io.kproxy.netlink.IpvsClient;
import io.kproxy.netlink.IpvsOp;
import io.kproxy.netlink.LinkAddress;
import io.kproxy.netlink.NetlinkRequestException;
import io.kproxy.netlink.RtnlClient;
import java.util.ArrayList;
import java.util.List;

/**
 * The changes {@link NetlinkIpvsKernel} holds back until its next flush, in the order they were
 * made: each run of consecutive changes to one subsystem goes as one request list (the clients
 * pack up to 1,024 messages in a datagram and wait for one acknowledgement), instead of a
 * round trip per change. Order across subsystems is kept, run by run. Not thread-safe.
 */
final class HeldChanges {

    /** One held change. */
    sealed interface Change {
        /** Changes of one group go in one request list. */
        String group();
    }

    record Ipvs(IpvsOp op) implements Change {
        public String group() {
            return "ipvs";
        }
    }

    record Ipset(IpsetOp op) implements Change {
        public String group() {
            return "ipset";
        }
    }

    record Address(boolean add, String link, LinkAddress address) implements Change {
        public String group() {
            return (add ? "add " : "del ") + link;
        }
    }

    private final List<Change> held = new ArrayList<>();

    void add(Change c) {
        held.add(c);
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    /**
     * Sends every held change, run by run; at the first refused run the rest is dropped (as the
     * applier stops at a failing operation) and the refusal thrown. Nothing is held afterwards.
     * {@code ipvs} is null only when no IPVS change is held.
     */
    void flush(IpvsClient ipvs, IpsetClient ipset, RtnlClient rtnl) throws NetlinkRequestException {
        List<Change> all = List.copyOf(held);
        held.clear();
        int i = 0;
        while (i < all.size()) {
            int j = i;
            while (j < all.size() && all.get(j).group().equals(all.get(i).group())) {
                j++;
            }
            List<Change> run = all.subList(i, j);
            switch (run.getFirst()) {
                case Ipvs v -> ipvs.apply(run.stream().map(c -> ((Ipvs) c).op()).toList());
                case Ipset s -> ipset.apply(run.stream().map(c -> ((Ipset) c).op()).toList());
                case Address a -> {
                    List<LinkAddress> addresses = run.stream().map(c -> ((Address) c).address()).toList();
                    if (a.add()) {
                        rtnl.addAddresses(a.link(), addresses);
                    } else {
                        rtnl.deleteAddresses(a.link(), addresses);
                    }
                }
            }
            i = j;
        }
    }
}
