#!/bin/sh
# Fill the package-manager manifests for release VERSION: URLs and sha256 values of the dist
# artifacts, and the version everywhere.
#
#   scripts/update-packaging.sh VERSION [--from-dir DIR] [--plan PLAN.json] [--root DIR]
#
# Artifact names come from the dist plan/manifest (`dist plan --output-format=json`, or --plan
# FILE); each sha256 comes from the artifact's `.sha256` file: read from --from-dir DIR (the dist
# output directory, e.g. target/distrib) or downloaded from the release
# (DEVPROJEX_DOWNLOAD_BASE, default the GitHub release of vVERSION).
#
# Updates: packaging/homebrew/devprojex.rb, packaging/winget/*.yaml, server.json,
# packaging/mcpb/manifest.json. `.mcpb` bundles are optional (their sha256 is filled when a
# devprojex-TARGET.mcpb.sha256 is found). Fails, changing nothing, when a needed artifact is
# missing from the plan or has no checksum.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 VERSION [--from-dir DIR] [--plan PLAN.json] [--root DIR]" >&2; exit 2; }
version=${1#v}
shift
from_dir=
plan=
while [ $# -gt 0 ]; do
    case $1 in
        --from-dir) from_dir=$2; shift ;;
        --plan) plan=$2; shift ;;
        --root) root=$2; shift ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

if [ -z "$plan" ]; then
    plan=$(mktemp)
    trap 'rm -f "$plan"' EXIT
    (cd "$root" && dist plan --output-format=json >"$plan") || {
        echo "dist plan failed; pass --plan FILE (dist plan/manifest --output-format=json)" >&2
        exit 1
    }
fi

exec python3 - "$root" "$version" "$plan" "$from_dir" "${DEVPROJEX_DOWNLOAD_BASE:-}" <<'PY'
import json, os, re, sys, urllib.request

root, version, plan_path, from_dir, base = sys.argv[1:6]
if not re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?", version):
    sys.exit(f"not a release version: {version}")
release_base = f"https://github.com/devprojex/devprojex/releases/download/v{version}"
base = (base or release_base).rstrip("/")

plan = json.load(open(plan_path))
planned = set(plan.get("artifacts", {}))
for rel in plan.get("releases", []):
    planned.update(rel.get("artifacts", []))

HOMEBREW = {  # formula block -> target
    ("macos", "arm"): "aarch64-apple-darwin",
    ("macos", "intel"): "x86_64-apple-darwin",
    ("linux", "arm"): "aarch64-unknown-linux-gnu",
    ("linux", "intel"): "x86_64-unknown-linux-gnu",
}
WINGET = {"x64": "x86_64-pc-windows-msvc", "arm64": "aarch64-pc-windows-msvc"}

def archive(target):
    return f"devprojex-{target}.zip" if "windows" in target else f"devprojex-{target}.tar.gz"

def read_sha(name, required=True):
    text = None
    if from_dir:
        path = os.path.join(from_dir, name + ".sha256")
        if os.path.exists(path):
            text = open(path).read()
        elif os.path.exists(os.path.join(from_dir, name)):
            import hashlib
            text = hashlib.sha256(open(os.path.join(from_dir, name), "rb").read()).hexdigest()
    else:
        try:
            with urllib.request.urlopen(f"{base}/{name}.sha256", timeout=60) as r:
                text = r.read().decode()
        except Exception as e:  # noqa: BLE001
            if required:
                sys.exit(f"cannot fetch {base}/{name}.sha256: {e}")
    if text is None:
        if required:
            sys.exit(f"no checksum for {name} (looked in {from_dir or base})")
        return None
    digest = text.split()[0].lower() if text.split() else ""
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        sys.exit(f"{name}.sha256 holds no sha256 digest")
    return digest

needed = [archive(t) for t in HOMEBREW.values()] + [archive(t) for t in WINGET.values()]
missing = [n for n in needed if n not in planned]
if missing:
    sys.exit("artifacts the manifests need are not in the dist plan: " + ", ".join(missing))
sha = {n: read_sha(n) for n in needed}
url = lambda n: f"{release_base}/{n}"  # noqa: E731

edits = {}

# Homebrew formula: version, then each on_os/on_arch block's url + sha256.
path = os.path.join(root, "packaging/homebrew/devprojex.rb")
rb = open(path).read()
rb = re.sub(r'(?m)^(  version )"[^"]*"', rf'\1"{version}"', rb)
for (os_name, arch), target in HOMEBREW.items():
    name = archive(target)
    pat = re.compile(
        rf'(on_{os_name} do.*?on_{arch} do\s*\n\s*url )"[^"]*"(\s*\n\s*sha256 )"[^"]*"', re.S)
    rb, n = pat.subn(lambda m: f'{m.group(1)}"{url(name)}"{m.group(2)}"{sha[name]}"', rb, count=1)
    if n != 1:
        sys.exit(f"devprojex.rb has no on_{os_name}/on_{arch} url+sha256 block")
edits[path] = rb

# winget: PackageVersion everywhere, installer URLs and sha256 per architecture.
wdir = os.path.join(root, "packaging/winget")
for fname in sorted(os.listdir(wdir)):
    if not fname.endswith(".yaml"):
        continue
    p = os.path.join(wdir, fname)
    y = open(p).read()
    y = re.sub(r'(?m)^PackageVersion: .*$', f'PackageVersion: "{version}"', y)
    y = re.sub(r'(?m)^(ReleaseNotesUrl: https://github.com/devprojex/devprojex/releases/tag/)v.*$',
               rf'\g<1>v{version}', y)
    for arch, target in WINGET.items():
        name = archive(target)
        pat = re.compile(rf'(- Architecture: {arch}\s*\n\s*InstallerUrl: ).*(\n\s*InstallerSha256: ).*')
        y, n = pat.subn(lambda m: f'{m.group(1)}{url(name)}{m.group(2)}"{sha[name].upper()}"', y)
        if fname.endswith(".installer.yaml") and n != 1:
            sys.exit(f"{fname} has no {arch} installer entry")
    edits[p] = y

# server.json: version, mcpb identifiers (+ sha256 when a bundle checksum exists), OCI tag.
p = os.path.join(root, "server.json")
server = json.load(open(p))
server["version"] = version
for pkg in server.get("packages", []):
    if pkg.get("registryType") == "mcpb":
        bundle = pkg["identifier"].rsplit("/", 1)[-1]
        pkg["identifier"] = url(bundle)
        pkg["version"] = version
        digest = read_sha(bundle, required=False)
        if digest:
            pkg["fileSha256"] = digest
        else:
            print(f"note: no checksum for {bundle}; its fileSha256 is unchanged", file=sys.stderr)
    elif pkg.get("registryType") == "oci":
        pkg["identifier"] = re.sub(r":[^:/]+$", f":{version}", pkg["identifier"])
edits[p] = json.dumps(server, indent=2) + "\n"

# mcpb bundle manifest: version.
p = os.path.join(root, "packaging/mcpb/manifest.json")
text = open(p).read()
edits[p] = re.sub(r'("version":\s*)"[^"]*"', rf'\1"{version}"', text, count=1)

for p, text in edits.items():
    with open(p, "w") as f:
        f.write(text)
print(f"packaging manifests set to devprojex {version} ({len(needed)} archives)")
PY
