package io.kproxy.netlink;

/** One change to the kernel's IPVS table, as {@link IpvsClient#apply} sends it: a closed set. */
public sealed interface IpvsOp {

    /** {@code IPVS_CMD_NEW_SERVICE}. */
    record AddService(IpvsService service) implements IpvsOp {
        public AddService {
            if (service == null) {
                throw new IllegalArgumentException("an IPVS operation names its service");
            }
        }
    }

    /** {@code IPVS_CMD_SET_SERVICE}: scheduler, flags, timeout, netmask of an existing service. */
    record UpdateService(IpvsService service) implements IpvsOp {
        public UpdateService {
            if (service == null) {
                throw new IllegalArgumentException("an IPVS operation names its service");
            }
        }
    }

    /** {@code IPVS_CMD_DEL_SERVICE}, with its real servers. */
    record DeleteService(IpvsService service) implements IpvsOp {
        public DeleteService {
            if (service == null) {
                throw new IllegalArgumentException("an IPVS operation names its service");
            }
        }
    }

    /** {@code IPVS_CMD_NEW_DEST}. */
    record AddDestination(IpvsService service, IpvsDestination destination) implements IpvsOp {
        public AddDestination {
            if (service == null || destination == null) {
                throw new IllegalArgumentException("an IPVS operation names its service and real server");
            }
        }
    }

    /** {@code IPVS_CMD_SET_DEST}: weight, thresholds, forwarding of an existing real server. */
    record UpdateDestination(IpvsService service, IpvsDestination destination) implements IpvsOp {
        public UpdateDestination {
            if (service == null || destination == null) {
                throw new IllegalArgumentException("an IPVS operation names its service and real server");
            }
        }
    }

    /** {@code IPVS_CMD_DEL_DEST}. */
    record DeleteDestination(IpvsService service, IpvsDestination destination) implements IpvsOp {
        public DeleteDestination {
            if (service == null || destination == null) {
                throw new IllegalArgumentException("an IPVS operation names its service and real server");
            }
        }
    }
}
