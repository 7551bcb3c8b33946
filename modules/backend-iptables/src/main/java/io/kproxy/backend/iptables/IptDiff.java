package io.kproxy.backend.iptables;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.events.SyncKind;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The transaction from the last applied plan to the desired one: upstream's
 * {@code syncProxyRules} restore input with KEP-3453's partial sync
 * ({@code pkg/proxy/iptables/proxier.go}). Pure.
 *
 * <ul>
 *   <li>Full (no last plan, or {@link SyncOptions#forceFull()}): every chain of both families,
 *       the canary chains, and the chains the last plan had that the desired one has not,
 *       flushed and deleted. (After a restart or a failure the last plan is unknown; the
 *       applier then also sweeps stale chains it finds in {@code iptables-save}.)</li>
 *   <li>Partial: per family with any change, the top-level chains rewritten whole (as
 *       upstream), the own chains of service ports whose chains changed, and the chains of
 *       removed or changed ports that are gone, flushed and deleted ({@code -X}) in the same
 *       restore. A family without changes is not written; no change at all is an empty
 *       transaction.</li>
 * </ul>
 */
final class IptDiff {

    private IptDiff() {
    }

    static Transaction diff(Optional<IptPlan> last, IptPlan desired, SyncOptions options) {
        boolean full = last.isEmpty() || options.forceFull();
        StringBuilder b = new StringBuilder();
        int ops = 0;
        ops += family(b, last.map(IptPlan::v4), desired.v4(), full);
        ops += family(b, last.map(IptPlan::v6), desired.v6(), full);
        return new Transaction(IptablesProvider.MODE, full ? SyncKind.FULL : SyncKind.PARTIAL, ops, ops == 0 ? "" : b.toString(), desired);
    }

    private static int family(StringBuilder b, Optional<FamilyPlan> last, FamilyPlan desired, boolean full) {
        if (full) {
            TreeSet<String> stale = new TreeSet<>();
            last.ifPresent(l -> {
                for (PortFragment fr : l.fragments().values()) {
                    stale.addAll(fr.chains());
                }
            });
            for (PortFragment fr : desired.fragments().values()) {
                fr.chains().forEach(stale::remove);
            }
            return RestoreWriter.transaction(b, desired, desired.fragments().values(), stale, true);
        }
        FamilyPlan l = last.orElseThrow();
        List<PortFragment> write = new ArrayList<>();
        TreeSet<String> stale = new TreeSet<>();
        boolean[] changed = {!l.top().equals(desired.top())};
        l.fragments().diff(desired.fragments(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(ServicePortName key, PortFragment value) {
                changed[0] = true;
                write.add(value);
            }

            @Override
            public void removed(ServicePortName key, PortFragment value) {
                changed[0] = true;
                stale.addAll(value.chains());
            }

            @Override
            public void changed(ServicePortName key, PortFragment before, PortFragment after) {
                changed[0] = true;
                if (!after.sameChains(before)) {
                    write.add(after);
                    stale.addAll(before.chains());
                    after.chains().forEach(stale::remove);
                }
            }
        });
        if (!changed[0]) {
            return 0;
        }
        return RestoreWriter.transaction(b, desired, write, stale, false);
    }
}
