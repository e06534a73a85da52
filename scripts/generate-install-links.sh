#!/usr/bin/env bash
# Regenerates the VS Code and Cursor one-click install links in README.md and docs/setup.md
# (between the install-links markers) from the entry `devprojex setup` writes
# (crates/devprojex-setup/src/links.rs). crates/devprojex-setup/tests/install_links.rs decodes
# every link and fails when they are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --locked -p devprojex-setup --example install_links -- --write
