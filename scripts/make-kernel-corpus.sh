#!/usr/bin/env bash
# Builds the Linux kernel benchmark corpus: Debian's linux-source-6.1, unpacked and committed into
# a git repository at DIR (default /tmp/kernel-corpus). Nothing of the kernel is committed to this
# repository. Idempotent: an existing corpus with a commit is left as it is.
#
#   scripts/make-kernel-corpus.sh [DIR]
#
# Debian's top-level .gitignore starts with its packaging rules `/*` and `!/debian/`, which make
# Git (and devprojex, rightly) see no files; the script drops exactly those two lines.
set -euo pipefail

dir="${1:-/tmp/kernel-corpus}"
if git -C "$dir" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "$dir: corpus already present ($(git -C "$dir" rev-parse --short HEAD))" >&2
    exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/kernel-corpus-dl.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== apt-get download linux-source-6.1" >&2
(cd "$work" && apt-get download linux-source-6.1 >&2)
deb="$(ls "$work"/linux-source-6.1_*.deb)"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards '*/linux-source-6.1.tar.xz'
tarball="$(find "$work" -name 'linux-source-6.1.tar.xz' | head -n 1)"

echo "== unpacking $(basename "$tarball") into $dir" >&2
mkdir -p "$dir"
tar -xJf "$tarball" -C "$dir" --strip-components=1

# Drop Debian's packaging rules only; the kernel's own rules stay.
sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$dir/.gitignore"

echo "== committing the tree" >&2
git -C "$dir" init -q
git -C "$dir" -c core.autocrlf=false add -A
git -C "$dir" -c user.name=corpus -c user.email=corpus@localhost commit -q -m "linux-source-6.1 (Debian)"
echo "$dir: $(git -C "$dir" ls-files | wc -l) tracked files" >&2
