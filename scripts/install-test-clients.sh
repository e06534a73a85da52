#!/usr/bin/env bash
# Installs the real MCP clients that scripts/real-clients-check.sh uses as judges of
# `devprojex setup`: Claude Code (`@anthropic-ai/claude-code`) and OpenAI Codex (`@openai/codex`),
# pinned, from npm into target/test-clients/node (project-local; nothing global is touched).
# Prints the folder holding the `claude` and `codex` executables. Both run offline and without a
# login for `mcp list`, `mcp add`, `mcp remove` and `app-server`.
set -euo pipefail
cd "$(dirname "$0")/.."

claude_version=2.1.197
codex_version=0.171.0
node_dir="$(pwd)/target/test-clients/node"
bin="$node_dir/node_modules/.bin"

if ! command -v npm >/dev/null 2>&1; then
    echo "install-test-clients: npm is not installed (Debian: apt-get install npm)" >&2
    exit 1
fi

installed_version() { # package -> version in node_modules, or nothing
    node -e 'try { console.log(require(process.argv[1] + "/package.json").version) } catch (e) {}' \
        "$node_dir/node_modules/$1" 2>/dev/null || true
}

if [ "$(installed_version @anthropic-ai/claude-code)" != "$claude_version" ] ||
    [ "$(installed_version @openai/codex)" != "$codex_version" ] ||
    [ ! -x "$bin/claude" ] || [ ! -x "$bin/codex" ]; then
    echo "install-test-clients: installing @anthropic-ai/claude-code@$claude_version and @openai/codex@$codex_version into $node_dir" >&2
    mkdir -p "$node_dir"
    # A package.json of our own keeps npm from walking up into the repository.
    [ -f "$node_dir/package.json" ] || echo '{"private": true}' >"$node_dir/package.json"
    npm install --prefix "$node_dir" --no-audit --no-fund --silent --no-save \
        "@anthropic-ai/claude-code@$claude_version" "@openai/codex@$codex_version" >&2
fi
"$bin/claude" --version >/dev/null
"$bin/codex" --version >/dev/null
echo "$bin"
