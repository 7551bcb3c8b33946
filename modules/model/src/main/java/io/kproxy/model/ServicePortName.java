package io.kproxy.model;

/**
 * A Service port's identity (upstream's {@code ServicePortName}): the service, the port's name
 * (empty for a single unnamed port, otherwise a DNS-1123 label) and the protocol.
 *
 * <p>{@link #toString} is upstream's {@code SPN.String()}: {@code ns/name} plus {@code :port}
 * when the port is named. Chain-name hashes are computed from it.
 */
public record ServicePortName(ServiceRef service, String portName, Protocol protocol) implements Comparable<ServicePortName> {

    public ServicePortName {
        if (service == null) {
            throw new InvalidValueException("service", "null", "service is required");
        }
        if (protocol == null) {
            throw new InvalidValueException("protocol", "null", "protocol is required");
        }
        if (portName == null) {
            throw new InvalidValueException("name", "null", "port name must be empty or a DNS-1123 label");
        }
        if (!portName.isEmpty()) {
            Names.label("name", portName);
        }
    }

    @Override
    public int compareTo(ServicePortName o) {
        int c = service.compareTo(o.service);
        if (c != 0) {
            return c;
        }
        c = portName.compareTo(o.portName);
        return c != 0 ? c : protocol.compareTo(o.protocol);
    }

    @Override
    public String toString() {
        return portName.isEmpty() ? service.toString() : service + ":" + portName;
    }
}
