# Shared helpers for the distribution checks (sourced, not run). POSIX sh.

REPO_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIST_DIR="$REPO_ROOT/tests/distribution"
PASSED=0
FAILED=0

pass() { PASSED=$((PASSED + 1)); printf 'ok   %s\n' "$*"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL %s\n' "$*"; }
note() { printf '     %s\n' "$*"; }

# Print the summary line and exit non-zero when anything failed.
finish() {
    printf '%s: %d passed, %d failed\n' "$(basename "$0")" "$PASSED" "$FAILED"
    [ "$FAILED" -eq 0 ]
}

# The devprojex binary to package/test: $DEVPROJEX_BIN, else target/release, else target/debug
# (of this checkout, then of the main checkout the CI builds).
find_devprojex_binary() {
    for candidate in "${DEVPROJEX_BIN:-}" "$REPO_ROOT/target/release/devprojex" "$REPO_ROOT/target/debug/devprojex"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    return 1
}

host_target() { rustc -vV 2>/dev/null | sed -n 's/^host: //p'; }

# start_http_server DIR: serve DIR on 127.0.0.1 at a free port; sets HTTP_PORT and HTTP_PID.
start_http_server() {
    _log=$(mktemp)
    python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$1" >"$_log" 2>&1 &
    HTTP_PID=$!
    HTTP_PORT=
    _i=0
    while [ $_i -lt 50 ]; do
        HTTP_PORT=$(sed -n 's/.*port \([0-9][0-9]*\).*/\1/p' "$_log" | head -n1)
        [ -n "$HTTP_PORT" ] && break
        sleep 0.1
        _i=$((_i + 1))
    done
    rm -f "$_log"
    [ -n "$HTTP_PORT" ]
}

stop_http_server() {
    if [ -n "${HTTP_PID:-}" ]; then
        kill "$HTTP_PID" 2>/dev/null || true
        wait "$HTTP_PID" 2>/dev/null || true
        HTTP_PID=
    fi
}

sha256_hex() { sha256sum "$1" | awk '{print $1}'; }

# make_dist_archive BINARY TARGET OUTDIR: a release archive laid out like dist's
# (devprojex-TARGET/ holding the binary, README, licences) plus its .sha256 file.
make_dist_archive() {
    _stage=$(mktemp -d)
    mkdir -p "$_stage/devprojex-$2"
    cp "$1" "$_stage/devprojex-$2/devprojex"
    chmod 755 "$_stage/devprojex-$2/devprojex"
    for f in README.md LICENSE-MIT LICENSE-APACHE; do
        [ -f "$REPO_ROOT/$f" ] && cp "$REPO_ROOT/$f" "$_stage/devprojex-$2/"
    done
    tar -czf "$3/devprojex-$2.tar.gz" -C "$_stage" "devprojex-$2"
    (cd "$3" && sha256sum "devprojex-$2.tar.gz" > "devprojex-$2.tar.gz.sha256")
    rm -rf "$_stage"
}
