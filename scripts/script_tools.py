"""Shared by the comparison and benchmark scripts: the tools they measure against, installed
when missing, the release builds they measure, brought up to date with the checkout, and a
checkout's text files as the benchmarks read them."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def ensure_command(command, package, check=None):
    """`command` on PATH, else `apt-get install package` (Debian, as root). `check` (an argument
    list) must then succeed, for a command whose name other programs share (`ctags`)."""
    def usable():
        if shutil.which(command) is None:
            return False
        if check is None:
            return True
        return subprocess.run(check, capture_output=True).returncode == 0

    if usable():
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        sys.exit(f"{os.path.basename(sys.argv[0])}: needs `{command}` (Debian package {package}); "
                 "install it, or run as root with apt-get")
    print(f"== installing {package} (Debian)", file=sys.stderr)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    quiet = {"stdout": subprocess.DEVNULL, "env": env}
    if subprocess.run(["apt-get", "install", "-y", "-q", package], **quiet).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], check=True, **quiet)
        subprocess.run(["apt-get", "install", "-y", "-q", package], check=True, **quiet)
    if not usable():
        sys.exit(f"{os.path.basename(sys.argv[0])}: `{command}` from {package} does not work")


def cargo_release(*target):
    """`cargo build --release --locked TARGET...` in the checkout: a no-op when up to date, so a
    comparison always measures the code of the current commit."""
    print(f"== cargo build --release --locked {' '.join(target)}", file=sys.stderr)
    subprocess.run(["cargo", "build", "-q", "--release", "--locked", *target], cwd=ROOT, check=True)


def read_text(checkout, path, limit=1 << 20):
    """The text of `path` in `checkout`, or None when it is missing, binary (a NUL in its first
    8 KiB) or larger than `limit` bytes."""
    try:
        with open(os.path.join(checkout, path), "rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return None
    if len(data) > limit or b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", "replace")
