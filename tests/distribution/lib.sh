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

# prepare_tree: print the directory to run dist / cargo-deb in. The repository itself when the
# root Cargo.toml already carries the distribution metadata (packaging/root-cargo-snippets.toml)
# and wix/main.wxs exists; otherwise a scratch copy of the working tree with the
# [package.metadata.*] and [profile.dist] tables appended and packaging/wix/main.wxs copied to wix/. Builds still
# use the repository's target directory (CARGO_TARGET_DIR), so nothing is rebuilt for the copy.
prepare_tree() {
    if grep -q '^\[package\.metadata\.deb\]' "$REPO_ROOT/Cargo.toml" &&
        grep -q '^\[package\.metadata\.wix\]' "$REPO_ROOT/Cargo.toml" &&
        grep -q '^\[profile\.dist\]' "$REPO_ROOT/Cargo.toml" &&
        [ -f "$REPO_ROOT/wix/main.wxs" ]; then
        printf '%s\n' "$REPO_ROOT"
        return 0
    fi
    _scratch=$(mktemp -d)/tree
    mkdir -p "$_scratch"
    (cd "$REPO_ROOT" && git ls-files -co --exclude-standard | while IFS= read -r f; do
        [ -e "$f" ] && printf '%s\n' "$f"
    done | tar -cf - -T -) | tar -xf - -C "$_scratch"
    python3 - "$_scratch/Cargo.toml" "$REPO_ROOT/packaging/root-cargo-snippets.toml" <<'PY'
import re, sys
cargo_path, snippets_path = sys.argv[1:3]
cargo = open(cargo_path).read()
snippets = open(snippets_path).read().split("# ----- append -----", 1)[1]
# Split into tables; append only the [package.metadata.*] ones the manifest lacks.
tables = re.split(r"(?m)^(?=\[)", snippets)
added = []
for table in tables:
    m = re.match(r"\[([^\]]+)\]", table)
    if not m or not (m.group(1).startswith("package.metadata.") or m.group(1) == "profile.dist"):
        continue
    if re.search(r"(?m)^\[" + re.escape(m.group(1)) + r"\]", cargo):
        continue
    cargo = cargo.rstrip("\n") + "\n\n" + table.strip("\n") + "\n"
    added.append(m.group(1))
open(cargo_path, "w").write(cargo)
print("scratch tree: appended " + (", ".join(added) or "nothing"), file=sys.stderr)
PY
    if [ ! -f "$_scratch/wix/main.wxs" ]; then
        mkdir -p "$_scratch/wix"
        cp "$REPO_ROOT/packaging/wix/main.wxs" "$_scratch/wix/main.wxs"
    fi
    # dist builds its source tarball with `git archive HEAD`: make the copy a repository.
    (cd "$_scratch" && git init -q && git add -A &&
        git -c user.name=check -c user.email=check@localhost commit -qm "scratch tree for distribution checks") >/dev/null
    printf '%s\n' "$_scratch"
}

# ensure_cargo_tool CMD VERSION CRATE [FLAGS...]: cargo install --locked [FLAGS] CRATE@VERSION
# unless `CMD --version` already reports VERSION. Prints how long the install took.
ensure_cargo_tool() {
    _cmd=$1; _ver=$2; _crate=$3
    shift 3
    if "$_cmd" --version 2>/dev/null | grep -q " $_ver\$\| $_ver "; then
        return 0
    fi
    note "installing $_crate $_ver (cargo install --locked $*) ..."
    _t0=$(date +%s)
    if cargo install --locked "$@" "$_crate@$_ver" >"${TMPDIR:-/tmp}/cargo-install-$_crate.log" 2>&1; then
        note "installed $_crate $_ver in $(( $(date +%s) - _t0 )) s"
    else
        tail -n 20 "${TMPDIR:-/tmp}/cargo-install-$_crate.log" | sed 's/^/     | /'
        return 1
    fi
}
