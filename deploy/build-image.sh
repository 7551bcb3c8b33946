#!/usr/bin/env bash
# Builds the kproxy image without a registry: a Debian base from the package mirror (mmdebstrap),
# imported with podman, /opt/kproxy laid out by deploy/image-layout.sh (the same script
# deploy/Containerfile runs), assembled with buildah (from, copy, config, commit; no RUN step, so
# no container is ever run). deploy/README.md, "Build the image", says how to load and roll it out.
#
#   deploy/build-image.sh [--tag NAME] [--save FILE] [--skip-maven] [--fresh-base]
#
#   --tag NAME     the image name (default localhost/kproxy:<version of pom.xml without -SNAPSHOT>,
#                  the name deploy/daemonset.yaml runs)
#   --save FILE    also write the image to FILE with `podman save --format docker-archive`
#                  (for `ctr -n k8s.io images import`, `docker load`, `podman load`)
#   --skip-maven   use what Maven built in modules/app/target instead of building it
#   --fresh-base   build the Debian base again even when the cached one is recent
#
# Needs root, mmdebstrap, podman, buildah and a JDK 25. The base tarball is cached under
# $KPROXY_IMAGE_CACHE (default /var/tmp/kproxy-image-cache), keyed by the mmdebstrap command,
# and rebuilt when older than 7 days so that the image takes Debian's updates; the imported base
# image is tagged by the tarball's content, so a rebuilt base with the same bytes is not imported
# twice. Prints the image's name, size and build time on standard output.
set -euo pipefail
start=$SECONDS
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${KPROXY_IMAGE_CACHE:-/var/tmp/kproxy-image-cache}
tag="" save="" skip_maven=0 fresh_base=0
while [ $# -gt 0 ]; do
  case $1 in
    --tag) tag=$2; shift 2 ;;
    --save) save=$2; shift 2 ;;
    --skip-maven) skip_maven=1; shift ;;
    --fresh-base) fresh_base=1; shift ;;
    *) echo "build-image: unknown argument $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then
  echo "build-image: needs root (mmdebstrap and buildah as root)" >&2
  exit 1
fi
for tool in mmdebstrap podman buildah; do
  command -v "$tool" >/dev/null || { echo "build-image: needs $tool (apt-get install $tool)" >&2; exit 1; }
done
version=$(sed -n 's#^  <version>\(.*\)</version>#\1#p' "$root/pom.xml" | head -n 1)
version=${version%-SNAPSHOT}
tag=${tag:-localhost/kproxy:$version}

# The packages of the base: one list, the Containerfile's ARG, so both images install the same.
packages=$(sed -n 's/^ARG KPROXY_PACKAGES="\(.*\)"$/\1/p' "$root/deploy/Containerfile")
[ -n "$packages" ] || { echo "build-image: no ARG KPROXY_PACKAGES=\"...\" in deploy/Containerfile" >&2; exit 1; }

if [ "$skip_maven" = 0 ]; then
  echo "build-image: building the application" >&2
  (cd "$root" && ./mvnw -q -B -Dmaven.test.skip=true package -pl modules/app -am) >&2
fi

# The base: the packages and what they need, nothing else. The custom variant installs only the
# listed packages and their dependencies. It does not add Essential packages on its own, so dpkg,
# dash and what dpkg's maintainer scripts call (coreutils, sed, grep, findutils, diffutils, tar,
# perl-base for debconf) are listed to install, and purged again afterwards: the agent calls none
# of them (it runs nft, iptables, ipset, conntrack and ip; the launcher needs only dash as
# /bin/sh). dpkg stays, so that its status file tells scanners what is installed. Documentation,
# manual pages, translations and glibc's iconv modules are not unpacked; apt's lists and cache
# (there is no apt in the image; its download directory belongs to _apt) and the mail spool
# (writable by group mail) go; /var/local is root's only (Debian gives group staff write).
mm_args=(--quiet --format=tar --variant=custom --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
  "--include=base-files,base-passwd,dpkg,dash,coreutils,sed,grep,findutils,diffutils,tar,debianutils,libc-bin,perl-base,${packages// /,}"
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*'
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/lib/*/gconv/*'
  --customize-hook='chroot "$1" dpkg --purge --force-remove-essential --force-depends debconf perl-base diffutils findutils grep sed tar coreutils'
  --skip=cleanup/apt --customize-hook='rm -rf "$1"/var/cache/apt "$1"/var/lib/apt "$1"/var/cache/debconf "$1"/var/log/* "$1"/var/lib/dpkg/*-old "$1"/var/mail "$1"/var/spool/mail && chown root:root "$1"/var/local && chmod 0755 "$1"/var/local'
  bookworm)
key=$(printf '%s\n' "${mm_args[@]}" | sha256sum | cut -c1-16)
base_tar="$cache/base-$key.tar"
mkdir -p "$cache"
if [ "$fresh_base" = 1 ] || [ -z "$(find "$base_tar" -mtime -7 2>/dev/null)" ]; then
  echo "build-image: building the Debian base ($packages)" >&2
  part="$base_tar.$$.part"
  trap 'rm -f "$part"' EXIT
  mmdebstrap "${mm_args[@]}" "$part" >&2
  mv "$part" "$base_tar"
  find "$cache" -maxdepth 1 -name 'base-*.tar' ! -name "base-$key.tar" -delete
fi
base="localhost/kproxy-base:$(sha256sum "$base_tar" | cut -c1-16)"
if ! podman image exists "$base"; then
  podman import --quiet "$base_tar" "$base" >/dev/null
  # Older bases go (their layers stay while an image built on them is kept).
  for old in $(podman images --format '{{.Repository}}:{{.Tag}}' localhost/kproxy-base); do
    [ "$old" = "$base" ] || podman rmi "$old" >/dev/null 2>&1 || true
  done
fi

stage=$(mktemp -d "$cache/stage.XXXXXX")
ctr=""
cleanup() {
  [ -z "$ctr" ] || buildah rm "$ctr" >/dev/null 2>&1 || true
  rm -rf "$stage"
}
trap cleanup EXIT
"$root/deploy/image-layout.sh" "$stage/kproxy"
# Mount points of the DaemonSet's volumes: the journal (private to root) and the configuration.
install -d -m 0700 "$stage/journal"
install -d -m 0755 "$stage/config"

ctr=$(buildah from --pull-never --quiet "$base")
buildah copy --quiet --chown 0:0 "$ctr" "$stage/kproxy" /opt/kproxy >/dev/null
buildah copy --quiet --chown 0:0 "$ctr" "$stage/journal" /var/lib/kproxy >/dev/null
buildah copy --quiet --chown 0:0 "$ctr" "$stage/config" /etc/kproxy >/dev/null
# buildah copy creates a copied directory's destination with its default mode: set the journal's.
chmod 0700 "$(buildah mount "$ctr")/var/lib/kproxy"
buildah umount "$ctr" >/dev/null
revision=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# The same ENTRYPOINT, CMD and labels as deploy/Containerfile (ImageIT compares them).
buildah config --entrypoint '["/opt/kproxy/kproxy"]' --cmd '["run", "--help"]' \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --label org.opencontainers.image.title=kproxy --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.revision=$revision" "$ctr"
previous=$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
buildah commit --quiet --rm "$ctr" "$tag" >/dev/null
ctr=""
# The image this build replaced under the same name, unless a container or another name uses it.
if [ -n "$previous" ] && [ "$previous" != "$(podman image inspect --format '{{.Id}}' "$tag")" ]; then
  podman rmi "$previous" >/dev/null 2>&1 || true
fi

if [ -n "$save" ]; then
  rm -f "$save"
  podman save --quiet --format docker-archive -o "$save" "$tag"
fi
size=$(podman image inspect --format '{{.Size}}' "$tag")
echo "image=$tag size_bytes=$size size_mb=$((size / 1000000)) seconds=$((SECONDS - start))${save:+ saved=$save}"
