package io.kproxy.config;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What this build of kproxy can run: the proxy modes that have a backend installed and the event
 * logs that exist. A configuration naming anything else is refused by validation
 * ({@link Validator#validate(ProxyConfig, Availability)}), before anything binds a port, opens
 * the journal or touches the kernel, instead of failing when the agent starts. Immutable.
 *
 * @param modes     the modes a backend is installed for
 * @param eventLogs the event log types this build has
 */
public record Availability(Set<ProxyMode> modes, Set<KproxyConfig.EventLogType> eventLogs) {

    public Availability {
        modes = Set.copyOf(modes);
        eventLogs = Set.copyOf(eventLogs);
    }

    /** Everything a configuration can name: for checks that do not run the configuration (e.g. reading a recorded one). */
    public static final Availability EVERYTHING = new Availability(EnumSet.allOf(ProxyMode.class),
            EnumSet.allOf(KproxyConfig.EventLogType.class));

    /** The available modes' API names, in declaration order ({@code "none"} when there are none). */
    String modeNames() {
        String s = modes.stream().sorted(Comparator.naturalOrder()).map(ProxyMode::apiName).collect(Collectors.joining(", "));
        return s.isEmpty() ? "none" : s;
    }

    /** The available event logs' API names, in declaration order. */
    String eventLogNames() {
        String s = eventLogs.stream().sorted(Comparator.naturalOrder()).map(KproxyConfig.EventLogType::apiName).collect(Collectors.joining(", "));
        return s.isEmpty() ? "none" : s;
    }
}
