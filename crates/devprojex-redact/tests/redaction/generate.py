#!/usr/bin/env python3
"""Writes the labelled redaction corpus (positive/*.txt, negative/*.txt) next to this script.

The committed .txt files are the corpus; this script only produced their first version and can
regenerate it. Samples are templates: `{{an:36}}` and friends are expanded by
`devprojex_redact::testgen` at test time, so no credential-shaped literal is committed.
Each sample starts with a line `%%% <name> <file-type>`.
"""
import itertools
import pathlib
import re
import tomllib

HERE = pathlib.Path(__file__).parent
RULES = tomllib.loads((HERE / "../../src/rules.toml").read_text())["rule"]

FILLER_BEFORE = {
    "env": "# service configuration\nLOG_LEVEL=info\n",
    "yaml": "service:\n  name: billing\n",
    "json": "",
    "toml": "[service]\nname = \"billing\"\n",
    "python": "import os\n\n",
    "js": "'use strict';\n\n",
    "go": "package config\n\n",
    "rust": "// configuration constants\n",
    "shell": "#!/usr/bin/env bash\nset -euo pipefail\n",
    "dockerfile": "FROM debian:bookworm-slim\n",
    "actions": "name: deploy\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n",
    "compose": "services:\n  app:\n    image: acme/app:1.4\n",
    "properties": "app.name=billing\n",
    "ini": "[server]\nport = 8080\n",
    "log": "",
    "markdown": "## Setup\n\n",
}


def fmt(kind, key, value, prose=True):
    pre = FILLER_BEFORE.get(kind, "")
    body = {
        "env": f"{key}={value}",
        "yaml": f"  {key}: {value}",
        "json": '{\n  "' + key + '": "' + value + '",\n  "region": "eu-west-1"\n}',
        "toml": f'{key} = "{value}"',
        "python": f'{key} = "{value}"',
        "js": f"const {key} = '{value}';",
        "go": f'var {key} = "{value}"',
        "rust": f'pub const {key}: &str = "{value}";',
        "shell": f'export {key}="{value}"',
        "dockerfile": f"ENV {key}={value}",
        "actions": f"    env:\n      {key}: {value}",
        "compose": f"    environment:\n      - {key}={value}",
        "properties": f"{key}={value}",
        "ini": f"{key} = {value}",
        "log": f"2024-05-01T10:00:00Z DEBUG loaded settings {key}={value} from environment",
        "markdown": f"Set `{key}` to `{value}` before running the tests." if prose
        else f"```sh\nexport {key}={value}\n```",
    }[kind]
    return pre + body


FORMATS = ["env", "yaml", "json", "toml", "python", "js", "go", "shell", "dockerfile",
           "actions", "compose", "properties", "ini", "rust", "log", "markdown"]


def samples_file(name, samples):
    out = []
    for sid, kind, text in samples:
        out.append(f"%%% {sid} {kind}")
        out.append(text.rstrip("\n"))
    (HERE / name).parent.mkdir(parents=True, exist_ok=True)
    (HERE / name).write_text("\n".join(out) + "\n")
    return len(samples)


# ---------------------------------------------------------------- positives
pos_provider = []
kv = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S+)$")
fmt_cycle = itertools.cycle(FORMATS)
for rule in RULES:
    if rule.get("engine") in ("scope", "private-key") or rule["id"] in ("url-credentials", "connection-string-password"):
        continue
    for ex in rule["examples"][:1]:
        m = kv.match(ex)
        if m:
            for _ in range(2):
                kind = next(fmt_cycle)
                prose = not rule.get("regex", "").startswith("(?i)(?:")
                pos_provider.append((rule["id"], kind, fmt(kind, m.group(1), m.group(2), prose)))
        else:
            pos_provider.append((rule["id"], "raw", ex))
            pos_provider.append((rule["id"], "log", "2024-05-01T10:00:00Z INFO config dump: " + ex.replace("\n", " ")))

generic_keys = ["DB_PASSWORD", "password", "admin_password", "SECRET_KEY", "client_secret", "api_key",
                "apiKey", "ACCESS_TOKEN", "auth_token", "jwt_secret", "SESSION_SECRET", "encryption_key",
                "webhook_secret", "MASTER_KEY", "passphrase", "signing_key", "app_secret", "refresh_token",
                "SMTP_PASSWORD", "redis_password", "DJANGO_SECRET_KEY", "privateKey", "clientSecret",
                "connection_string"]
generic_values = ["{{an:24}}", "{{b64:40}}", "{{hex:32}}", "Pw{{an:8}}9x", "{{b64u:32}}", "{{an:16}}"]
pos_generic = []
combos = itertools.product(generic_keys, generic_values)
for i, (key, value) in enumerate(combos):
    if i % 1 == 0 and len(pos_generic) < 110:
        kind = FORMATS[(i * 7) % len(FORMATS)]
        if kind in ("log", "markdown"):
            kind = "env"
        pos_generic.append(("generic", kind, fmt(kind, key, value)))
# XML and source forms
for key, value in [("password", "{{an:14}}"), ("DbPassword", "{{an:12}}"), ("ApiSecret", "{{b64:32}}"),
                   ("ClientSecret", "{{b64u:30}}"), ("token", "{{hex:40}}")]:
    pos_generic.append(("generic", "xml", f"<configuration>\n  <{key}>{value}</{key}>\n</configuration>"))
    pos_generic.append(("generic", "xml", f'<appSettings>\n  <add key="{key}" value="{value}" />\n</appSettings>'))
for line in ['conn.setPassword("{{an:14}}");', 'client.withToken("{{b64u:36}}")',
             'let api_key: String = "{{an:32}}".into();', 'password := "{{an:12}}"',
             "$config['db_password'] = '{{an:14}}';", "'secret_key' => '{{b64:40}}',",
             "spring.datasource.password={{an:14}}", "private_key = \"{{b64:64}}\"",
             "password: correct-horse-battery-staple-{{d:4}}",
             'PGPASSWORD="{{an:10}}" psql -h db -U app',
             "set PASSWORD={{an:12}}", "$env:API_TOKEN = \"{{an:30}}\""]:
    pos_generic.append(("generic", "source", line))

schemes = ["postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "redis", "rediss", "amqp", "amqps",
           "https", "http", "ftp", "smtp", "ldap", "sqlserver", "mssql", "mariadb", "nats", "kafka", "sftp"]
pos_url = []
for i, s in enumerate(schemes):
    user = ["app", "admin", "svc_deploy", "u", ""][i % 5]
    host = ["db.internal:5432/app", "10.0.3.7:6379/0", "cluster0.xyz.mongodb.net/prod", "git.acme.io/repo.git"][i % 4]
    url = f"{s}://{user}:{{{{an:{12 + i % 9}}}}}@{host}"
    kind = ["env", "yaml", "json", "python"][i % 4]
    pos_url.append(("url-credentials", kind, fmt(kind, "DATABASE_URL" if i % 2 else "BROKER_URL", url)))
pos_url.append(("url-credentials", "jdbc", "spring.datasource.url=jdbc:postgresql://app:{{an:14}}@db:5432/app"))
pos_url.append(("url-credentials", "git", "[remote \"origin\"]\n\turl = https://ci-bot:{{an:20}}@gitlab.acme.io/group/app.git"))
for i in range(10):
    pos_url.append(("connection-string-password", "cs", [
        "Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;User ID=app;Password={{an:16}};Encrypt=True;",
        "Data Source=db01;Initial Catalog=Billing;User Id=billing;Password={{an:14}};",
        '  "DefaultConnection": "Host=db;Database=app;Username=app;Password={{an:18}}"',
        "Driver={ODBC Driver 18 for SQL Server};Server=db;Uid=app;Pwd={{an:12}};",
        "jdbc:sqlserver://db:1433;databaseName=app;user=app;password={{an:14}}",
    ][i % 5]))

pos_keys = []
pem_types = ["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY",
             "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]
for i, t in enumerate(pem_types):
    body = "\n".join(["{{b64:64}}"] * (3 + i % 3)) + "\n{{b64:40}}=="
    pos_keys.append(("private-key", "pem", f"-----BEGIN {t}-----\n{body}\n-----END {t}-----"))
    ind = "\n".join("    " + l for l in body.split("\n"))
    pos_keys.append(("private-key", "yaml", f"tls:\n  key: |\n    -----BEGIN {t}-----\n{ind}\n    -----END {t}-----\n  port: 443"))
    esc = "\\n".join(["{{b64:64}}"] * 3)
    pos_keys.append(("private-key", "json", '{\n  "type": "service_account",\n  "private_key": "-----BEGIN ' + t + '-----\\n' + esc + '\\n-----END ' + t + '-----\\n",\n  "client_email": "svc@proj.iam.gserviceaccount.com"\n}'))
pos_keys.append(("private-key", "python", 'KEY = """-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,{{HEX:32}}\n\n{{b64:64}}\n{{b64:64}}\n-----END RSA PRIVATE KEY-----"""'))
pos_keys.append(("putty-private-key", "ppk", "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC7\nrFq0p3mKx2Ls9\nPrivate-Lines: 2\n{{b64:64}}\n{{b64:64}}\nPrivate-MAC: 9d2c6e0f41b7a3d58e6c0b92f17a4e3d"))

pos_misc = []
for i in range(8):
    pos_misc.append(("jwt", ["http", "yaml", "js", "log"][i % 4], [
        "GET /api/v1/me HTTP/1.1\nHost: api.acme.io\nAuthorization: Bearer eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{{b64u:80}}.{{b64u:86}}",
        "auth:\n  session: eyJhbGciOiJIUzI1NiJ9.eyJ{{b64u:40}}.{{b64u:43}}",
        "document.cookie = 'id_token=eyJraWQiOiJ{{b64u:20}}.eyJ{{b64u:120}}.{{b64u:86}}';",
        "2024-05-01 WARN retry with jwt eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJ{{b64u:60}}.{{b64u:86}}",
    ][i % 4]))
for i in range(6):
    pos_misc.append(("authorization", "http", [
        'curl -s -H "Authorization: Bearer {{b64u:40}}" https://api.acme.io/v2/items',
        "Authorization: Basic {{b64:40}}",
        "headers = {'Authorization': 'token {{an:40}}'}",
    ][i % 3]))

# ---------------------------------------------------------------- negatives
neg = []
def N(group, kind, text):
    neg.append((group, kind, text))

for i in range(12):
    N("git-sha", "log", f"commit {{{{hex:40}}}}\nAuthor: Dev <dev@acme.io>\n\n    Fix flaky test #{100 + i}")
    N("git-sha", "text", f"Merge {{{{hex:7}}}}..{{{{hex:7}}}} into main; cherry-picked from {{{{hex:40}}}}")
for i in range(12):
    N("lockfile", "cargo", f'[[package]]\nname = "serde{i}"\nversion = "1.0.{i}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{{{{hex:64}}}}"')
    N("lockfile", "npm", '    "node_modules/left-pad": {\n      "version": "1.3.0",\n      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n      "integrity": "sha512-{{b64:86}}=="\n    }')
    N("lockfile", "yarn", 'lodash@^4.17.21:\n  version "4.17.21"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{{hex:40}}"\n  integrity sha512-{{b64:86}}==')
    N("lockfile", "gosum", "github.com/stretchr/testify v1.9.0 h1:{{b64:43}}=\ngithub.com/stretchr/testify v1.9.0/go.mod h1:{{b64:43}}=")
    N("lockfile", "poetry", '[[package]]\nname = "requests"\nfiles = [\n    {file = "requests-2.31.0-py3-none-any.whl", hash = "sha256:{{hex:64}}"},\n]')
for i in range(15):
    N("uuid", ["json", "yaml", "sql"][i % 3], [
        '{"requestId": "{{uuid}}", "status": "ok", "traceId": "{{hex:32}}"}',
        "tenant_id: {{uuid}}\nsubscription_id: {{uuid}}",
        "INSERT INTO users (id, name) VALUES ('{{uuid}}', 'Alice');",
    ][i % 3])
for i in range(10):
    N("base64-image", ["css", "html", "json"][i % 3], [
        ".logo { background: url(data:image/png;base64,iVBORw0KGgo{{b64:300}}=); }",
        '<img alt="logo" src="data:image/gif;base64,R0lGODlh{{b64:200}}==">',
        '{"icon": "data:image/svg+xml;base64,PHN2Zy{{b64:160}}", "name": "app"}',
    ][i % 3])
for i in range(12):
    N("test-vector", ["rust", "python", "go", "js"][i % 4], [
        'assert_eq!(hex::encode(Sha256::digest(b"abc")), "{{hex:64}}");',
        'EXPECTED_DIGEST = "{{hex:64}}"  # sha256 of the fixture',
        'want := "{{hex:40}}" // sha1("hello")',
        "expect(md5('hello')).toBe('{{hex:32}}');",
    ][i % 4])
placeholders = ["your-api-key-here", "<your-token>", "changeme", "${API_TOKEN}", "xxxxxxxxxxxxxxxx", "***",
                "${{ secrets.DEPLOY_TOKEN }}", "{{ .Values.password }}", "%API_KEY%", "$(cat /run/secrets/token)",
                "REPLACE_ME", "<password>", "TODO", "null", "", "placeholder-secret", "your_password", "dummy-token",
                "!Ref DbPassword", "op://vault/item/password", "$DB_PASSWORD", "****************"]
pkeys = ["API_KEY", "password", "client_secret", "token", "DB_PASSWORD", "SECRET_KEY"]
pfmts = ["env", "yaml", "json", "toml", "properties", "compose"]
for i, value in enumerate(placeholders):
    for j in range(3):
        kind = pfmts[(i + j) % len(pfmts)]
        N("placeholder", kind, fmt(kind, pkeys[(i + 2 * j) % len(pkeys)], value))
# documentation placeholders: Gitleaks' global allowlist skips them too
for line in ["export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
             "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"]:
    N("placeholder", "source", line)
for line in ["const token = process.env.API_TOKEN;", "password = os.environ['DB_PASSWORD']",
             "api_key = os.getenv(\"OPENAI_API_KEY\")", "let token = std::env::var(\"GITHUB_TOKEN\")?;",
             "secret := os.Getenv(\"APP_SECRET\")", "String password = System.getenv(\"DB_PASSWORD\");",
             "token: ${{ secrets.GITHUB_TOKEN }}", "password: !Ref DatabasePassword",
             "client_secret = config['oauth']['client_secret']", "self.password = password",
             "password: userPassword,", "this.apiKey = options.apiKey;", "let token = lexer.next_token();",
             "fn verify_password(password: &str, hash: &str) -> bool {", "token_type: bearer",
             "max_tokens: 4096", "secretName: billing-secrets", "password_min_length = 12",
             "PASSWORD_FIELD = \"password\"", "TOKEN_HEADER = \"X-Auth-Token\"", "api_key_env = \"OPENAI_API_KEY\"",
             "password_file: /run/secrets/db_password", "secret_ref: projects/acme/secrets/db-password/versions/latest",
             "<input type=\"password\" name=\"password\" placeholder=\"Password\">",
             "if token == Token::Eof { break; }", "auth_token_ttl: 3600", "tokenizer = AutoTokenizer.from_pretrained(name)",
             "password: Password", "forgot_password: Forgot your password?", "secret: true",
             "session_key: session_id", "private_key_path = \"~/.ssh/id_ed25519\"", "token = tokens[i]",
             "password = getpass.getpass()", "const SECRET_HEADER = 'x-webhook-signature';",
             "access_token_url: https://github.com/login/oauth/access_token",
             "  passwordPolicy: { minLength: 12, requireDigits: true },",
             "DB_PASSWORD_FILE=/run/secrets/db", "export GITHUB_TOKEN", "unset AWS_SECRET_ACCESS_KEY",
             "KEYCLOAK_CLIENT_SECRET=", "secret = Secret.from_env(\"SECRET\")", "token := c.Query(\"token\")"]:
    N("code-reference", "source", line)
for line in ["Use an access key id such as AKIAIOSFODNN7EXAMPLE in the examples below.",
             "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
             "Tokens look like ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx and expire after 90 days.",
             "e.g. ghp_abcdefghijklmnopqrstuvwxyz0123456789 (not a real token)",
             "Stripe keys start with sk_live_ followed by 24+ characters, e.g. sk_live_xxxxxxxxxxxxxxxxxxxxxxxx.",
             "The format is xoxb-0000000000-0000000000-xxxxxxxxxxxxxxxxxxxxxxxx.",
             "GitLab tokens have the prefix glpat- and 20 characters: glpat-xxxxxxxxxxxxxxxxxxxx",
             "Example: AIzaSyAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
             "npm tokens look like npm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
             "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
             "Paste your key between -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- markers.",
             "postgres://user:password@localhost:5432/app", "mysql://root:${MYSQL_ROOT_PASSWORD}@db/app",
             "redis://localhost:6379/0", "https://user@github.com/acme/app.git", "git@github.com:acme/app.git",
             "amqp://guest:guest@localhost:5672/", "http://[::1]:8080/health",
             "DATABASE_URL=postgres://app:<password>@db:5432/app",
             "https://{{hex:32}}@o{{d:6}}.ingest.sentry.io/{{d:7}}",
             "STRIPE_PUBLISHABLE_KEY=pk_live_{{an:24}}", "MAPBOX_TOKEN=pk.eyJ1Ijoi{{b64u:20}}In0.{{b64u:22}}",
             "TWILIO_ACCOUNT_SID=AC{{hex:32}}", "GOOGLE_CLIENT_ID={{d:12}}-{{ln:32}}.apps.googleusercontent.com",
             "  appId: \"1:{{d:12}}:web:{{hex:22}}\",", "messagingSenderId: \"{{d:12}}\"",
             "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{{b64:43}} deploy@ci",
             "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{{b64:300}} alice@laptop",
             "-----BEGIN CERTIFICATE-----\nMIID{{b64:60}}\n{{b64:64}}\n{{b64:64}}\n-----END CERTIFICATE-----",
             "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{{b64:20}}\n{{b64:64}}\n-----END PUBLIC KEY-----",
             "image: ghcr.io/acme/app@sha256:{{hex:64}}", "\"etag\": \"\\\"{{hex:32}}\\\"\"",
             "<script src=\"/static/js/main.{{hex:8}}.chunk.js\"></script>",
             "Project(\"{{{{uuid}}}}\") = \"App\", \"App\\App.csproj\", \"{{{{uuid}}}}\"",
             "\t\t{{HEX:24}} /* AppDelegate.swift */ = {isa = PBXFileReference; path = AppDelegate.swift; };",
             "color: #{{hex:6}}; background: #fafafa;", "version = \"1.2.3-alpha.4+build.{{hex:7}}\"",
             "The token is valid for ten minutes; refresh it before it expires.",
             "Rotate the secret key every 90 days and store passwords in the vault.",
             "Error: invalid api key (401). Check the API_KEY environment variable.",
             "// TODO: move the secret to the vault", "# password is read from the keychain",
             "cache_key = f\"user:{user_id}:profile\"", "hashlib.sha256(password.encode()).hexdigest()",
             "bcrypt.hashpw(password, bcrypt.gensalt(rounds=12))", "eyJhbGciOiJIUzI1NiJ9 is just a header",
             "resourceVersion: \"{{d:8}}\"", "  uid: {{uuid}}", "\"sha\": \"{{hex:40}}\",",
             "x-request-id: {{hex:32}}", "nonce = \"{{hex:24}}\"", "salt: {{hex:16}}",
             "\"id\": \"chatcmpl-{{an:29}}\"", "\"object\": \"file-{{an:24}}\"",
             "sourceMappingURL=data:application/json;charset=utf-8;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpb{{b64:120}}",
             "const k = \"{{an:20}}\"; // cache bucket", "key: {{hex:32}}", "keyId: {{uuid}}",
             "fingerprint: SHA256:{{b64:43}}", "md5: {{hex:32}}",
             "MIT License\n\nCopyright (c) 2024 Acme\n\nPermission is hereby granted, free of charge, to any person obtaining a copy",
             "function tokenize(input) { return input.split(/\\s+/); }",
             "| token | string | The access token returned by `/login`. |",
             "def rotate_secret(name: str) -> None:", "class PasswordResetForm(forms.Form):",
             "export function useAuthToken(): string | null {", "secretsmanager.get_secret_value(SecretId=arn)",
             "The private key never leaves the HSM.", "openssl genrsa -out private.key 4096",
             "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
             "docker login -u \"$DOCKER_USER\" --password-stdin", "auth: [\"read\", \"write\"]",
             "\"auth\": \"\"", "AUTH_MODE=oauth", "SECRET_BACKEND=vault", "token_endpoint_auth_method: client_secret_post",
             "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
             "grant_type=client_credentials&scope=read", "--password-file /etc/app/pw",
             "ssh-keygen -t ed25519 -C 'dev' -f ~/.ssh/id_ed25519", "SECRET_KEY_BASE_DUMMY=1",
             "v1.0-beta", "sk-learn is a common misspelling of scikit-learn", "api-version=2023-05-01",
             "Basic usage: run the tool with --help", "Bearer tokens are described in RFC 6750.",
             "token: tok_visa", "TestPassword", "sig=abc", "  \"integrity\": \"sha384-{{b64:64}}\""]:
    N("look-alike", "mixed", line)

counts = {
    "positive/providers.txt": samples_file("positive/providers.txt", pos_provider),
    "positive/generic.txt": samples_file("positive/generic.txt", pos_generic),
    "positive/urls-and-connection-strings.txt": samples_file("positive/urls-and-connection-strings.txt", pos_url),
    "positive/private-keys.txt": samples_file("positive/private-keys.txt", pos_keys),
    "positive/tokens.txt": samples_file("positive/tokens.txt", pos_misc),
    "negative/look-alikes.txt": samples_file("negative/look-alikes.txt", neg),
}
for k, v in counts.items():
    print(k, v)
print("positives", sum(v for k, v in counts.items() if k.startswith("positive")),
      "negatives", sum(v for k, v in counts.items() if k.startswith("negative")))
