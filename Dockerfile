# syntax=docker/dockerfile:1
# devprojex as an MCP server over stdio, showing the project mounted at /workspace (read-only):
#
#   docker build -t devprojex .
#   docker run -i --rm -v "$PWD:/workspace:ro" devprojex
#
# MCP client entry: {"command": "docker", "args": ["run", "-i", "--rm", "-v", "/abs/project:/workspace:ro", "ghcr.io/devprojex/devprojex:VERSION"]}
# (A .dockerignore with `target/` keeps the build context small.)

FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin devprojex \
    && cp target/release/devprojex /usr/local/bin/devprojex

FROM debian:bookworm-slim
# git: the server may read repository state with the git executable.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 10001 --create-home --shell /usr/sbin/nologin devprojex \
    && mkdir -p /workspace
COPY --from=build /usr/local/bin/devprojex /usr/local/bin/devprojex
# The MCP registry checks this label against server.json's name for OCI packages.
LABEL io.modelcontextprotocol.server.name="io.github.devprojex/devprojex" \
      org.opencontainers.image.source="https://github.com/devprojex/devprojex" \
      org.opencontainers.image.description="devprojex: read-only MCP server over stdio for the project mounted at /workspace" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0"
USER devprojex
WORKDIR /workspace
# A mounted project owned by another user is still a safe git directory to read.
ENV GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0=*
# stdio transport: no port is exposed. Closing stdin stops the server.
ENTRYPOINT ["devprojex", "mcp", "--root", "/workspace"]
