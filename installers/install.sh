#!/bin/sh
# devprojex installer for Linux and macOS (x86_64 and arm64).
#
#   curl -LsSf https://github.com/devprojex/devprojex/releases/latest/download/install.sh | sh
#   curl -LsSf .../install.sh | sh -s -- --setup
#
# Picks the release archive for this machine (glibc build, or the static musl build when glibc is
# missing or too old), downloads it and its .sha256, verifies the checksum, and installs the
# binary to ~/.local/bin (or DEVPROJEX_INSTALL_DIR) with one atomic rename. On any failure
# nothing is installed and nothing is left behind.
#
# Options:
#   --setup              run `devprojex setup` after installing (it asks before writing; without
#                        a terminal to ask on, it shows its plan and writes nothing)
#   --yes                with --setup: apply setup's plan without asking (`devprojex setup --yes`)
#   --version VERSION    install this release (default: the latest)
#   --install-dir DIR    install into DIR (default: $DEVPROJEX_INSTALL_DIR or ~/.local/bin)
#   --musl               install the static musl build (Linux)
#   -h, --help           show this help
#
# Environment:
#   DEVPROJEX_INSTALL_DIR    install directory
#   DEVPROJEX_VERSION        release to install (default: latest)
#   DEVPROJEX_DOWNLOAD_BASE  base URL holding the archives and their .sha256 files (mirrors, tests)
#
# Exit codes: 0 installed; 1 failed (nothing installed); 2 bad usage.

set -eu

APP=devprojex
REPO=devprojex/devprojex
# dist builds the glibc binaries on ubuntu-22.04; older glibc gets the musl build.
GLIBC_MIN=2.35

say() { printf '%s\n' "$*"; }
err() { printf 'devprojex installer: error: %s\n' "$*" >&2; exit 1; }
usage() {
    cat <<'USAGE'
Install devprojex (Linux, macOS; x86_64, arm64).

Usage: install.sh [--setup [--yes]] [--version VERSION] [--install-dir DIR] [--musl]

  --setup              run `devprojex setup` after installing (it asks before writing; without a
                       terminal it shows the plan and writes nothing)
  --yes                with --setup: apply the plan without asking
  --version VERSION    install this release (default: the latest)
  --install-dir DIR    install into DIR (default: $DEVPROJEX_INSTALL_DIR or ~/.local/bin)
  --musl               install the static musl build (Linux)

Environment: DEVPROJEX_INSTALL_DIR, DEVPROJEX_VERSION, DEVPROJEX_DOWNLOAD_BASE (mirror base URL).
USAGE
}

setup=0
setup_yes=0
version=${DEVPROJEX_VERSION:-latest}
install_dir=${DEVPROJEX_INSTALL_DIR:-}
force_musl=0
while [ $# -gt 0 ]; do
    case $1 in
        --setup) setup=1 ;;
        --yes) setup_yes=1 ;;
        --version) [ $# -ge 2 ] || { echo "--version needs a value" >&2; exit 2; }; version=$2; shift ;;
        --version=*) version=${1#--version=} ;;
        --install-dir) [ $# -ge 2 ] || { echo "--install-dir needs a value" >&2; exit 2; }; install_dir=$2; shift ;;
        --install-dir=*) install_dir=${1#--install-dir=} ;;
        --musl) force_musl=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "devprojex installer: unknown option: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [ -z "$install_dir" ]; then
    [ -n "${HOME:-}" ] || err "HOME is not set; pass --install-dir DIR or set DEVPROJEX_INSTALL_DIR"
    install_dir=$HOME/.local/bin
fi

# ---- platform -> target triple ------------------------------------------------------------
os=$(uname -s 2>/dev/null || echo unknown)
arch=$(uname -m 2>/dev/null || echo unknown)
case $arch in
    x86_64|amd64) arch=x86_64 ;;
    arm64|aarch64) arch=aarch64 ;;
    *) err "unsupported CPU architecture '$arch': devprojex publishes x86_64 and arm64 builds. Build from source with: cargo install --locked devprojex" ;;
esac

glibc_version() {
    # Prints the glibc version (e.g. 2.36), or nothing when the C library is not glibc.
    v=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}') || v=
    if [ -z "$v" ]; then
        v=$(ldd --version 2>&1 | awk 'NR==1 && /GLIBC|GNU libc/ {print $NF}') || v=
    fi
    printf '%s' "$v"
}

version_ge() {
    # version_ge A B: A >= B for dotted numeric versions.
    [ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | head -n1)" = "$2" ]
}

case $os in
    Darwin)
        # An x86_64 shell under Rosetta on Apple silicon: install the native build.
        if [ "$arch" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
            arch=aarch64
        fi
        targets="$arch-apple-darwin"
        ;;
    Linux)
        musl_target="$arch-unknown-linux-musl"
        gnu_target="$arch-unknown-linux-gnu"
        glibc=$(glibc_version)
        if [ "$force_musl" = 1 ]; then
            targets=$musl_target
        elif [ -n "$glibc" ] && version_ge "$glibc" "$GLIBC_MIN"; then
            # The glibc build first; the musl build if it does not run here.
            targets="$gnu_target $musl_target"
        else
            targets=$musl_target
        fi
        ;;
    *)
        err "unsupported platform '$os': this installer handles Linux and macOS. On Windows use install.ps1 (PowerShell) or winget."
        ;;
esac

# ---- tools ----------------------------------------------------------------------------------
if command -v curl >/dev/null 2>&1; then
    fetch() { curl --proto '=https,http' --fail --location --silent --show-error --retry 2 --output "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
    fetch() { wget --quiet --tries=3 --output-document="$2" "$1"; }
else
    err "neither curl nor wget is installed; install one of them and run this again"
fi

if command -v sha256sum >/dev/null 2>&1; then
    sha256_of() { sha256sum "$1" | awk '{print $1}'; }
elif command -v shasum >/dev/null 2>&1; then
    sha256_of() { shasum -a 256 "$1" | awk '{print $1}'; }
elif command -v openssl >/dev/null 2>&1; then
    sha256_of() { openssl dgst -sha256 "$1" | awk '{print $NF}'; }
else
    err "no sha256 tool found (sha256sum, shasum or openssl); cannot verify the download"
fi
command -v tar >/dev/null 2>&1 || err "tar is not installed"

# ---- where to download from -----------------------------------------------------------------
if [ -n "${DEVPROJEX_DOWNLOAD_BASE:-}" ]; then
    base=${DEVPROJEX_DOWNLOAD_BASE%/}
elif [ "$version" = latest ]; then
    base="https://github.com/$REPO/releases/latest/download"
else
    base="https://github.com/$REPO/releases/download/v${version#v}"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t devprojex)
staged=
cleanup() {
    rm -rf "$tmp"
    [ -z "$staged" ] || rm -f "$staged"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

tr_lower() { tr 'ABCDEF' 'abcdef'; }

# download_verified TARGET: leaves the verified, extracted binary at $tmp/TARGET/bin/devprojex.
download_verified() {
    target=$1
    archive="$APP-$target.tar.gz"
    dir="$tmp/$target"
    mkdir -p "$dir/bin"
    say "Downloading $archive ..."
    fetch "$base/$archive" "$dir/$archive" || err "could not download $base/$archive"
    fetch "$base/$archive.sha256" "$dir/$archive.sha256" || err "could not download $base/$archive.sha256 (needed to verify the archive)"
    expected=$(awk 'NF {print $1; exit}' "$dir/$archive.sha256" | tr_lower)
    actual=$(sha256_of "$dir/$archive" | tr_lower)
    case $expected in
        *[!0-9a-f]*|"") err "$archive.sha256 does not hold a sha256 digest; nothing was installed" ;;
    esac
    [ ${#expected} -eq 64 ] || err "$archive.sha256 does not hold a sha256 digest; nothing was installed"
    if [ "$expected" != "$actual" ]; then
        err "checksum mismatch for $archive: expected $expected, got $actual. The download is corrupt or was tampered with; nothing was installed."
    fi
    tar -xzf "$dir/$archive" -C "$dir" || err "could not extract $archive; nothing was installed"
    if [ -f "$dir/$APP-$target/$APP" ]; then
        mv "$dir/$APP-$target/$APP" "$dir/bin/$APP"
    elif [ -f "$dir/$APP" ]; then
        mv "$dir/$APP" "$dir/bin/$APP"
    else
        err "$archive does not contain the $APP binary; nothing was installed"
    fi
    chmod 755 "$dir/bin/$APP"
}

chosen=
for target in $targets; do
    download_verified "$target"
    if "$tmp/$target/bin/$APP" --version >/dev/null 2>&1; then
        chosen=$target
        break
    fi
    say "The $target build does not run on this machine."
done
[ -n "$chosen" ] || err "no devprojex build runs on this machine ($os $arch); nothing was installed"

# ---- install: stage beside the destination, then one rename -----------------------------------
mkdir -p "$install_dir" || err "cannot create $install_dir"
staged="$install_dir/.$APP.install.$$"
cp "$tmp/$chosen/bin/$APP" "$staged" || err "cannot write to $install_dir"
chmod 755 "$staged"
mv -f "$staged" "$install_dir/$APP" || err "cannot replace $install_dir/$APP"
staged=

installed_version=$("$install_dir/$APP" --version 2>/dev/null || echo "$APP")
say "Installed $installed_version ($chosen) to $install_dir/$APP"

case ":${PATH:-}:" in
    *":$install_dir:"*) on_path=1 ;;
    *) on_path=0 ;;
esac
if [ "$on_path" = 0 ]; then
    say ""
    say "$install_dir is not on your PATH. Add it, then open a new terminal:"
    say "  bash/zsh:  echo 'export PATH=\"$install_dir:\$PATH\"' >> ~/.profile   (zsh: ~/.zshrc)"
    say "  fish:      fish_add_path $install_dir"
    say "Until then, run it as $install_dir/$APP"
fi

if [ "$setup" = 1 ]; then
    say ""
    if [ "$setup_yes" = 1 ]; then
        say "Running devprojex setup --yes ..."
        exec "$install_dir/$APP" setup --yes </dev/null
    fi
    # Under `curl ... | sh` stdin is the script: give setup the terminal when there is one.
    if (exec </dev/tty) 2>/dev/null; then
        say "Running devprojex setup ..."
        exec "$install_dir/$APP" setup </dev/tty
    fi
    # No terminal to confirm on: show the plan, write nothing, and leave the install a success.
    say "Running devprojex setup --dry-run (no terminal to confirm the changes on) ..."
    "$install_dir/$APP" setup --dry-run </dev/null || true
    say ""
    say "devprojex is installed; setup wrote nothing. Run 'devprojex setup' in a terminal, or"
    say "re-run the installer with --setup --yes to apply this plan without asking."
else
    say ""
    say "Next: run 'devprojex setup' to register devprojex with your MCP clients."
fi
