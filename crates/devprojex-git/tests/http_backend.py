"""Loopback smart-HTTP server for tests: relays requests to `git http-backend` (CGI).

usage: http_backend.py PROJECT_ROOT [USER:PASSWORD]
Prints the chosen port on the first line of stdout, then serves on 127.0.0.1 until killed.
With USER:PASSWORD, every request needs that HTTP Basic credential (401 otherwise).
"""

import base64
import http.server
import os
import subprocess
import sys

ROOT = sys.argv[1]
AUTH = sys.argv[2] if len(sys.argv) > 2 else None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.relay()

    def do_POST(self):
        self.relay()

    def relay(self):
        if AUTH is not None:
            expected = "Basic " + base64.b64encode(AUTH.encode()).decode()
            if self.headers.get("Authorization") != expected:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="test"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        path, _, query = self.path.partition("?")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    break
                body += self.rfile.read(size)
                self.rfile.readline()
        else:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
        env = dict(os.environ)
        env.update(
            GIT_PROJECT_ROOT=ROOT,
            GIT_HTTP_EXPORT_ALL="1",
            REQUEST_METHOD=self.command,
            PATH_INFO=path,
            QUERY_STRING=query,
            CONTENT_TYPE=self.headers.get("Content-Type", ""),
            CONTENT_LENGTH=str(len(body)),
            REMOTE_ADDR="127.0.0.1",
            HTTP_CONTENT_ENCODING=self.headers.get("Content-Encoding", ""),
            GIT_PROTOCOL=self.headers.get("Git-Protocol", ""),
        )
        proc = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
        out = proc.stdout
        sep = out.find(b"\r\n\r\n")
        if sep >= 0:
            head, rest = out[:sep], out[sep + 4 :]
        else:
            sep = out.find(b"\n\n")
            head, rest = (out[:sep], out[sep + 2 :]) if sep >= 0 else (b"", out)
        status = 200
        headers = []
        for line in head.decode("latin-1").splitlines():
            if not line.strip():
                continue
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            else:
                headers.append((name.strip(), value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
