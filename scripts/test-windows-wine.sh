#!/usr/bin/env bash
# Runs the Windows build of the test suites on Linux, under Wine: the Windows-only code (the
# lexical path rules, the handle checks, the pack store's access lists and locks, setup's config
# locations, self-update's replace) is executed, not only compiled. Not part of CI (a cross build
# takes longer than CI's budget allows); the GitHub Actions job on windows-latest is the real
# check, this one is what a contributor can run here.
#
# usage: scripts/test-windows-wine.sh            the platform suites, as ci.yml's Windows job
#        scripts/test-windows-wine.sh --all      every test of the workspace
#        scripts/test-windows-wine.sh ARGS...    ARGS passed to `cargo test`
#
# Installs what is missing (needs root for apt-get): Debian's wine64 and gcc-mingw-w64-x86-64,
# and the x86_64-pc-windows-gnu target with rustup. The Wine prefix lives under the target
# folder. Wine 8 (Debian 12) lacks bcryptprimitives.dll, whose ProcessPrng the Rust standard
# library calls at start; the prefix gets a small one built here that forwards to RtlGenRandom.
#
# Known differences from Windows: Wine does not store the access list a folder is created with;
# it reports one derived from the Unix mode (the user and SYSTEM). A file still open is not
# unlinked at once (Windows 10 and later delete with POSIX semantics), which two tests notice.
# Tests that run `git` fail: there is no git.exe in the prefix.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
missing=()
command -v wine >/dev/null 2>&1 || missing+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
scripts/install-debian-packages.sh test-windows-wine "${missing[@]}"
rustup target list --installed | grep -qx "$target" || rustup target add "$target" >&2

target_dir="${CARGO_TARGET_DIR:-$(pwd)/target}"
export WINEPREFIX="$target_dir/wine"
export WINEDEBUG=-all
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
    echo "test-windows-wine: creating the Wine prefix $WINEPREFIX" >&2
    wineboot -i >/dev/null 2>&1 || true
fi
system32="$WINEPREFIX/drive_c/windows/system32"
if [ ! -e "$system32/bcryptprimitives.dll" ]; then
    shim="$(mktemp -d)"
    trap 'rm -rf "$shim"' EXIT
    cat >"$shim/bcryptprimitives.c" <<'EOF'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
/* The one export std needs: fill `data` with random bytes. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
EOF
    x86_64-w64-mingw32-gcc -O2 -shared -o "$system32/bcryptprimitives.dll" \
        "$shim/bcryptprimitives.c" -ladvapi32
fi

# Tests name files by their Unix paths (`/work/target/.../devprojex.exe`, fixtures under the
# checkout), which Windows reads as paths on the current drive; a test whose working folder is a
# temporary folder on C: would look for C:\work\...: C: gets the same top-level folders.
for top in "$(pwd)" "$target_dir"; do
    top="${top#/}"
    top="${top%%/*}"
    [ -e "$WINEPREFIX/drive_c/$top" ] || ln -s "/$top" "$WINEPREFIX/drive_c/$top"
done

# snapshot mismatches fail the test; no .snap.new files are left in the checkout
export INSTA_UPDATE=no
# The runner is given as configuration, not as CARGO_TARGET_..._RUNNER: assert_cmd reads that
# variable in the test process and would start the binary through `wine` from inside Wine.
run() { cargo --config "target.$target.runner = \"wine\"" test --locked --target "$target" "$@"; }
if [ "$#" -gt 0 ] && [ "$1" = --all ]; then
    shift
    run --workspace --no-fail-fast "$@"
elif [ "$#" -gt 0 ]; then
    run "$@"
else
    # the suites ci.yml names for windows-latest, each run whatever the one before gave (the
    # two `platform_paths` tests that compare with Git need a git.exe, which Wine lacks)
    failed=()
    for suite in "-p devprojex --test security platform_paths::" "-p devprojex --lib project::" \
        "-p devprojex --lib mcp::pack_store" "-p devprojex-setup --test setup paths::" \
        "-p devprojex-update --lib replace::"; do
        # shellcheck disable=SC2086 # the suite is several words on purpose
        run $suite || failed+=("$suite")
    done
    if [ "${#failed[@]}" -gt 0 ]; then
        printf 'test-windows-wine: failed: %s\n' "${failed[@]}" >&2
        exit 1
    fi
fi
