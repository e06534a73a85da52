# Homebrew formula for the prebuilt devprojex release archives (tap: devprojex/homebrew-tap).
# URLs and sha256 values are filled by scripts/update-packaging.sh VERSION from the release's
# dist artifacts; tests/distribution/check-packaging.sh checks them against `dist plan`.
class Devprojex < Formula
  desc "Local read-only MCP server and CLI that shows coding agents a project"
  homepage "https://github.com/devprojex/devprojex"
  version "0.1.0"
  license any_of: ["MIT", "Apache-2.0"]

  on_macos do
    on_arm do
      url "https://github.com/devprojex/devprojex/releases/download/v0.1.0/devprojex-aarch64-apple-darwin.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/devprojex/devprojex/releases/download/v0.1.0/devprojex-x86_64-apple-darwin.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/devprojex/devprojex/releases/download/v0.1.0/devprojex-aarch64-unknown-linux-gnu.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/devprojex/devprojex/releases/download/v0.1.0/devprojex-x86_64-unknown-linux-gnu.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  def install
    bin.install "devprojex"
    bash_completion.install "completions/devprojex.bash" => "devprojex" if File.exist?("completions/devprojex.bash")
    zsh_completion.install "completions/_devprojex" if File.exist?("completions/_devprojex")
    fish_completion.install "completions/devprojex.fish" if File.exist?("completions/devprojex.fish")
    man1.install "devprojex.1" if File.exist?("devprojex.1")
  end

  def caveats
    <<~EOS
      Register devprojex with your MCP clients:
        devprojex setup
      Update with `brew upgrade devprojex` (devprojex self-update leaves Homebrew installs alone).
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/devprojex --version")

    initialize = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":' \
                 '{"protocolVersion":"2025-06-18","capabilities":{},' \
                 '"clientInfo":{"name":"brew-test","version":"0"}}}'
    output = pipe_output("#{bin}/devprojex mcp --root #{testpath}", "#{initialize}\n", 0)
    reply = JSON.parse(output.lines.first)
    assert_equal 1, reply["id"]
    assert_match "devprojex", reply["result"]["serverInfo"]["name"]
  end
end
