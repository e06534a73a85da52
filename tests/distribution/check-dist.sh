#!/bin/sh
# cargo-dist: installs the pinned dist (only when `dist --version` differs), runs `dist plan`
# (which also fails when .github/workflows/release.yml is stale), builds the global artifacts
# offline (installers, dist's Homebrew formula, checksums), and checks the planned artifact names
# against what installers/install.sh, installers/install.ps1, self-update, the Homebrew formula
# and the winget manifests expect.
#
# DEVPROJEX_DIST_BUILD=1 also runs `dist build` for the host target (a full release build: several
# minutes on 2 cores, so off by default) and checks the archive's contents and checksum.
set -eu
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
trap 'stop_http_server; rm -rf "$work"' EXIT

pinned=$(sed -n 's/^cargo-dist-version *= *"\([^"]*\)".*/\1/p' "$REPO_ROOT/dist-workspace.toml")
[ -n "$pinned" ] || { fail "dist-workspace.toml pins no cargo-dist-version"; finish; exit 1; }
# --debug: dist only plans and writes small files here, and an unoptimised build of it costs
# about 30% less CPU (measured: 7m44s instead of 11m02s of CPU time).
if ensure_cargo_tool dist "$pinned" cargo-dist --debug && dist --version | grep -q " $pinned"; then
    pass "dist $pinned available (pinned in dist-workspace.toml)"
else
    fail "cannot install cargo-dist $pinned"
    finish
    exit 1
fi

tree=$(prepare_tree)
[ "$tree" = "$REPO_ROOT" ] || note "root Cargo.toml lacks the distribution snippets: using a scratch copy with them applied"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$REPO_ROOT/target}"

# 1. dist plan (fails on a stale release.yml too).
if (cd "$tree" && dist plan --output-format=json >"$work/plan.json" 2>"$work/plan.err"); then
    pass "dist plan (release.yml is up to date with dist-workspace.toml)"
else
    fail "dist plan"
    tail -n 30 "$work/plan.err" | sed 's/^/     | /'
    finish
    exit 1
fi

# 2. The planned artifacts against every consumer of their names.
python3 - "$work/plan.json" "$REPO_ROOT" >"$work/names.out" 2>&1 <<'PY' && _rc=0 || _rc=$?
import json, re, sys
plan_path, root = sys.argv[1:3]
plan = json.load(open(plan_path))
artifacts = plan["artifacts"]
names = set(artifacts)
problems = []

apps = [r["app_name"] for r in plan["releases"]]
if apps != ["devprojex"]:
    problems.append(f"dist plans apps {apps}; only devprojex should be an app (crates/* are internal)")

targets = [
    "aarch64-apple-darwin", "x86_64-apple-darwin",
    "aarch64-unknown-linux-gnu", "x86_64-unknown-linux-gnu",
    "aarch64-unknown-linux-musl", "x86_64-unknown-linux-musl",
    "aarch64-pc-windows-msvc", "x86_64-pc-windows-msvc",
]
def archive(t):
    return f"devprojex-{t}.zip" if "windows" in t else f"devprojex-{t}.tar.gz"

# Every target has its archive and .sha256 (self-update downloads exactly these two names).
for t in targets:
    for n in (archive(t), archive(t) + ".sha256"):
        if n not in names:
            problems.append(f"missing planned artifact {n}")
    if "windows" in t and f"devprojex-{t}.msi" not in names:
        problems.append(f"missing msi for {t}")
for n in ("devprojex-installer.sh", "devprojex-installer.ps1", "devprojex.rb", "sha256.sum", "install.sh", "install.ps1"):
    if n not in names:
        problems.append(f"missing planned artifact {n}")

# Archive contents: binary, README, both licences, completions, man page.
for t in targets:
    a = artifacts.get(archive(t), {})
    assets = {x.get("path") or x["name"] for x in a.get("assets", [])}
    exe = "devprojex.exe" if "windows" in t else "devprojex"
    for need in (exe, "README.md", "LICENSE-MIT", "LICENSE-APACHE", "completions", "devprojex.1"):
        if need not in assets:
            problems.append(f"{archive(t)} lacks {need} (has {sorted(assets)})")

def text(path):
    return open(f"{root}/{path}").read()

# installers/install.sh: builds "$APP-$target.tar.gz" (+ .sha256) for its unix targets.
sh = text("installers/install.sh")
if '"$APP-$target.tar.gz"' not in sh.replace("archive=", "") or '.sha256' not in sh:
    problems.append("install.sh no longer names archives as $APP-$target.tar.gz + .sha256")
for t in targets:
    if "windows" in t:
        continue
    suffix = t.split("-", 1)[1]
    if suffix not in sh:
        problems.append(f"install.sh never selects *-{suffix}")
# installers/install.ps1: "$App-$target.zip" for both Windows targets.
ps1 = text("installers/install.ps1")
if '"$App-$target.zip"' not in ps1:
    problems.append("install.ps1 no longer names archives as $App-$target.zip")
for t in ("x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc"):
    if t not in ps1:
        problems.append(f"install.ps1 never selects {t}")
# self-update (crates/devprojex-update): archive_name() and the .sha256 sidecar.
rs = text("crates/devprojex-update/src/lib.rs")
for needle in ('format!("devprojex-{target}.zip")', 'format!("devprojex-{target}.tar.gz")', 'format!("{asset}.sha256")'):
    if needle not in rs:
        problems.append(f"self-update no longer uses {needle}")

# Homebrew formula and winget installer manifest: every URL names a planned artifact.
url_names = lambda s: re.findall(r"releases/download/v[^/\"]+/([^\"\s]+)", s)  # noqa: E731
for path in ("packaging/homebrew/devprojex.rb", "packaging/winget/devprojex.devprojex.installer.yaml"):
    found = url_names(text(path))
    if not found:
        problems.append(f"{path} has no release URLs")
    for n in found:
        if n not in names:
            problems.append(f"{path} points at {n}, which dist does not build")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
if [ "$_rc" -eq 0 ]; then
    pass "planned artifact names match install.sh, install.ps1, self-update, Homebrew and winget; archives carry README, licences, completions, man page"
else
    fail "planned artifacts vs. installers and manifests"
    sed 's/^/     | /' "$work/names.out"
fi

# 3. Global artifacts, offline: dist's installers and formula; our formula must use the same URLs.
if (cd "$tree" && dist build --artifacts=global --output-format=json >"$work/global.json" 2>"$work/global.err"); then
    pass "dist build --artifacts=global (installers, formula, checksums) offline"
    distrib="$tree/target/distrib"
    [ -d "$distrib" ] || distrib="$CARGO_TARGET_DIR/distrib"
    ours=$(grep -o 'releases/download/v[^"]*' "$REPO_ROOT/packaging/homebrew/devprojex.rb" | sed 's|.*/||' | sort)
    theirs=$(grep -o 'releases/download/v[^"]*' "$distrib/devprojex.rb" | sed 's|.*/||' | sort)
    if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
        pass "packaging/homebrew/devprojex.rb downloads the same archives as dist's formula"
    else
        fail "Homebrew formula archives differ from dist's: ours [$(echo $ours)] dist [$(echo $theirs)]"
    fi
    if grep -q 'DEVPROJEX_INSTALL_DIR' "$distrib/devprojex-installer.sh" && grep -q '\.local/bin' "$distrib/devprojex-installer.sh"; then
        pass "dist's shell installer honours DEVPROJEX_INSTALL_DIR and ~/.local/bin like install.sh"
    else
        fail "dist's shell installer does not use DEVPROJEX_INSTALL_DIR / ~/.local/bin"
    fi
else
    fail "dist build --artifacts=global"
    tail -n 30 "$work/global.err" | sed 's/^/     | /'
fi

# 4. Optional: the host archive itself.
if [ "${DEVPROJEX_DIST_BUILD:-0}" = 1 ]; then
    host=$(host_target)
    if (cd "$tree" && dist build --artifacts=local --target "$host" --output-format=json >"$work/local.json" 2>"$work/local.err"); then
        distrib="$tree/target/distrib"
        [ -d "$distrib" ] || distrib="$CARGO_TARGET_DIR/distrib"
        arch_file="$distrib/devprojex-$host.tar.gz"
        if [ -f "$arch_file" ] && (cd "$distrib" && sha256sum -c "devprojex-$host.tar.gz.sha256" >/dev/null 2>&1) &&
            tar -tzf "$arch_file" | grep -q "^devprojex-$host/devprojex$" &&
            tar -tzf "$arch_file" | grep -q "^devprojex-$host/completions/devprojex.bash$" &&
            tar -tzf "$arch_file" | grep -q "^devprojex-$host/devprojex.1$"; then
            pass "dist build for $host: archive layout and checksum"
            # The real dist archive through the real installer.
            if start_http_server "$distrib"; then
                if HOME="$work/home" DEVPROJEX_DOWNLOAD_BASE="http://127.0.0.1:$HTTP_PORT" DEVPROJEX_INSTALL_DIR="$work/bin" \
                    sh "$REPO_ROOT/installers/install.sh" >"$work/install.out" 2>&1 && "$work/bin/devprojex" --version >/dev/null 2>&1; then
                    pass "installers/install.sh installs the dist-built archive"
                else
                    fail "installers/install.sh with the dist-built archive"
                    sed 's/^/     | /' "$work/install.out"
                fi
                stop_http_server
            fi
        else
            fail "dist build for $host: archive layout or checksum"
            tar -tzf "$arch_file" 2>&1 | sed 's/^/     | /'
        fi
    else
        fail "dist build --artifacts=local --target $host"
        tail -n 30 "$work/local.err" | sed 's/^/     | /'
    fi
else
    note "host dist build skipped (DEVPROJEX_DIST_BUILD=1 runs it)"
fi

finish
