#!/bin/sh
# Test-only (ImageIT): what a container runtime does before it starts an image's entrypoint, for
# an image mounted at ROOT (`buildah mount`): the root read-only (as readOnlyRootFilesystem would
# have it; the agent may write only its journal volume and /run), /proc, /sys and /dev, a tmpfs
# on /run and /tmp, JOURNAL bound on /var/lib/kproxy (the DaemonSet's journal volume), OBJECTS
# (optional, read-only) on /tmp/objects; then the command chroot'ed with the DaemonSet's
# environment only. Run it as `ip netns exec NS unshare --mount sh enter-image.sh ...`: every
# mount lives in a mount namespace that ends with the command, inside a network namespace the
# test created.
#
#   enter-image.sh ROOT JOURNAL OBJECTS|"" COMMAND...
set -eu
root=$1 journal=$2 objects=$3
shift 3
mount --bind "$root" "$root"
mount -o remount,bind,ro "$root"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
mount --bind "$journal" "$root/var/lib/kproxy"
if [ -n "$objects" ]; then
  mkdir "$root/tmp/objects"
  mount --bind "$objects" "$root/tmp/objects"
fi
exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  KPROXY_JAVA_OPTS="-Xmx320m -XX:+UseSerialGC" MALLOC_ARENA_MAX=2 chroot "$root" "$@"
