package io.kproxy.state;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.ServiceRef;
import java.util.Set;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.CRC32C;

/**
 * The snapshot format of a {@link ClusterState}: a format-version byte, the folded offset, the
 * parsed state (configuration, node, sync barriers, services, slices and ServiceCIDRs with their origins), and a
 * CRC-32C of everything before it. The node projection is not stored: it is a pure function of
 * the cluster state and is recomputed on decode.
 *
 * <p>Version history (a new format gets a new version; decoders keep reading the old ones):
 * <ul>
 *   <li>1 — first format.</li>
 *   <li>2 — the dataplane pin after the sync barriers: a presence byte (0 or 1), then
 *       {@code toOffset} (long), the pin record's offset (long) and the reason (string). A
 *       version-1 snapshot decodes with no pin (version 1 was written before pins were folded).</li>
 *   <li>3 — the ServiceCIDRs after the slices: whether they have synced (boolean), a count,
 *       then per ServiceCIDR its name (string), origin and ranges. Versions 1 and 2 decode with
 *       none, not synced (they were written before
 *       ServiceCIDRs were folded, so the configured ranges were in force, as they are then).</li>
 *   <li>4 — the {@code ipvs} settings at the end of the settings: the scheduler (string), the
 *       exclude CIDRs, {@code strictARP} (boolean), and the TCP, TCP FIN and UDP timeouts
 *       (nanoseconds, long). Versions 1 to 3 decode with upstream's ipvs defaults
 *       ({@link DataplaneSettings.Ipvs#DEFAULT}): they were written while ipvs mode rendered with
 *       those defaults whatever the node's {@code ipvs} section said, so that is what was in force.</li>
 *   <li>5 — the node's recorded local addresses ({@code LocalAddressesObserved}) at the end of
 *       the node, as a list of addresses. Versions 1 to 4 decode with none: they were written
 *       before the event existed, so none had been recorded.</li>
 * </ul>
 */
final class SnapshotCodec {

    static final byte VERSION = 5;
    static final byte VERSION_4 = 4;
    static final byte VERSION_3 = 3;
    static final byte VERSION_2 = 2;
    static final byte VERSION_1 = 1;
    private static final Set<Byte> READS = Set.of(VERSION_1, VERSION_2, VERSION_3, VERSION_4, VERSION);

    private SnapshotCodec() {
    }

    record Decoded(ClusterState cluster, long offset) {
    }

    static byte[] encode(ClusterState c, long offset) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + c.services.size() * 96 + c.slices.size() * 256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            SnapshotWriter w = new SnapshotWriter(out);
            out.writeByte(VERSION);
            out.writeLong(offset);
            w.settings(c.settings);
            out.writeLong(c.configOffset);
            out.writeBoolean(c.servicesSynced);
            out.writeBoolean(c.slicesSynced);
            out.writeBoolean(c.nodesSynced);
            w.pin(c.pin);
            w.node(c.node);
            out.writeInt(c.services.size());
            for (ServiceSpec s : c.services.values()) {
                w.service(s);
            }
            out.writeInt(c.slices.size());
            for (SliceSpec s : c.slices.values()) {
                w.slice(s);
            }
            out.writeBoolean(c.serviceCidrsSynced);
            out.writeInt(c.serviceCidrs.size());
            for (ServiceCidrSpec s : c.serviceCidrs.values()) {
                w.serviceCidr(s);
            }
            out.flush();
            CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int) crc.getValue());
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    static Decoded decode(byte[] data) {
        if (data == null || data.length < 1 + 8 + 4) {
            throw new SnapshotDecodeException("snapshot too short: " + (data == null ? 0 : data.length) + " bytes");
        }
        byte version = data[0];
        if (!READS.contains(version)) {
            throw new SnapshotDecodeException("unknown snapshot format version " + version + " (this version reads " + VERSION_1 + " to "
                    + VERSION + ")");
        }
        int bodyLength = data.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(data, 0, bodyLength);
        int stored = ((data[bodyLength] & 0xFF) << 24) | ((data[bodyLength + 1] & 0xFF) << 16) | ((data[bodyLength + 2] & 0xFF) << 8)
                | (data[bodyLength + 3] & 0xFF);
        if ((int) crc.getValue() != stored) {
            throw new SnapshotDecodeException("snapshot checksum mismatch");
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, 1, bodyLength - 1));
            SnapshotReader r = new SnapshotReader(in, bodyLength);
            long offset = in.readLong();
            if (offset < -1) {
                throw new SnapshotDecodeException("negative offset " + offset);
            }
            ProxySettings settings = r.settings(version >= VERSION_4);
            long configOffset = in.readLong();
            boolean servicesSynced = in.readBoolean();
            boolean slicesSynced = in.readBoolean();
            boolean nodesSynced = in.readBoolean();
            Pin pin = version == VERSION_1 ? null : r.pin();
            if (pin != null && pin.pinnedAt() > offset) {
                throw new SnapshotDecodeException("pin record " + pin.pinnedAt() + " is after the snapshot's offset " + offset);
            }
            NodeSpec node = r.node(version >= VERSION);
            PersistentMap<ServiceRef, ServiceSpec> services = PersistentMap.empty();
            int n = r.count();
            for (int i = 0; i < n; i++) {
                ServiceSpec s = r.service();
                services = services.plus(s.ref(), s);
            }
            PersistentMap<EndpointSliceRef, SliceSpec> slices = PersistentMap.empty();
            PersistentMap<ServiceRef, PersistentMap<EndpointSliceRef, SliceSpec>> byService = PersistentMap.empty();
            n = r.count();
            for (int i = 0; i < n; i++) {
                SliceSpec s = r.slice();
                slices = slices.plus(s.ref(), s);
                PersistentMap<EndpointSliceRef, SliceSpec> group = byService.get(s.service());
                byService = byService.plus(s.service(), (group == null ? PersistentMap.<EndpointSliceRef, SliceSpec>empty() : group)
                        .plus(s.ref(), s));
            }
            PersistentMap<String, ServiceCidrSpec> serviceCidrs = PersistentMap.empty();
            boolean serviceCidrsSynced = version >= VERSION_3 && in.readBoolean();
            int cidrCount = version >= VERSION_3 ? r.count() : 0;
            for (int i = 0; i < cidrCount; i++) {
                ServiceCidrSpec s = r.serviceCidr();
                serviceCidrs = serviceCidrs.plus(s.name(), s);
            }
            if (in.available() != 0) {
                throw new SnapshotDecodeException(in.available() + " unread bytes after the state");
            }
            if (services.size() != r.servicesRead() || slices.size() != n || serviceCidrs.size() != cidrCount) {
                throw new SnapshotDecodeException("duplicate keys in snapshot");
            }
            return new Decoded(new ClusterState(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, services, slices,
                    byService, serviceCidrs, serviceCidrsSynced, pin), offset);
        } catch (IOException e) {
            throw new SnapshotDecodeException("truncated snapshot", e);
        } catch (IllegalArgumentException | IllegalStateException | NullPointerException e) {
            throw new SnapshotDecodeException("invalid value in snapshot: " + e.getMessage(), e);
        }
    }
}
