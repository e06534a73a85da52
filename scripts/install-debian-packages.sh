#!/usr/bin/env bash
# Installs Debian packages for a script that found them missing, or says why it cannot.
# usage: scripts/install-debian-packages.sh WHO PACKAGE...   (WHO names the caller in messages)
# Needs root and apt-get; when the package lists are stale, updates them once and retries.
set -euo pipefail
who="$1"
shift
[ "$#" -gt 0 ] || exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "$who: needs root and apt-get to install: $*" >&2
    exit 1
fi
echo "$who: installing $*" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "$@" >/dev/null ||
    { apt-get update -q >/dev/null && apt-get install -y -q "$@" >/dev/null; }
