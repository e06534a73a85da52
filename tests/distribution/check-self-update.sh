#!/bin/sh
# `devprojex self-update` of the real binary against a loopback server (127.0.0.1) that mimics
# GitHub's releases API (DEVPROJEX_UPDATE_API_BASE): a copy of the binary in a scratch
# "standalone" directory updates itself to a newer release; a corrupt download (sha256 mismatch)
# is refused and leaves the binary untouched; without --yes and without a terminal it refuses
# without reading stdin; `--check` changes nothing. Skipped (not failed) when the binary was
# built without the self-update feature.
set -eu
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
trap 'stop_http_server; rm -rf "$work"' EXIT

if ! bin=$(find_devprojex_binary); then
    fail "no devprojex binary (build one with 'cargo build' or set DEVPROJEX_BIN)"
    finish
    exit 1
fi
if ! "$bin" self-update --help >/dev/null 2>&1; then
    note "$bin has no self-update subcommand (built without the self-update feature): skipped"
    finish
    exit 0
fi
current=$("$bin" --version | awk '{print $2}')
target=$(host_target)
note "binary: $bin ($current, $target)"

# The "new release": a stand-in executable that reports a higher version.
cat >"$work/new-devprojex" <<'EOF'
#!/bin/sh
echo "devprojex 999.0.0"
EOF
chmod 755 "$work/new-devprojex"

site="$work/site"
mkdir -p "$site/assets" "$site/repos/devprojex/devprojex/releases/tags"
start_http_server "$site" || { fail "could not start the loopback HTTP server"; finish; exit 1; }
api="http://127.0.0.1:$HTTP_PORT"

# publish ARCHIVE_BYTES_FROM PUBLISHED_DIGEST_FROM: (re)write the release JSON and assets.
publish() {
    make_dist_archive "$work/new-devprojex" "$target" "$work"
    cp "$work/devprojex-$target.tar.gz" "$site/assets/"
    printf '%s  %s\n' "$(sha256_hex "$1")" "devprojex-$target.tar.gz" >"$site/assets/devprojex-$target.tar.gz.sha256"
    cat >"$site/repos/devprojex/devprojex/releases/latest" <<EOF
{"tag_name": "v999.0.0", "name": "999.0.0", "created_at": "2026-11-30T00:00:00Z", "body": "",
 "assets": [
  {"name": "devprojex-$target.tar.gz.sha256", "url": "$api/assets/devprojex-$target.tar.gz.sha256"},
  {"name": "devprojex-$target.tar.gz", "url": "$api/assets/devprojex-$target.tar.gz"}
 ]}
EOF
    cp "$site/repos/devprojex/devprojex/releases/latest" "$site/repos/devprojex/devprojex/releases/tags/v999.0.0"
}
make_dist_archive "$work/new-devprojex" "$target" "$work"

install_copy() {
    rm -rf "$work/standalone"
    mkdir -p "$work/standalone"
    cp "$bin" "$work/standalone/devprojex"
}
run_update() {
    HOME="$work/home" DEVPROJEX_UPDATE_API_BASE="$api" "$work/standalone/devprojex" self-update "$@" \
        >"$work/out" 2>&1 </dev/null && rc=0 || rc=$?
}

# 1. --check: reports, changes nothing.
publish "$work/devprojex-$target.tar.gz"
install_copy
run_update --check
if [ "$rc" = 0 ] && grep -q "999.0.0" "$work/out" && cmp -s "$bin" "$work/standalone/devprojex"; then
    pass "self-update --check reports 999.0.0 and changes nothing"
else
    fail "self-update --check (exit $rc)"
    sed 's/^/     | /' "$work/out"
fi

# 2. No --yes, no terminal: refuses without reading stdin.
run_update
if [ "$rc" = 2 ] && grep -q -- "--yes" "$work/out" && cmp -s "$bin" "$work/standalone/devprojex"; then
    pass "self-update without --yes and without a terminal refuses (exit 2)"
else
    fail "self-update without --yes (exit $rc)"
    sed 's/^/     | /' "$work/out"
fi

# 3. Corrupt download: published digest of other bytes.
publish "$work/new-devprojex"
run_update --yes
if [ "$rc" = 1 ] && grep -q "sha256" "$work/out" && cmp -s "$bin" "$work/standalone/devprojex" &&
    [ "$(ls -A "$work/standalone")" = devprojex ]; then
    pass "self-update refuses a checksum mismatch; the binary is untouched"
else
    fail "self-update with a corrupt download (exit $rc)"
    sed 's/^/     | /' "$work/out"
fi

# 4. The real update: the running binary replaces itself.
publish "$work/devprojex-$target.tar.gz"
run_update --yes
if [ "$rc" = 0 ] && [ "$("$work/standalone/devprojex" --version)" = "devprojex 999.0.0" ] &&
    [ "$(ls -A "$work/standalone")" = devprojex ]; then
    pass "self-update --yes replaces the running binary with the verified release"
else
    fail "self-update --yes (exit $rc)"
    sed 's/^/     | /' "$work/out"
fi

# 5. A cargo-installed copy is refused, naming cargo install.
mkdir -p "$work/home/.cargo/bin"
cp "$bin" "$work/home/.cargo/bin/devprojex"
HOME="$work/home" CARGO_HOME="$work/home/.cargo" DEVPROJEX_UPDATE_API_BASE="$api" \
    "$work/home/.cargo/bin/devprojex" self-update --yes >"$work/out" 2>&1 </dev/null && rc=0 || rc=$?
if [ "$rc" = 2 ] && grep -q "cargo install" "$work/out" && cmp -s "$bin" "$work/home/.cargo/bin/devprojex"; then
    pass "self-update refuses a cargo-installed binary and names cargo install"
else
    fail "self-update from ~/.cargo/bin (exit $rc)"
    sed 's/^/     | /' "$work/out"
fi

finish
