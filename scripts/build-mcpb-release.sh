#!/bin/sh
# Build the Claude Desktop bundles (.mcpb) of a release from its dist archives:
#
#   scripts/build-mcpb-release.sh VERSION ARCHIVE_DIR OUT_DIR [TARGET...]
#
# For each target (default: aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-msvc
# x86_64-unknown-linux-gnu) it takes devprojex-TARGET.tar.gz / .zip from ARCHIVE_DIR and writes
# OUT_DIR/devprojex-TARGET.mcpb (a zip: manifest.json with VERSION stamped in, server/devprojex
# [.exe] executable, licences, README) and its .sha256. Used by
# .github/workflows/publish-mcp-bundles.yml; tested by tests/distribution/check-packaging.sh.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: $0 VERSION ARCHIVE_DIR OUT_DIR [TARGET...]" >&2; exit 2; }
version=${1#v}
archives=$2
out=$3
shift 3
mkdir -p "$out"
exec python3 - "$root/packaging/mcpb/manifest.json" "$version" "$archives" "$out" "$@" <<'PY'
import hashlib, io, json, os, sys, tarfile, zipfile

manifest_path, version, archives, out, *targets = sys.argv[1:]
targets = targets or ["aarch64-apple-darwin", "x86_64-apple-darwin",
                      "x86_64-pc-windows-msvc", "x86_64-unknown-linux-gnu"]
manifest = json.load(open(manifest_path))
manifest["version"] = version

def manifest_for(target):
    m = json.loads(json.dumps(manifest))
    if "windows" in target:
        m["server"]["entry_point"] = "server/devprojex.exe"
        m["compatibility"]["platforms"] = ["win32"]
    else:
        m["compatibility"]["platforms"] = ["darwin" if "apple" in target else "linux"]
    return (json.dumps(m, indent=2) + "\n").encode()

def members(target):
    """(name, bytes) of the files in the release archive, paths relative to its root."""
    if "windows" in target:
        path = os.path.join(archives, f"devprojex-{target}.zip")
        with zipfile.ZipFile(path) as z:
            return {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}
    path = os.path.join(archives, f"devprojex-{target}.tar.gz")
    prefix = f"devprojex-{target}/"
    files = {}
    with tarfile.open(path, "r:gz") as t:
        for m in t.getmembers():
            if m.isfile() and m.name.startswith(prefix):
                files[m.name[len(prefix):]] = t.extractfile(m).read()
    return files

def add(z, name, data, mode):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, data)

for target in targets:
    try:
        files = members(target)
    except FileNotFoundError as e:
        sys.exit(f"missing release archive for {target}: {e.filename}")
    exe = "devprojex.exe" if "windows" in target else "devprojex"
    if exe not in files:
        sys.exit(f"the {target} archive has no {exe}")
    bundle = os.path.join(out, f"devprojex-{target}.mcpb")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        add(z, "manifest.json", manifest_for(target), 0o644)
        add(z, f"server/{exe}", files[exe], 0o755)
        for extra in ("README.md", "LICENSE-MIT", "LICENSE-APACHE"):
            if extra in files:
                add(z, extra, files[extra], 0o644)
    data = buf.getvalue()
    open(bundle, "wb").write(data)
    digest = hashlib.sha256(data).hexdigest()
    open(bundle + ".sha256", "w").write(f"{digest}  {os.path.basename(bundle)}\n")
    print(f"{os.path.basename(bundle)} {digest}")
PY
