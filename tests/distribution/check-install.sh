#!/bin/sh
# installers/install.sh end to end against a loopback HTTP server (127.0.0.1, free port) serving a
# release archive built from the local devprojex binary: install, run, reinstall, checksum
# mismatch, unknown platform, no download tool, --setup. Also lints install.sh (shellcheck,
# when installed) and checks that install.ps1 mirrors install.sh's steps.
set -eu
. "$(dirname "$0")/lib.sh"

INSTALL_SH="$REPO_ROOT/installers/install.sh"
INSTALL_PS1="$REPO_ROOT/installers/install.ps1"
# dash when available: the installer must run under a strict POSIX shell.
SH=$(command -v dash || command -v sh)

work=$(mktemp -d)
trap 'stop_http_server; rm -rf "$work"' EXIT

if ! bin=$(find_devprojex_binary); then
    fail "no devprojex binary (build one with 'cargo build' or set DEVPROJEX_BIN)"
    finish
    exit 1
fi
note "binary: $bin"

# Serve both Linux builds of this arch (the installer picks gnu or musl by the host's glibc).
arch=$(uname -m)
case $arch in amd64) arch=x86_64 ;; arm64) arch=aarch64 ;; esac
good="$work/good"
bad="$work/bad"
stub="$work/stub"
mkdir -p "$good" "$bad" "$stub"
for t in "$arch-unknown-linux-gnu" "$arch-unknown-linux-musl"; do
    make_dist_archive "$bin" "$t" "$good"
    # Same archive, wrong published digest.
    cp "$good/devprojex-$t.tar.gz" "$bad/"
    printf '%s  %s\n' "$(printf 'corrupt' | sha256sum | awk '{print $1}')" "devprojex-$t.tar.gz" >"$bad/devprojex-$t.tar.gz.sha256"
done
# A stand-in binary that records `setup` runs, for --setup.
cat >"$work/stub-devprojex" <<'EOF'
#!/bin/sh
case ${1:-} in
    --version) echo "devprojex 0.0.0-stub" ;;
    setup) echo "$*" >"$HOME/setup-ran" ;;
esac
EOF
chmod 755 "$work/stub-devprojex"
for t in "$arch-unknown-linux-gnu" "$arch-unknown-linux-musl"; do
    make_dist_archive "$work/stub-devprojex" "$t" "$stub"
done

start_http_server "$work" || { fail "could not start the loopback HTTP server"; finish; exit 1; }
base="http://127.0.0.1:$HTTP_PORT"
note "serving $work at $base"

# run_installer NAME DOWNLOAD_SUBDIR [args...]: runs install.sh with a scratch HOME and install dir
# (and PATH=$RUN_PATH when set, under the command $RUN_PREFIX when set); leaves the exit code in
# _rc.
RUN_PATH=
run_installer() {
    _name=$1
    _sub=$2
    shift 2
    mkdir -p "$work/home-$_name"
    PATH="${RUN_PATH:-$PATH}" HOME="$work/home-$_name" DEVPROJEX_DOWNLOAD_BASE="$base/$_sub" \
        DEVPROJEX_INSTALL_DIR="$work/bin-$_name" ${RUN_PREFIX:-} "$SH" "$INSTALL_SH" "$@" >"$work/out-$_name" 2>&1 && _rc=0 || _rc=$?
    return 0
}

nothing_installed() {
    # The install dir is absent or empty (no binary, no staged leftovers).
    [ ! -d "$1" ] || [ -z "$(ls -A "$1")" ]
}

# 1. Install, then run the installed binary.
run_installer ok good
if [ "$_rc" -eq 0 ] && [ -x "$work/bin-ok/devprojex" ] &&
    [ "$(sha256_hex "$work/bin-ok/devprojex")" = "$(sha256_hex "$bin")" ] &&
    "$work/bin-ok/devprojex" --version >"$work/version" 2>&1; then
    pass "install.sh installs a verified binary that runs ($(head -n1 "$work/version"))"
else
    fail "install.sh install (rc=$_rc)"
    sed 's/^/     | /' "$work/out-ok"
fi
if grep -q "is not on your PATH" "$work/out-ok"; then
    pass "install.sh explains PATH when the install dir is not on it"
else
    fail "install.sh did not explain PATH"
fi
if [ "$(ls -A "$work/bin-ok" | wc -l)" -eq 1 ]; then
    pass "install.sh leaves exactly one file in the install dir"
else
    fail "install.sh left extra files: $(ls -A "$work/bin-ok" | tr '\n' ' ')"
fi

# 2. Reinstall over an existing binary (upgrade path).
run_installer ok good
if [ "$_rc" -eq 0 ] && [ "$(ls -A "$work/bin-ok" | wc -l)" -eq 1 ]; then
    pass "install.sh replaces an existing install"
else
    fail "install.sh reinstall (rc=$_rc)"
    sed 's/^/     | /' "$work/out-ok"
fi

# 3. Checksum mismatch: clear failure, nothing installed.
run_installer bad bad
if [ "$_rc" -ne 0 ] && grep -q "checksum mismatch" "$work/out-bad" && nothing_installed "$work/bin-bad"; then
    pass "install.sh refuses a checksum mismatch and installs nothing"
else
    fail "install.sh checksum mismatch (rc=$_rc)"
    sed 's/^/     | /' "$work/out-bad"
fi

# 4. A checksum mismatch must not damage an existing install either.
cp "$work/bin-ok/devprojex" "$work/before"
HOME="$work/home-ok" DEVPROJEX_DOWNLOAD_BASE="$base/bad" DEVPROJEX_INSTALL_DIR="$work/bin-ok" \
    "$SH" "$INSTALL_SH" >"$work/out-bad2" 2>&1 && _rc=0 || _rc=$?
if [ "$_rc" -ne 0 ] && cmp -s "$work/before" "$work/bin-ok/devprojex" && [ "$(ls -A "$work/bin-ok" | wc -l)" -eq 1 ]; then
    pass "install.sh leaves an existing install untouched on a checksum mismatch"
else
    fail "install.sh damaged an existing install (rc=$_rc)"
fi

# 5. Unknown platform: a fake uname.
mkdir -p "$work/fakebin"
cat >"$work/fakebin/uname" <<'EOF'
#!/bin/sh
case ${1:-} in -m) echo sparc64 ;; *) echo SunOS ;; esac
EOF
chmod 755 "$work/fakebin/uname"
RUN_PATH="$work/fakebin:$PATH"
run_installer plat good
RUN_PATH=
if [ "$_rc" -ne 0 ] && grep -q "unsupported" "$work/out-plat" && nothing_installed "$work/bin-plat"; then
    pass "install.sh fails clearly on an unknown platform"
else
    fail "install.sh unknown platform (rc=$_rc)"
    sed 's/^/     | /' "$work/out-plat"
fi

# 6. No download tool: a PATH with everything the script needs except curl and wget.
mkdir -p "$work/nofetch"
for tool in uname mktemp awk tr sort head getconf ldd sha256sum tar mkdir cp chmod mv rm cat sed ls; do
    p=$(command -v "$tool" 2>/dev/null) && ln -sf "$p" "$work/nofetch/$tool"
done
RUN_PATH="$work/nofetch"
run_installer nofetch good
RUN_PATH=
if [ "$_rc" -ne 0 ] && grep -q "neither curl nor wget" "$work/out-nofetch" && nothing_installed "$work/bin-nofetch"; then
    pass "install.sh fails clearly without curl or wget"
else
    fail "install.sh without a download tool (rc=$_rc)"
    sed 's/^/     | /' "$work/out-nofetch"
fi

# 7. --setup runs `devprojex setup` from the installed binary. Without a terminal to confirm on
# (setsid: no controlling terminal, as under CI or `curl | sh` in a container) it shows the plan
# (--dry-run), writes nothing and exits 0; --setup --yes applies it.
if command -v setsid >/dev/null 2>&1; then
    RUN_PREFIX="setsid -w"
    run_installer setup stub --setup </dev/null
    RUN_PREFIX=
    if [ "$_rc" -eq 0 ] && [ "$(cat "$work/home-setup/setup-ran" 2>/dev/null)" = "setup --dry-run" ] &&
        grep -q "setup wrote nothing" "$work/out-setup"; then
        pass "install.sh --setup without a terminal shows setup's plan, writes nothing, exits 0"
    else
        fail "install.sh --setup without a terminal (rc=$_rc, ran: $(cat "$work/home-setup/setup-ran" 2>/dev/null))"
        sed 's/^/     | /' "$work/out-setup"
    fi
else
    note "setsid not installed: the no-terminal --setup case is not checked"
fi
run_installer setup-yes stub --setup --yes </dev/null
if [ "$_rc" -eq 0 ] && [ "$(cat "$work/home-setup-yes/setup-ran" 2>/dev/null)" = "setup --yes" ]; then
    pass "install.sh --setup --yes runs devprojex setup --yes"
else
    fail "install.sh --setup --yes (rc=$_rc)"
    sed 's/^/     | /' "$work/out-setup-yes"
fi

# 8. Bad usage is exit 2.
"$SH" "$INSTALL_SH" --no-such-flag >/dev/null 2>&1 && _rc=0 || _rc=$?
if [ "$_rc" -eq 2 ]; then pass "install.sh rejects unknown options (exit 2)"; else fail "install.sh unknown option exit $_rc"; fi

# 9. Lint.
if command -v shellcheck >/dev/null 2>&1; then
    if shellcheck -s sh "$INSTALL_SH" >"$work/shellcheck" 2>&1; then
        pass "shellcheck installers/install.sh"
    else
        fail "shellcheck installers/install.sh"
        sed 's/^/     | /' "$work/shellcheck"
    fi
else
    note "shellcheck not installed: lint skipped (apt-get install shellcheck)"
fi

# 10. install.ps1 mirrors install.sh (no PowerShell here: neither Debian, PyPI nor npm ships it).
if command -v pwsh >/dev/null 2>&1; then
    if pwsh -NoProfile -Command "\$e=\$null; [System.Management.Automation.Language.Parser]::ParseFile('$INSTALL_PS1', [ref]\$null, [ref]\$e) | Out-Null; if (\$e.Count) { \$e; exit 1 }" >"$work/ps1" 2>&1; then
        pass "install.ps1 parses (pwsh)"
    else
        fail "install.ps1 does not parse"
        sed 's/^/     | /' "$work/ps1"
    fi
fi
missing=
for needle in DEVPROJEX_DOWNLOAD_BASE DEVPROJEX_INSTALL_DIR DEVPROJEX_VERSION '.sha256' 'Get-FileHash' \
    'checksum mismatch' 'unsupported CPU architecture' 'Move-Item' '[switch]$Setup' '[switch]$Yes' '& $dest setup' 'setup --dry-run' \
    'not on your PATH' 'x86_64-pc-windows-msvc' 'aarch64-pc-windows-msvc' 'Remove-Item -Recurse -Force $tmp'; do
    grep -qF -- "$needle" "$INSTALL_PS1" || missing="$missing [$needle]"
done
if [ -z "$missing" ]; then
    pass "install.ps1 mirrors install.sh (base URL, install dir, sha256 check, atomic move, -Setup, PATH, cleanup)"
else
    fail "install.ps1 lacks:$missing"
fi

# 11. install.ps1 replaces a running devprojex.exe: it moves the old exe aside before moving the
# new one in (a running exe can be renamed, never overwritten), moves it back on failure, and
# removes earlier copies by the name self-update also uses (devprojex.exe.old-<digits>).
line_of() { grep -nF -- "$1" "$INSTALL_PS1" | head -n1 | cut -d: -f1; }
aside=$(line_of 'Move-Item -LiteralPath $dest -Destination $aside')
into=$(line_of 'Move-Item -LiteralPath $staged -Destination $dest')
back=$(line_of 'Move-Item -LiteralPath $aside -Destination $dest')
named=$(line_of '$aside = "$dest.old-$([DateTime]::UtcNow.Ticks)"')
cleanup=$(line_of "\\.old-\\d+\$'")
if [ -n "$aside" ] && [ -n "$into" ] && [ -n "$back" ] && [ -n "$named" ] && [ -n "$cleanup" ] &&
    [ "$named" -lt "$aside" ] && [ "$aside" -lt "$into" ] && [ "$into" -lt "$back" ] && [ "$back" -lt "$cleanup" ] &&
    ! grep -qF 'Move-Item -Force -Path $staged -Destination $dest' "$INSTALL_PS1"; then
    pass "install.ps1 moves a running devprojex.exe aside, moves the new one in, moves it back on failure, cleans old copies"
else
    fail "install.ps1 does not replace a running exe by renames (aside=$aside into=$into back=$back named=$named cleanup=$cleanup)"
fi
# The copies' name is the one self-update cleans up (crates/devprojex-update/src/replace.rs).
if grep -qF 'format!("{name}.old-{unique}")' "$REPO_ROOT/crates/devprojex-update/src/replace.rs"; then
    pass "install.ps1 and self-update name the moved-aside copies alike (<exe>.old-<digits>)"
else
    fail "self-update no longer names moved-aside copies <exe>.old-<digits>; keep install.ps1 in step"
fi

finish
