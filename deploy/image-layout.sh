#!/usr/bin/env bash
# Lays out /opt/kproxy of the container image into DEST, from what Maven built in
# modules/app/target. Both image builds call it: deploy/Containerfile (in its build stage, DEST
# /opt/kproxy) and deploy/build-image.sh (into a staging directory it then copies to /opt/kproxy),
# so that the two images have the same layout by construction; deploy/README.md, "Image layout".
#
#   deploy/image-layout.sh DEST
#
#   DEST/kproxy          the launcher (deploy/kproxy-image-launcher), 0755
#   DEST/runtime/        a jlinked Java runtime: the JDK modules jdeps finds, plus jdk.unsupported
#   DEST/lib/*.jar       the runtime jars (modules/app/target/lib) and kproxy-app.jar, on the module path
#
# Needs a JDK 25 (jdeps, jlink, jar: JAVA_HOME, else .mvn/select-jdk.sh finds one) and
# `./mvnw -Dmaven.test.skip=true package -pl modules/app -am` done. Everything is written
# root-owned-or-caller-owned and not writable by group or others; DEST must not exist yet.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../.mvn/select-jdk.sh
. "$root/.mvn/select-jdk.sh"

if [ $# -ne 1 ]; then
  echo "usage: deploy/image-layout.sh DEST" >&2
  exit 2
fi
dest=$1
app="$root/modules/app/target"
if [ ! -d "$app/lib" ] || [ ! -f "$app/classes/module-info.class" ]; then
  echo "image-layout: $app is not built; run ./mvnw -Dmaven.test.skip=true package -pl modules/app -am" >&2
  exit 1
fi
if [ -e "$dest" ]; then
  echo "image-layout: $dest exists; give a new directory" >&2
  exit 1
fi

umask 022
mkdir -p "$dest/lib"
cp "$app"/lib/*.jar "$dest/lib/"
# The application's own module as a jar (Maven's jar goal is not bound in the reactor's package of
# app's dependencies only); a fixed date keeps the jar's bytes the same for the same classes.
"$JAVA_HOME/bin/jar" --create --date=2026-01-01T00:00:00Z --file "$dest/lib/kproxy-app.jar" -C "$app/classes" .

# The JDK modules the application needs, as jdeps finds them in every jar on the module path
# (the automatic modules included), plus jdk.unsupported: libraries reach sun.misc.Unsafe by
# reflection at run time, which jdeps cannot see. (jdk.crypto.ec is not needed: since JDK 22 its
# provider lives in java.base and the module is empty.)
modules=$("$JAVA_HOME/bin/jdeps" --multi-release 25 --ignore-missing-deps --print-module-deps -q \
  --module-path "$dest/lib" --add-modules ALL-MODULE-PATH)
modules="$modules,jdk.unsupported"
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
  --output "$dest/runtime"

install -m 0755 "$root/deploy/kproxy-image-launcher" "$dest/kproxy"
chmod -R go-w "$dest"
echo "image-layout: $dest modules=$modules" >&2
