#!/bin/sh
# .deb via cargo-deb: installs cargo-deb when missing, packages the built devprojex binary
# (cargo deb --no-build), installs it with dpkg -i, runs /usr/bin/devprojex --version and an MCP
# initialize round trip from the installed path, checks that self-update refuses (naming apt),
# removes it with dpkg -r and checks that nothing is left. Needs root and dpkg (Debian).
set -eu
. "$(dirname "$0")/lib.sh"

CARGO_DEB_VERSION=3.8.0
work=$(mktemp -d)
installed_by_us=0
cleanup() {
    if [ "$installed_by_us" = 1 ]; then dpkg -r devprojex >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

if ! command -v dpkg >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
    fail "check-deb.sh needs dpkg and root (it installs the package on this machine)"
    finish
    exit 1
fi
if dpkg -s devprojex >/dev/null 2>&1 && dpkg -s devprojex | grep -q '^Status: install ok installed'; then
    fail "a devprojex package is already installed here; remove it first (dpkg -r devprojex)"
    finish
    exit 1
fi
if ! bin=$(find_devprojex_binary); then
    fail "no devprojex binary (build one with 'cargo build' or set DEVPROJEX_BIN)"
    finish
    exit 1
fi
note "binary: $bin"

if ensure_cargo_tool cargo-deb "$CARGO_DEB_VERSION" cargo-deb; then
    pass "cargo-deb $(cargo-deb --version 2>/dev/null | awk '{print $2}') available"
else
    fail "cannot install cargo-deb $CARGO_DEB_VERSION"
    finish
    exit 1
fi

tree=$(prepare_tree)
[ "$tree" = "$REPO_ROOT" ] || note "root Cargo.toml lacks [package.metadata.deb]: using a scratch copy with the snippet applied"

# Package the existing binary: cargo-deb maps target/release/ to $CARGO_TARGET_DIR/release/.
mkdir -p "$work/target/release" "$work/out"
cp "$bin" "$work/target/release/devprojex"
if (cd "$tree" && CARGO_TARGET_DIR="$work/target" cargo deb -p devprojex --no-build --strip --fast -o "$work/out/" >"$work/deb.log" 2>&1); then
    deb=$(ls "$work/out/"*.deb)
    pass "cargo deb builds $(basename "$deb")"
    # The name the docs tell a newcomer to download is the name cargo-deb gives.
    version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$REPO_ROOT/Cargo.toml" | head -n1)
    documented=$(basename "$deb" | sed "s/_${version}-/_VERSION-/; s/_[a-z0-9]*\.deb\$/_amd64.deb/")
    if grep -qF "$documented" "$REPO_ROOT/README.md" && grep -qF "$documented" "$REPO_ROOT/docs/install.md"; then
        pass "README.md and docs/install.md name the .deb as cargo-deb does ($documented)"
    else
        fail "README.md and docs/install.md should name the .deb $documented"
    fi
else
    fail "cargo deb"
    tail -n 20 "$work/deb.log" | sed 's/^/     | /'
    finish
    exit 1
fi

# Package contents.
dpkg-deb -c "$deb" >"$work/contents"
missing=
for path in ./usr/bin/devprojex ./usr/share/man/man1/devprojex.1.gz ./usr/share/bash-completion/completions/devprojex \
    ./usr/share/zsh/vendor-completions/_devprojex ./usr/share/fish/vendor_completions.d/devprojex.fish \
    ./usr/share/doc/devprojex/copyright; do
    grep -q " $path\$" "$work/contents" || missing="$missing $path"
done
if [ -z "$missing" ]; then
    pass ".deb holds /usr/bin/devprojex, the man page, bash/zsh/fish completions and the copyright file"
else
    fail ".deb lacks:$missing"
    sed 's/^/     | /' "$work/contents"
fi

# Install.
if dpkg -i "$deb" >"$work/dpkg-i.log" 2>&1; then
    installed_by_us=1
    pass "dpkg -i"
else
    fail "dpkg -i"
    sed 's/^/     | /' "$work/dpkg-i.log"
    finish
    exit 1
fi
dpkg -L devprojex >"$work/files"

if out=$(/usr/bin/devprojex --version 2>&1) && printf '%s' "$out" | grep -q devprojex; then
    pass "/usr/bin/devprojex --version: $out"
else
    fail "/usr/bin/devprojex --version: $out"
fi

mkdir -p "$work/project"
printf 'hello\n' >"$work/project/README.md"
if info=$(python3 "$DIST_DIR/mcp_initialize.py" /usr/bin/devprojex "$work/project" 2>&1); then
    pass "MCP initialize round trip from /usr/bin/devprojex: $info"
else
    fail "MCP initialize from /usr/bin/devprojex"
    printf '%s\n' "$info" | sed 's/^/     | /'
fi

if /usr/bin/devprojex self-update --help >/dev/null 2>&1; then
    /usr/bin/devprojex self-update --yes </dev/null >"$work/su.out" 2>&1 && rc=0 || rc=$?
    if [ "$rc" = 2 ] && grep -q "apt" "$work/su.out"; then
        pass "self-update refuses for the dpkg-owned binary and names apt"
    else
        fail "self-update from /usr/bin/devprojex (exit $rc)"
        sed 's/^/     | /' "$work/su.out"
    fi
else
    note "this build has no self-update subcommand: refusal check skipped"
fi

# Remove, and check that nothing is left.
if dpkg -r devprojex >"$work/dpkg-r.log" 2>&1; then
    installed_by_us=0
    pass "dpkg -r"
else
    fail "dpkg -r"
    sed 's/^/     | /' "$work/dpkg-r.log"
fi
left=
while IFS= read -r f; do
    [ -d "$f" ] && continue
    [ -e "$f" ] && left="$left $f"
done <"$work/files"
status=$(dpkg-query -W -f='${db:Status-Status}' devprojex 2>/dev/null || echo not-installed)
if [ -z "$left" ] && [ "$status" = not-installed ] && [ ! -e /var/lib/dpkg/info/devprojex.list ]; then
    pass "nothing left after dpkg -r (files, dpkg status, file list)"
else
    fail "left after dpkg -r: status=$status files:$left"
fi

finish
