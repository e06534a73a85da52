#!/usr/bin/env bash
# Installs the real MCP clients that scripts/real_clients_check.py uses as judges of
# `devprojex setup`: Claude Code (`@anthropic-ai/claude-code`), OpenAI Codex (`@openai/codex`),
# Gemini CLI (`@google/gemini-cli`) and GitHub Copilot CLI (`@github/copilot`), pinned, from npm
# into target/test-clients/node (project-local; nothing global is touched). Prints the folder
# holding the `claude`, `codex`, `gemini` and `copilot` executables. All four run offline and
# without a login for what the check asks of them (`mcp list`, `mcp add`, `mcp get`,
# `mcp remove`, Codex's `app-server`).
set -euo pipefail
cd "$(dirname "$0")/.."

claude_version=2.1.197
codex_version=0.171.0
gemini_version=0.61.0
copilot_version=1.0.102
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
    [ "$(installed_version @google/gemini-cli)" != "$gemini_version" ] ||
    [ "$(installed_version @github/copilot)" != "$copilot_version" ] ||
    [ ! -x "$bin/claude" ] || [ ! -x "$bin/codex" ] || [ ! -x "$bin/gemini" ] || [ ! -x "$bin/copilot" ]; then
    echo "install-test-clients: installing @anthropic-ai/claude-code@$claude_version, @openai/codex@$codex_version, @google/gemini-cli@$gemini_version and @github/copilot@$copilot_version into $node_dir" >&2
    mkdir -p "$node_dir"
    # A package.json of our own keeps npm from walking up into the repository.
    [ -f "$node_dir/package.json" ] || echo '{"private": true}' >"$node_dir/package.json"
    npm install --prefix "$node_dir" --no-audit --no-fund --silent --no-save \
        "@anthropic-ai/claude-code@$claude_version" "@openai/codex@$codex_version" \
        "@google/gemini-cli@$gemini_version" "@github/copilot@$copilot_version" >&2
fi
"$bin/claude" --version >/dev/null
"$bin/codex" --version >/dev/null
"$bin/gemini" --version >/dev/null
"$bin/copilot" --version >/dev/null
echo "$bin"
