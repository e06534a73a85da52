#!/usr/bin/env python3
"""Writes the Gitleaks-derived redaction corpus next to this script, and the mapping table in
docs/redaction.md.

For every rule id of the Gitleaks v8.30.1 default configuration (`config/gitleaks.toml`) this
table holds what its rule tests (`cmd/generate/config/rules/*.go`) exercise, rewritten as our own
templates: the secret shapes of its true positives (in every assignment form its sample generator
produces, and then some), and near-miss negatives (placeholders, references, wrong lengths, wrong
case, tokens inside longer words, prose). Nothing is copied: the literal examples of those tests
are replaced by `{{kind:N}}` templates that `devprojex_redact::testgen` expands at test time, so no
credential-shaped literal is committed.

A second part covers the shapes of issue 19 that real repositories hold: tokens right after an
escape sequence or a percent-encoding, base64-wrapped keys and JWTs, very long lines, credential
files and command lines.

Outputs (all committed; rerun after editing this table):
  positive.txt, negative.txt          the corpus (`%%% <name> <our-rule-id-or-family>` headers)
  mapping.tsv                         gitleaks id, our rule ids, reason when there is none
  ../../../../../docs/redaction.md    the mapping table between its markers

Run: python3 crates/devprojex-redact/tests/redaction/gitleaks/generate.py
"""
import pathlib
import re

HERE = pathlib.Path(__file__).parent
DOCS = HERE / "../../../../../docs/redaction.md"

# --------------------------------------------------------------------------- assignment forms


def forms(i, s):
    """The assignment shapes a value takes in configuration and code, key built from `i`."""
    up = i.upper().replace("-", "_")
    return [
        # INI / properties / .env
        f'{i}Token="{s}"',
        f'{i}Token = "{s}"',
        f"{i}Token={s}",
        f"{i}Token = {s}",
        f'export {up}_TOKEN="{s}"',
        # JSON, also as a string inside a string
        '{\n    "' + i + '_token": "' + s + '"\n}',
        '{"config.ini": "' + up + "_TOKEN=" + s + '\\nBACKUP_ENABLED=true"}',
        # XML
        f"<{i}Token>{s}</{i}Token>",
        f"<{i}Token>\n    {s}\n</{i}Token>",
        # YAML
        f"{i}_token: {s}",
        f"{i}_token: '{s}'",
        f'{i}_token: "{s}"',
        # source code
        f'string {i}Token = "{s}";',
        f'var {i}Token string = "{s}"',
        f'{i}Token := "{s}"',
        f"{i}Token := `{s}`",
        f'String {i}Token = "{s}";',
        f'var {i}Token = "{s}"',
        f'val {i}Token: String = "{s}"',
        f'${i}Token .= "{s}";',
        f"{i}Token = '{s}'",
        f'{i}_token <- "{s}"',
        f"const {i}Token = `{s}`;",
        f'System.setProperty("{up}_TOKEN", "{s}")',
        f'  "{i}Token" => "{s}",',
        # Makefile assignments
        f'{up}_TOKEN = "{s}"',
        f'{up}_TOKEN := "{s}"',
        f'{up}_TOKEN ::= "{s}"',
        f'{up}_TOKEN :::= "{s}"',
        f'{up}_TOKEN ?= "{s}"',
    ]


def few(i, s):
    """A handful of forms, for rules whose shape is the same as another rule's."""
    f = forms(i, s)
    return [f[0], f[5], f[8], f[11], f[14], f[19], f[23]]


BAD_KIND = re.compile(r"\{\{([a-zA-Z0-9]+):(\d+)\}\}(?!.*\{\{[a-zA-Z0-9]+:\d+\}\})")


def longer(value):
    """The value with one more character in its last generated piece: a wrong length."""
    if value.endswith("{{uuid}}"):
        return value[: -len("{{uuid}}")] + "{{hex:8}}-{{hex:4}}-{{hex:4}}-{{hex:4}}-{{hex:13}}"
    m = BAD_KIND.search(value)
    assert m, value
    return value[: m.start()] + "{{%s:%d}}" % (m.group(1), int(m.group(2)) + 1) + value[m.end():]


def semi_negatives(i, value, bad=None):
    """Near misses for a provider rule whose signal is the provider name in the key."""
    up = i.upper().replace("-", "_")
    return [
        # a wrong length under a key that names nothing secret
        f'{i}_build_ref: "{bad or longer(value)}"',
        # references and placeholders
        f"{up}_TOKEN=${{{up}_TOKEN}}",
        f'{i}_token = "<your {i} token>"',
        f"{i}_token: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        # prose
        f"See the {i} documentation; the token is shown once when you create it.",
    ]


def prefix_negatives(prefix, short_body):
    """Near misses for a token with a distinctive prefix."""
    return [
        f"build note: {prefix}{short_body} was truncated in the log",
        f"Tokens look like {prefix}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (placeholder).",
    ]


PIECE = re.compile(r"\{\{([a-zA-Z0-9]+):(\d+)\}\}|\{\{uuid\}\}")
UUID_PIECES = "{{hex:8}}-{{hex:4}}-{{hex:4}}-{{hex:4}}-{{hex:12}}"


def shorter(value, by=1):
    """The value with `by` fewer characters in its last generated piece: a wrong length."""
    value = value.replace("{{uuid}}", UUID_PIECES)
    m = list(PIECE.finditer(value))[-1]
    n = int(m.group(2)) - by
    assert n > 0, value
    return value[: m.start()] + "{{%s:%d}}" % (m.group(1), n) + value[m.end():]


def filled(value, ch="x"):
    """The value's shape with every generated piece made of one character: a placeholder."""
    value = value.replace("{{uuid}}", UUID_PIECES)
    return PIECE.sub(lambda m: ch * int(m.group(2)), value)


# a letter outside each hexadecimal or decimal alphabet, for a value of the right length whose
# characters are wrong (the rest of the value keeps its alphabet)
OFF_ALPHABET = {"hex": "lo", "HEX": "up", "d": "lo"}


def off_alphabet(value):
    """The value with its hexadecimal and decimal pieces drawn from the letters instead."""
    value = value.replace("{{uuid}}", UUID_PIECES)
    return PIECE.sub(lambda m: "{{%s:%s}}" % (OFF_ALPHABET.get(m.group(1), m.group(1)), m.group(2)),
                     value)


def value_misses(ident, value, bad=(), alphabet=False, lengths="exact"):
    """Near misses of a value a rule knows by its shape: the value one character short and one
    too long (`lengths="exact"`), only one short (`"min"`: the rule takes longer ones) or neither
    (`"range"`: `bad` holds the lengths out of range), `bad` shapes and, with `alphabet`, letters
    where the rule wants hexadecimal or decimal digits, each under a key that names the provider
    but nothing secret; and the same shape filled with `x` or `0` under a secret key (a
    placeholder of a .env.example or a README)."""
    up = ident.upper().replace("-", "_")
    shapes = {"exact": [shorter(value), longer(value)], "min": [shorter(value)], "range": []}[lengths]
    shapes += list(bad)
    if alphabet:
        shapes.append(off_alphabet(value))
    return ([f'{ident}_build_ref: "{v}"' for v in shapes]
            + [f'{up}_SECRET="{filled(value)}"', f"{ident}_secret: {filled(value, '0')}"])


def prefix_misses(ident, prefix, body):
    """Near misses of a prefixed token: the prefix in the wrong case, and the token inside a
    longer word (the tail of a base64 blob), so that no word boundary starts it."""
    return [f'{ident}_build_ref: "{prefix.swapcase()}{body}"',
            f"data:application/octet-stream;base64,QmFyIGJheg{prefix}{body}"]


# --------------------------------------------------------------------------- the rule table
# (gitleaks rule id, our rule ids (tuple) or None, reason when None, positives, negatives)
RULES = []


def rule(gid, ours, tps, fps=(), reason=None):
    if isinstance(ours, str):
        ours = (ours,)
    RULES.append((gid, ours, reason, list(tps), list(fps)))


def semi(gid, ours, ident, value, idents=(), extra=(), fps=(), negs=True, bad=None, misses=()):
    """A keyword-scoped rule. `negs=False` where another rule of the same provider already holds
    the generic near misses (`semi_negatives`); `misses` are this rule's own."""
    tps = forms(ident, value)
    for other in idents:
        tps += few(other, value)
    tps += list(extra)
    neg = (semi_negatives(ident, value, bad) if negs else []) + list(fps) + list(misses)
    rule(gid, ours, tps, neg)


def token(gid, ours, ident, value, extra=(), fps=(), short=None, prefix=None, misses=()):
    tps = forms(ident, value) + list(extra)
    neg = list(fps)
    if prefix is not None:
        neg += prefix_negatives(prefix, short or "{{an:6}}")
    neg += list(misses)
    rule(gid, ours, tps, neg)


UUID = "{{uuid}}"
UUID_UP = "{{HEX:8}}-{{HEX:4}}-{{HEX:4}}-{{HEX:4}}-{{HEX:12}}"

# 1Password
token("1password-secret-key", "onepassword-secret-key", "onepassword",
      "A3-{{AN:6}}-{{AN:11}}-{{AN:5}}-{{AN:5}}-{{AN:5}}",
      extra=["A3-{{AN:6}}-{{AN:6}}-{{AN:5}}-{{AN:5}}-{{AN:5}}-{{AN:5}}",
             "emergency kit: A3-{{AN:6}}-{{AN:11}}-{{AN:5}}-{{AN:5}}-{{AN:5}}"],
      fps=["A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX",
           "A3-xXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX"])
token("1password-service-account-token", "onepassword-service-account-token", "onepassword",
      "ops_eyJ{{b64:280}}",
      extra=["export OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{{b64:600}}",
             '    "sourceContent": "ops_eyJ{{b64:500}}\\n\\nops_token is secret.\\n",'],
      fps=["        login:\n          serviceAccountToken:\n            fn::secret: ops_eyJzaWduSW5B..[Redacted]",
           ": export OP_SERVICE_ACCOUNT_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6...",
           "ops_eyJ" + "x" * 300])
semi("adafruit-api-key", "adafruit-api-key", "adafruit", "{{lnx:32}}")
semi("adobe-client-id", "adobe-client-id", "adobe", "{{hex:32}}")
token("adobe-client-secret", "adobe-client-secret", "adobe", "p8e-{{hex:32}}",
      extra=['adobeClient := "p8e-{{an:32}}"'], prefix="p8e-", short="{{hex:20}}")
token("age-secret-key", "age-secret-key", "age", "AGE-SECRET-KEY-1{{bech32:58}}",
      fps=["AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ is the zero key in the docs",
           "age public keys look like age1{{ln:58}}"])
semi("airtable-api-key", "airtable-api-key", "airtable", "{{ln:17}}")
token("airtable-personnal-access-token", "airtable-token", "airtable", "pat{{an:14}}.{{hex:64}}",
      fps=["pattern{{an:10}}.{{hex:20}}"])
semi("algolia-api-key", "algolia-admin-key", "algolia", "{{hex:32}}")
token("alibaba-access-key-id", "alibaba-access-key-id", "alibaba", "LTAI{{an:20}}",
      extra=['alibabaKey := "LTAI{{hex:20}}"'], prefix="LTAI", short="{{an:8}}")
semi("alibaba-secret-key", "alibaba-access-key-secret", "alibaba", "{{ln:30}}")
ANTHROPIC_BODY = "{{an:9}}-{{lnx:12}}-klmnopqrstuvwx-{{an:14}}-{{lnx:20}}abcdefgh{{an:8}}{{lnx:8}}"
token("anthropic-admin-api-key", "anthropic-api-key", "anthropic",
      "sk-ant-admin01-{{lnx:93}}AA",
      extra=["sk-ant-admin01-{{an:9}}-{{lnx:12}}-klmnopqrstuvwx-{{an:14}}-{{lnx:20}}abcdefgh{{an:8}}{{lnx:8}}AA"],
      fps=["sk-ant-admin01-{{an:9}}-{{an:5}}-{{an:14}}-{{an:12}}-{{an:14}}AA",
           "sk-ant-admin01-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxAA"])
token("anthropic-api-key", "anthropic-api-key", "anthropic", "sk-ant-api03-{{lnx:93}}AA",
      extra=["sk-ant-api03-" + ANTHROPIC_BODY + "AA",
             'ANTHROPIC_API_KEY="sk-ant-api03-' + ANTHROPIC_BODY + 'AA"',
             "sk-ant-api03-{{b64u:93}}AA"],
      fps=["sk-ant-api03-{{an:9}}-{{an:5}}-{{an:14}}-{{an:12}}-{{an:14}}AA",
           "sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxAA",
           "the key format is sk-ant-api03-<93 characters>AA"])
token("artifactory-api-key", "jfrog-api-key", "artifactory", "AKCp{{an:69}}",
      extra=['artifactoryApiKey := "AKCp{{ln:69}}"'],
      fps=["lowEntropy := AKCp" + "X" * 69,
           'wrongStart := "AkCp{{ln:69}}"',
           'wrongLength := "AkCp{{ln:59}}"',
           "partOfAlongUnrelatedBlob gYnkgAkCp{{ln:69}}VyZSB2"])
token("artifactory-reference-token", "jfrog-api-key", "artifactory", "cmVmd{{an:59}}",
      extra=['artifactoryRefToken := "cmVmd{{ln:59}}"'],
      fps=["lowEntropy := cmVmd" + "X" * 59,
           'wrongStart := "cmVMd{{ln:59}}"',
           'wrongLength := "cmVmd{{ln:49}}"',
           "partOfAlongUnrelatedBlob gYnkgcmVmd{{ln:59}}VyZSB2"])
semi("asana-client-id", "asana-client-id", "asana", "{{d:16}}")
semi("asana-client-secret", "asana-client-secret", "asana", "{{ln:32}}")
semi("atlassian-api-token", "atlassian-api-token", "atlassian", "{{ln:20}}{{hex:4}}",
     idents=["confluence", "jira"],
     extra=["JIRA_API_TOKEN={{an:24}}"] + few("jira", "ATATT3{{b64u:170}}={{HEX:8}}"),
     fps=["getPagesInConfluenceSpace,searchConfluenceUsingCql"])
token("authress-service-client-access-key", "authress-access-key", "authress",
      "sc_{{ln:10}}.{{ln:4}}.acc_{{ln:10}}.{{lnx:40}}",
      fps=["sc_{{ln:10}}.{{ln:4}} is a client id; the key has four parts"])
token("aws-access-token", "aws-access-key-id", "AWS", "AKIA{{b32:16}}",
      extra=few("AWS", "ASIA{{b32:16}}") + few("AWS", "ABIA{{b32:16}}") + few("AWS", "ACCA{{b32:16}}"),
      fps=["key = AKIAXXXXXXXXXXXXXXXX",
           "aws_access_key: AKIAIOSFODNN7EXAMPLE",
           'msgstr "N\u00e4yt\u00e4 asiakirjamallikansio."',
           "TODAYINASIAASACKOFRICEFELLOVER",
           "CTTCATAGGGTTCACGCTGTGTAAT-ACG--CCTGAGGC-CACA-AGGGGACTTCAGCAACCGTCGGG-GATTC-ATTGCCA"])
token("aws-amazon-bedrock-api-key-long-lived", "aws-bedrock-api-key", "bedrock",
      "ABSKQmVkcm9ja0FQSUtleS1{{an:108}}=",
      extra=['bedrock_api_token = "ABSKQmVkcm9ja0FQSUtleS1{{an:246}}"'],
      fps=["ABSKQmVkcm9ja0FQSUtleS1EXAMPLE",
           "AXSKQmVkcm9ja0FQSUtleS1{{an:108}}="])
token("aws-amazon-bedrock-api-key-short-lived", "aws-bedrock-api-key", "AmazonBedrockAPIKeyShortLived",
      "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t{{b64:200}}",
      fps=["bedrock-api-key-", "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29x"])
rule("azure-ad-client-secret", "azure-ad-client-secret", [
    "client_secret={{an:3}}8Q~{{b64u:34}}",
    "client_secret: .{{an:2}}8Q~{{an:31}}",
    "AUTH_CLIENTSECRET = _{{an:2}}8Q~{{an:20}}-{{an:13}}",
    '<value xsi:type="xsd:string">~{{an:2}}8Q~{{an:20}}~{{an:13}}</value>',
    '"CLIENT_SECRET": "{{an:3}}7Q~{{an:20}}~{{an:12}}.C"',
    "Set-PSUAuthenticationMethod -Type 'OpenIDConnect' -ClientId 'fake' -ClientSecret '{{an:3}}7Q~{{an:32}}'",
    '"cas.authn.azure-active-directory.client-secret={{an:3}}8Q~{{an:34}}",',
    '"line": "client_srt = \\"{{an:3}}8Q~{{an:34}}\\";",',
    "Example= {{an:2}}.7Q~{{an:31}}",
    "(use the client secret: {{an:3}}8Q~{{an:3}}-_{{an:28}})",
    "({{an:3}}8Q~{{an:34}})",
    '\\"pass\\": \\"{{an:3}}4Q~{{b64u:33}}',
], [
    "![img](https://p3-juejin.byteimg.com/tos-cn-i-k3u1fbpfcp/6a9e704af49b4380bb686f0c96d33b81~tplv-k3u1fbpfcp-watermark.image)",
    "~" * 40,
    ".ui.visible.right.sidebar~.ui.visible.left.sidebar~.pusher{transform:translate3d(0,0,0)}",
    "'url': 'http://www.2doc.nl/speel~VARA_101375237~mh17-het-verdriet-van-nederland~.html',",
    "'#!/registries/5/portainer.demo~2Fportainerregistrytesting~2Falpine',",
    "client_secret=bP88Q~" + "x" * 34,
])
semi("beamer-api-token", "beamer-api-token", "beamer", "b_{{lne:44}}",
     fps=["R21A-A-V010SP13RC181024R16900-CN-B_250K-Release-OTA-{{HEX:32}}.bfu"])
semi("bitbucket-client-id", "bitbucket-client-id", "bitbucket", "{{ln:32}}")
semi("bitbucket-client-secret", "bitbucket-client-secret", "bitbucket", "{{lne:64}}")
semi("bittrex-access-key", "bittrex-api-key", "bittrex", "{{ln:32}}")
semi("bittrex-secret-key", "bittrex-api-key", "bittrexSecret", "{{ln:32}}", negs=False,
     misses=value_misses("bittrex", "{{ln:32}}"))
semi("cisco-meraki-api-key", "cisco-meraki-api-key", "meraki", "{{hex:40}}",
     fps=["meraki: aaaaaaaaaa1111111111bbbbbbbbbb2222222222",
          "meraki-build-ref: {{hex:10}}F{{hex:29}}Zq",
          "meraki_build_ref = {{hex:64}}R21",
          "ReactNativeCameraKit: {{hex:40}}"])
token("clickhouse-cloud-api-secret-key", "clickhouse-cloud-secret", "ClickHouse", "4b1d{{an:38}}",
      fps=["key = 4b1d" + "X" * 38, "key = adf4b1d{{an:38}}"])
token("clojars-api-token", "clojars-token", "clojars", "CLOJARS_{{ln:60}}", prefix="CLOJARS_",
      short="{{ln:20}}")
semi("cloudflare-api-key", "cloudflare-api-token", "cloudflare", "{{lnx:40}}",
     extra=['cloudflare_api_key = "{{b64u:40}}"', "CLOUDFLARE_API_KEY: {{an:40}}", 'cloudflare: "{{an:40}}"'])
semi("cloudflare-global-api-key", "cloudflare-global-api-key", "cloudflare", "{{hex:37}}",
     extra=['cloudflare_global_api_key = "{{hex:37}}"', "CLOUDFLARE_GLOBAL_API_KEY: {{hex:37}}",
            'cloudflare: "{{hex:37}}"'], negs=False,
     misses=value_misses("cloudflare_global", "{{hex:37}}", alphabet=True))
token("cloudflare-origin-ca-key", "cloudflare-origin-ca-key", "cloudflare", "v1.0-{{hex:24}}-{{hex:146}}",
      extra=["CLOUDFLARE_ORIGIN_CA: v1.0-{{hex:24}}-{{hex:146}}"], prefix="v1.0-", short="{{hex:24}}")
semi("codecov-access-token", "codecov-token", "codecov", "{{ln:32}}")
rule("cohere-api-token", "cohere-api-key", [
    'cohere_api_token = "{{an:40}}"', "export CO_API_KEY={{an:40}}"] + forms("cohere", "{{an:40}}"),
    ["CO_API_KEY=" + "x" * 40] + semi_negatives("cohere", "{{an:40}}"))
semi("coinbase-access-token", "coinbase-api-secret", "coinbase", "{{lnx:64}}")
semi("confluent-access-token", "confluent-api-key", "confluent", "{{ln:16}}")
semi("confluent-secret-key", "confluent-api-secret", "confluent", "{{ln:64}}", negs=False,
     misses=value_misses("confluent", "{{ln:64}}"))
semi("contentful-delivery-api-token", "contentful-token", "contentful", "{{ln:43}}")
rule("curl-auth-header", "curl-auth-header", [
    "curl --header  'Authorization:  " + UUID + "'",
    "curl -H 'Authorization: Basic {{b64:16}}=' \\",
    'curl -k -X POST --header "Authorization: Basic {{b64:72}}" "https://api-qa.acme.io:8243/token" -d "grant_type=client_credentials"',
    'curl -X POST -H "Content-Type: application/json" \\\n -H "Authorization: Basic {{b64:80}}=" \\\n  -d \'{"user":{"emailAddress":"test@acme.io"}}\' \\\n  \'http://localhost:8080/oauth2-provider/v1.0/users\'',
    "#curl -X POST \\\n#  https://api.mailgun.net/v3/acme.io/messages \\\n#  -H 'Authorization: Basic {{b64:60}}==' \\\n#  -F from='Excited User <mailgun@acme.io>'",
    '# curl -X GET "http://localhost:3000/api/cron/status" -H "Authorization: Bearer {{hex:32}}"',
    "curl -X PUT -H 'Authorization: Bearer {{b64:300}}==' -d 'user={\"roles\":[\"user\"]}' http://127.0.0.1:8443/desks/1/occupy",
    'curl https://api.openai.com/v1/chat/completions \\\n  -H "Content-Type: application/json" \\\n  -H "Authorization: Bearer sk-{{an:20}}T3BlbkFJ{{an:20}}" \\',
    'curl -X GET "https://api.cloudflare.com/client/v4/user/tokens/verify" \\\n     -H "Authorization: Bearer {{b64u:40}}" \\\n     -H "Content-Type:application/json"',
    'curl -H "Authorization: Bearer sha256~{{b64u:43}}"',
    'curl -H "Authorization: Api-Token {{hex:40}}" --request PUT https://appsec.acme.io/api/use/635',
    'curl -H "Authorization: Token {{hex:40}}" --request PUT https://appsec.acme.io/api/use/635',
    'curl -L -H "Authorization:eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{{b64u:30}}.{{b64u:43}}" service1.local',
    'curl -L -H "Authorization: sha256~{{an:10}}@=-.a+/{{an:6}}"',
    'curl -X GET \\\n     -H "apikey: ' + UUID + '" \\\n     -H "Accept: application/json" \\',
    'curl -X POST --header "Api-Token: {{an:11}}"',
    'curl -XPOST http://localhost:8080/api/tasks -H "Content-Type: application/x-www-form-urlencoded" -H "Token: {{hex:16}}" -d "content=hello"',
    'curl -X GET https://octopus.corp.net/\n     -H "X-Octopus-ApiKey: ' + UUID + '" \\',
], [
    'curl https://acme.io/micropub -d h=entry -d "content=Hello World" -H "Authorization: Bearer XXXXXXXXXXXX"',
    'curl -X POST https://accounts.spotify.com/api/token -d grant_type=client_credentials --header "Authorization: Basic ..."',
    'curl \\\n  -H "Authorization: Bearer <Openverse API token>" \\\n  "https://api.openverse.org/v1/audio/?q=test"',
    'curl -v -X POST https://domain/api/v1/authentication/sso/login-url/ \\\n  -H \'Content-Type: application/json\' \\\n  -H "Authorization: Token **********" \\\n  -d \'{"username": "test"}\'',
    'curl -XPOST http://localhost:8080/api/token -H "Authorization: basic {base64(email:password[\\n])}" => token',
    'curl -X GET \\\n     -H "apikey: $API_KEY" \\\n     -H "Accept: $FORMAT" \\\n"$API_URL/rest/v1/stats"',
    '$ curl -X POST "http://localhost:8000/v1/chat/completions" \\\n    -H "Content-Type: application/json" \\\n    -H "Authorization: Bearer $API_KEY" \\\n    -d \'{"model": "chatglm3-6b-32k"}\'',
    'curl -X GET -H "Authorization: Bearer $(gcloud auth print-access-token)" https://workflowexecutions.googleapis.com/v1/projects/244283331594/locations',
])
rule("curl-auth-user", "curl-auth-user", [
    "curl --cacert ca.crt -u elastic:P@{{an:6}}$1 https://localhost:9200",
    "sh-5.0$ curl -k -X POST https://infinispan:11222/rest/v2/caches/default/hello \\\n  -H 'Content-type: text/plain' \\\n  -d 'world' \\\n  -u developer:{{an:16}}",
    'curl -u ":{{an:10}}!t" https://localhost:9200',
    'curl -u "{{an:10}}!t:" https://localhost:9200',
    "curl -sw '%{http_code}' -X POST --user  'johns:{{an:5}}~{{an:5}}' $GITHUB_API_URL/$GIT_COMMIT --data",
    "curl --user roger23@mail.acme.io:{{an:10}} https://www.dropbox.com/cli_link?host_id=abcdefg -v",
    "curl -s --user 'api:{{an:10}}!t' \\\n    https://api.mailgun.net/v2/acme.mailgun.org/messages",
    'curl -s -v --user "j.smith:{{an:6}}@{{an:6}}#{{an:4}}" "https://api.acme.io/user/me"',
    'curl -X POST --user "apikey":"{{an:14}}" --header "Accept: application/json" https://gateway.acme.io/language-translator/api',
    "curl --user kevin:'{{an:16}}' -iX PATCH -H \"Content-Type: application/json\" -d",
    "$ curl https://api.dropbox.com/oauth2/token \\\n  --user app-key:{{ln:15}} --data grant_type=authorization_code",
], [
    "curl -i -u 'test:test'",
    '   curl -sL --user "$1:$2" "$3" > "$4"',
    "curl -u <user:password> https://test.com/endpoint",
    "curl --user neo4j:[PASSWORD] http://[IP]:7474/db/data/",
    'curl -u "myusername" http://localhost:15130/api/check_user/',
    "curl -u username:token",
    'curl -u "${_username}:${_password}"',
    'curl -u "${username}":"${password}"',
    'curl -k -X POST -I -u "SRVC_JENKINS:${APPID}"',
    'curl -u ":" https://localhost:9200',
    "curl -sw '%{http_code}' -X POST --user '$USERNAME:$PASSWORD' $GITHUB_API_URL/$GIT_COMMIT --data",
    'curl --user "xxx:yyy"',
    'curl --silent --fail {{- if and $.Values.username $.Values.password }} --user "{{ $.Values.username }}:{{ $.Values.password }}"',
    'curl -XGET -i -u "${{ env.ELK_ID }}:${{ build.env.ELK_PASS }}"',
    'curl -XGET -i -u "${{needs.vault.outputs.account_id}}:${{needs.vault.outputs.account_password}}"',
    'curl -X POST --user "$(cat ./login.txt):$(cat ./password.txt)"',
    "curl http://127.0.0.1:5000/file --user user:pass --digest        # digest auth",
    '   curl -X GET --insecure --user "username:password" \\',
    "curl --silent --insecure --user ${f5user}:${f5pass} \\",
    'curl --insecure --ssl-reqd "smtps://smtp.acme.io" --mail-from "src@acme.io" --user "src@acme.io" --upload-file out.txt',
    '#HTTP command line test\ncurl -X POST -H "Content-Type: application/json" -d \'{"id":12345}\' http://<ip>:8080/serve\n#UDP listener\nnc -u -l 41234',
])
token("databricks-api-token", "databricks-token", "databricks", "dapi{{hex:32}}",
      extra=["token = dapi{{hex:32}}-2"],
      fps=["DATABRICKS_BUILD=dapi123456789012345678a9bc01234defg5"])
semi("datadog-access-token", "datadog-api-key", "datadog", "{{ln:40}}")
semi("defined-networking-api-token", "defined-networking-api-token", "dnkey",
     "dnkey-{{lne:26}}-{{lne:52}}", negs=False,
     fps=["dnkey-{{ln:10}} is only the prefix of a Defined Networking key"])
token("digitalocean-access-token", "digitalocean-oauth-token", "do", "doo_v1_{{hex:64}}",
      prefix="doo_v1_", short="{{hex:40}}")
token("digitalocean-pat", "digitalocean-pat", "do", "dop_v1_{{hex:64}}", prefix="dop_v1_",
      short="{{hex:40}}")
token("digitalocean-refresh-token", "digitalocean-refresh-token", "do", "dor_v1_{{hex:64}}",
      prefix="dor_v1_", short="{{hex:40}}")
semi("discord-api-token", "discord-api-key", "discord", "{{hex:64}}")
semi("discord-client-id", "discord-client-id", "discord", "{{d:18}}", negs=False,
     fps=["discord=000000000000000000"])
semi("discord-client-secret", "discord-client-secret", "discord", "{{lne:32}}", negs=False,
     extra=few("discord", "{{d:32}}"), fps=["discord=00000000000000000000000000000000"])
token("doppler-api-token", "doppler-token", "doppler", "dp.pt.{{ln:43}}", prefix="dp.pt.",
      short="{{ln:20}}")
semi("droneci-access-token", "drone-ci-token", "droneci", "{{ln:32}}")
semi("dropbox-api-token", "dropbox-api-secret", "dropbox", "{{ln:15}}")
semi("dropbox-long-lived-api-token", "dropbox-long-lived-token", "dropbox",
     "{{ln:11}}AAAAAAAAAA{{lnx:43}}", negs=False,
     misses=value_misses("dropbox", "{{ln:11}}AAAAAAAAAA{{lnx:43}}",
                         bad=["{{ln:11}}AAAAA{{lnx:48}}"]))
semi("dropbox-short-lived-api-token", "dropbox-token", "dropbox", "sl.{{lnx:135}}", negs=False,
     misses=value_misses("dropbox", "sl.{{lnx:135}}", lengths="range", bad=["sl.{{lnx:100}}"])
     + prefix_misses("dropbox", "sl.", "{{lnx:135}}"))
token("duffel-api-token", "duffel-token", "duffel", "duffel_test_{{lne:43}}", prefix="duffel_test_",
      short="{{ln:20}}")
token("dynatrace-api-token", "dynatrace-token", "dynatrace", "dt0c01.{{ln:24}}.{{ln:64}}",
      prefix="dt0c01.", short="{{ln:24}}")
token("easypost-api-token", "easypost-api-key", "EZAK", "EZAK{{an:54}}",
      extra=["EZAK{{an:54}}", "acme.io?t=EZAK{{an:54}}&q=1"],
      fps=["...6wqX6fNUXA/rYqRvfQ+EZAK{{an:40}}/{{an:20}}..."])
token("easypost-test-api-token", "easypost-api-key", "EZTK", "EZTK{{an:54}}",
      extra=["EZTK{{an:54}}", "acme.io?t=EZTK{{an:54}}&q=1"],
      fps=["...6wqX6fNUXA/rYqRvfQ+EZTK{{an:40}}/{{an:20}}..."])
rule("etsy-access-token", "etsy-access-token",
     forms("ETSY", "{{ln:24}}") + few("etsy", "{{ln:24}}") + few("Etsy", "{{ln:24}}"),
     ['SetSysctl = "{{ln:24}}"',
      "\tif err := sysctl.SetSysctl(sysctlBridgeCallIPTables); err != nil {",
      "in XCBuild.XCBBuildServiceSession.setSystemInfo(operatingSystemVersion: __C.NSOperatingSystemVersion)"]
     + semi_negatives("etsy", "{{ln:24}}"))
rule("facebook-access-token", "facebook-app-access-token", [
    '{"facebook access_token":"{{d:15}}|{{b64u:27}}","token_type":"bearer"}',
    "facebook {{d:16}}|{{b64u:27}}",
    "facebook {{d:16}}%7C{{lnx:32}}",
], ["facebook app id {{d:15}} and page {{d:16}}"])
rule("facebook-page-access-token", "facebook-access-token", [
    "EAAM{{an:180}}",
    "EAAM{{an:140}}",
    '- name: FACEBOOK_TOKEN\n  value: "EAAC{{an:110}}"',
], ["eaaaC0b75a9329fded2ffa9a02b47e0117831b82",
    '"strict-uri-encode@npm:^2.0.0":\n  version: 2.0.0\n  checksum: eaac{{hex:124}}\n  languageName: node'])
semi("facebook-secret", "facebook-app-secret", "facebook", "{{hex:32}}",
     extra=['facebook_app_secret = "{{hex:32}}"', "facebook_client_access_token: {{hex:32}}"])
semi("fastly-api-token", "fastly-api-token", "fastly", "{{lne:32}}")
semi("finicity-api-token", "finicity-api-token", "finicity", "{{hex:32}}")
semi("finicity-client-secret", "finicity-client-secret", "finicity", "{{ln:20}}", negs=False,
     misses=value_misses("finicity", "{{ln:20}}"))
semi("finnhub-access-token", "finnhub-access-token", "finnhub", "{{ln:20}}")
semi("flickr-access-token", "flickr-access-token", "flickr", "{{ln:32}}")
token("flutterwave-encryption-key", "flutterwave-secret-key", "flutterwavePubKey",
      "FLWSECK_TEST-{{hex:12}}",
      misses=value_misses("flutterwave", "FLWSECK_TEST-{{hex:12}}", alphabet=True)
      + prefix_misses("flutterwave", "FLWSECK_TEST-", "{{hex:12}}"))
token("flutterwave-public-key", "flutterwave-public-key", "flutterwavePubKey",
      "FLWPUBK_TEST-{{hex:32}}-X", prefix="FLWPUBK_TEST-", short="{{hex:8}}")
token("flutterwave-secret-key", "flutterwave-secret-key", "flutterwavePubKey",
      "FLWSECK_TEST-{{hex:32}}-X",
      misses=value_misses("flutterwave", "FLWSECK-{{hex:32}}-X", alphabet=True,
                          bad=["FLWSECK-{{hex:32}}", "FLWSECK_TEST-{{hex:32}}-Y"]))
token("flyio-access-token", "fly-io-token", "fly", "fo1_{{b64u:43}}",
      extra=["Fly access token: fo1_{{b64u:43}}\n",
             "=" * 100 + "\nfo1_{{b64u:43}}\nfly deploy",
             'ENV FLY_API_TOKEN="FlyV1 fm1r_{{b64:420}}=,fm1a_{{b64:300}}="',
             "#           FLY_API_TOKEN: FlyV1 fm2_{{b64:400}}==,fm2_{{b64:300}}",
             '"BindToParentToken": "FlyV1 fm2_{{b64:160}}",']
      + few("fly", "fm1a_{{b64:120}}") + few("fly", "fm2_{{b64:150}}"),
      fps=['resource "doppler_integration_flyio" "prod" {\n  name    = "TF Fly.io"\n  api_key = "fo1_' + "x" * 43 + '"\n}',
           "pub const MINIDUMP_SYSMEMINFO1_PERF_CCTOTALDIRTYPAGES_CCDIRTYPAGETHRESHOLD: u32 = 4u32;",
           '<input type="hidden" name="authenticity_token" value="7SWa-Fo1_{{b64u:80}}" autocomplete="off" />'])
token("frameio-api-token", "frameio-token", "frameio", "fio-u-{{lne:64}}", prefix="fio-u-",
      short="{{ln:20}}")
rule("freemius-secret-key", "freemius-secret-key", [
    '$config = array(\n\t\t\t"secret_key" => "sk_{{an:8}}#{{an:6}}&@*{{an:6}}${{an:6}}",\n\t\t);',
    "'secret_key' => 'sk_{{an:29}}',",
], ['$config = array(\n\t\t\tsecret_key => "sk_abcdefghijklmnopqrstuvwxyz123",\n\t\t);',
    '$config = array(\n\t\t\t"other_key" => "sk_abcdefghijklmnopqrstuvwxyz123",\n\t\t);'])
semi("freshbooks-access-token", "freshbooks-access-token", "freshbooks", "{{ln:64}}")
token("gcp-api-key", "gcp-api-key", "gcp", "AIza{{b64u:35}}",
      extra=["AIzaSy{{an:32}}-"],
      fps=["GWw4hjABFzZCGiRpmlDyDdo87Jn9BN9THUA47muVRNunLxsa82tMAdvmrhOqNkRKiYMEAFbTJAIza{{an:30}}",
           "AIzaTesb6Tscfcni8vIpWZqNCXFDFslJtVSvFDqabcd123",
           'apiKey: "AIza' + "a" * 35 + '"',
           "AIZASYCO2CXRMC9ELSKLHLHRMBSWDEVEDZTLO2O"])
rule("generic-api-key", ("generic-secret", "generic-password"),
     forms("generic", "CLOJARS_{{ln:60}}") + forms("generic", "{{an:32}}") + [
         "'access_token': 'eyJ0eXAio{{an:15}}=='",
         'some_api_token_123 = "{{an:60}}"',
         '"user_auth": "{{b64:60}}="',
         '"credentials" : "{{hex:64}}"',
         "creds = {{an:30}}",
         "private-key: {{lne:100}}",
         "passwd = {{lne:30}}",
         '"client_secret" : "{{hex:64}}",',
         "mySecretString={{an:30}}",
         "todo_secret_do_not_commit = {{an:30}}",
         ' utils.GetEnvOrDefault("api_token", "' + UUID + '")',
     ], [
         '"accessor":"{{an:16}}",',
         "report_access_id: " + UUID,
         'accessibilityYesOptionId = "' + UUID + '"',
         "_RandomAccessIterator>\n_LIBCPP_CONSTEXPR_AFTER_CXX11 ",
         'this.ultraPictureBox1.Name = "ultraPictureBox1";',
         "rapidstring:marm64-uwp=fail",
         "event-bus-message-api:rc0.15.0_20231217_1420-SNAPSHOT'",
         "COMMUNICATION_API_VERSION=rc0.13.0_20230412_0712-SNAPSHOT",
         "MantleAPI_version={{hex:40}}",
         "[DEBUG]\t\torg.slf4j.slf4j-api:jar:1.7.8.:compile (version managed from default)",
         "[DEBUG]\t\torg.neo4j.neo4j-graphdb-api:jar:3.5.12:test",
         "apiUrl=apigee.corpint.com",
         'X-API-Name": "NRG0-Hermes-INTERNAL-API",',
         'author = "james.fake@acme.io",',
         "X-MS-Exchange-Organization-AuthSource: sm02915.int.contoso.com",
         "Authentication-Results: 5h.ca.iphmx.com",
         "withCredentials([usernamePassword(credentialsId: '" + UUID + "', usernameVariable: 'USERNAME', passwordVariable: 'PASSWORD')]) {",
         "credentialsId: '" + UUID + "'",
         "jobCredentialsId: '" + UUID + "'",
         '  "credentialId": "{{an:22}}",',
         'environment {\n\tCREDENTIALS_ID = "K8S_CRED"\n}',
         "dev.credentials.url=dev-lb1.api.f4ke.com:5215",
         'keyword: "Befaehigung_P2"',
         'public_key = "{{an:43}}"',
         "pub const X509_pubkey_st = struct_X509_pubkey_st;",
         "|| pIdxKey->default_rc==0",
         "monkeys-audio:mx64-uwp=fail",
         "primaryKey={{lne:30}}",
         "foreignKey={{lne:30}}",
         "key_down_event={{lne:30}}",
         "issuerKeyHash={{lne:30}}",
         '<entry key="jetbrains.mps.v8_elimination" value="executed" />',
         "minisat-master-keying:x64-uwp=fail",
         "IceSSL.KeyFile=s_rsa1024_priv.pem",
         '"bucket_key": "SalesResults-1.2"',
         '<key tag="SecurityIdentifier" name="SecurityIdentifier" type="STRING" />',
         "schemaKey = 'DOC_Vector_5_32'",
         'sequenceKey = "18"',
         "app.keystore.file=env/cert.p12",
         "-DKEYTAB_FILE=/tmp/app.keytab",
         "\tdoc.Security.KeySize = PdfEncryptionKeySize.Key128Bit;",
         "o.keySelector=n,o.haKey=!1,",
         '                                "key_name": "prod5zyxlmy-cmk",',
         '                                "kms_key_id": "' + UUID + '",',
         '\t"key_vault_name": "web21prqodx24021",',
         "  keyVaultToStoreSecrets: cmp2-qat-1208358310",
         'const validKeyChars = "0123456789abcdefghijklmnopqrstuvwxyz_-."',
         'const keyStr = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"',
         "key_length = XSalsa20.key_length",
         'pub const SN_id_Gost28147_89_None_KeyMeshing = "id-Gost28147-89-None-KeyMeshing"',
         "KeyPair = X25519.KeyPair",
         "BlindKeySignatures = Ed25519.BlindKeySignatures",
         'AVEncVideoMaxKeyframeDistance, "' + UUID + '"',
         "            keyPressed = kVK_Return.u16",
         'timezone_mapping = {\n    "Turkey Standard Time": "Europe/Istanbul",\n}',
         "password combination.\n\nR5: Regulatory--21",
         "PuttyPassword=0",
         'LLM_SECRET_NAME = "NEXUS-GPT4-API-KEY"',
         "  <UserSecretsId>" + UUID + "</UserSecretsId>",
         "secret_length = X25519.secret_length",
         "secretSize must be >= XXH3_SECRET_SIZE_MIN",
         "# get build time secret for authentication\n#RUN --mount=type=secret,id=jfrog_secret \\\n#    JFROG_SECRET = $(cat /run/secrets/jfrog_secret) && \\",
         "    access_token_url='https://github.com/login/oauth/access_token',",
         'publicToken = "{{an:43}}"',
         '<SourceFile SourceLocation="F:\\Extracts\\" TokenFile="RTL_INST_CODE.cer">',
         'notes            = "Maven - io.jsonwebtoken:jjwt-jackson-0.11.2"',
         "csrf-token={{b64:86}}==",
         'clientId = "' + UUID + '"',
         "GITHUB_API_KEY=\nDYNATRACE_API_KEY=",
         "snowflake.password=\njdbc.snowflake.url=",
         "import { chain_Anvil1_Key, chain_Anvil2_Key } from '../blockchain-tests/pallets/supported-chains/consts';",
         'SRCREV_moby = "{{hex:40}}"',
         'LIC_FILES_CHKSUM = "file://${WORKDIR}/license.html;md5={{hex:32}}"',
     ])
token("github-app-token", ("github-app-installation-token", "github-app-user-token"), "github",
      "ghs_{{an:36}}", extra=few("github", "ghu_{{an:36}}"),
      fps=["ghu_" + "x" * 36, "ghs_" + "x" * 36])
token("github-fine-grained-pat", "github-fine-grained-pat", "github", "github_pat_{{ln:82}}",
      extra=few("github", "github_pat_{{an:22}}_{{an:59}}"),
      fps=["github_pat_" + "x" * 22 + "_" + "x" * 59])
token("github-oauth", "github-oauth-token", "github", "gho_{{an:36}}", fps=["gho_" + "x" * 36])
token("github-pat", "github-pat", "github", "ghp_{{an:36}}", fps=["ghp_" + "x" * 36])
token("github-refresh-token", "github-refresh-token", "github", "ghr_{{an:36}}",
      fps=["ghr_" + "x" * 36])
token("gitlab-cicd-job-token", "gitlab-cicd-job-token", "gitlab", "glcbt-{{ln:5}}_{{ln:20}}",
      misses=value_misses("gitlab", "glcbt-{{ln:5}}_{{ln:20}}", lengths="range", bad=["glcbt-{{ln:5}}_{{ln:10}}"])
      + prefix_misses("gitlab", "glcbt-", "{{ln:5}}_{{ln:20}}"))
rule("gitlab-deploy-token", "gitlab-deploy-token",
     ['gitlab_api_token = "gldt-{{ln:20}}"'] + few("gitlab", "gldt-{{an:20}}"),
     value_misses("gitlab", "gldt-{{ln:20}}", lengths="min", bad=["gldt-{{ln:12}}"])
     + prefix_misses("gitlab", "gldt-", "{{ln:20}}"))
token("gitlab-feature-flag-client-token", "gitlab-feature-flag-token", "gitlab", "glffct-{{ln:20}}",
      misses=value_misses("gitlab", "glffct-{{ln:20}}", lengths="exact")
      + prefix_misses("gitlab", "glffct-", "{{ln:20}}"))
token("gitlab-feed-token", "gitlab-feed-token", "gitlab", "glft-{{ln:20}}",
      misses=value_misses("gitlab", "glft-{{ln:20}}", lengths="min", bad=["glft-{{ln:12}}"])
      + prefix_misses("gitlab", "glft-", "{{ln:20}}"))
token("gitlab-incoming-mail-token", "gitlab-incoming-mail-token", "gitlab", "glimt-{{ln:25}}",
      misses=value_misses("gitlab", "glimt-{{ln:25}}", lengths="exact")
      + prefix_misses("gitlab", "glimt-", "{{ln:25}}"))
token("gitlab-kubernetes-agent-token", "gitlab-kubernetes-agent-token", "gitlab",
      "glagent-{{ln:50}}",
      misses=value_misses("gitlab", "glagent-{{ln:50}}", lengths="min")
      + prefix_misses("gitlab", "glagent-", "{{ln:50}}"))
token("gitlab-oauth-app-secret", "gitlab-oauth-app-secret", "gitlab", "gloas-{{ln:64}}",
      misses=value_misses("gitlab", "gloas-{{ln:64}}", lengths="exact")
      + prefix_misses("gitlab", "gloas-", "{{ln:64}}"))
token("gitlab-pat", "gitlab-pat", "gitlab", "glpat-{{ln:20}}", fps=["glpat-XXXXXXXXXXX-XXXXXXXX"])
token("gitlab-pat-routable", "gitlab-pat", "gitlab", "glpat-{{ln:27}}.{{ln:2}}{{ln:7}}",
      fps=["glpat-xxxxxxxx-xxxxxxxxxxxxxxxxxx.xxxxxxxxx"])
token("gitlab-ptt", "gitlab-pipeline-trigger-token", "gitlab", "glptt-{{hex:40}}",
      fps=["glptt-" + "x" * 40])
token("gitlab-rrt", "gitlab-runner-registration-token", "gitlab", "GR1348941{{ln:20}}",
      fps=["GR134894112312312312312312312", "GR1348941XXXXXXXXXXXXXXXXXXXX"])
token("gitlab-runner-authentication-token", "gitlab-runner-auth-token", "gitlab", "glrt-{{ln:20}}",
      misses=value_misses("gitlab", "glrt-{{ln:20}}", lengths="min", bad=["glrt-{{ln:12}}"])
      + prefix_misses("gitlab", "glrt-", "{{ln:20}}"))
token("gitlab-runner-authentication-token-routable", "gitlab-runner-auth-token", "gitlab",
      "glrt-t{{d:1}}_{{ln:27}}.{{ln:2}}{{ln:7}}",
      fps=["glrt-tx_xxxxxxxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxx"])
token("gitlab-scim-token", "gitlab-scim-token", "gitlab", "glsoat-{{ln:20}}",
      misses=value_misses("gitlab", "glsoat-{{ln:20}}", lengths="min", bad=["glsoat-{{ln:12}}"])
      + prefix_misses("gitlab", "glsoat-", "{{ln:20}}"))
token("gitlab-session-cookie", "gitlab-session-cookie", "gitlab", "_gitlab_session={{ln:32}}",
      extra=["Cookie: _gitlab_session={{ln:32}}; path=/"],
      fps=["_gitlab_session= is set by the server after sign-in"])
semi("gitter-access-token", "gitter-access-token", "gitter", "{{lnx:40}}")
semi("gocardless-api-token", "gocardless-token", "gocardless", "live_{{lne:40}}")
token("grafana-api-key", "grafana-api-key", "grafana-api-key", "eyJrIjoi{{an:70}}",
      # a base64 JSON object with another first key is not a Grafana key
      misses=value_misses("grafana", "eyJrIjoi{{an:70}}", lengths="min",
                          bad=["eyJrIjoi{{an:40}}", "eyJhIjoi{{an:70}}"]))
token("grafana-cloud-api-token", "grafana-cloud-token", "grafana-cloud-api-token", "glc_{{an:32}}",
      extra=['grafana-cloud-api-token_api_token = "glc_{{an:32}}"',
             "loki_key: glc_eyJvIjoi{{d:6}}IiwibiI6{{b64:100}}In19fQ=="],
      fps=["glc_" + "x" * 68,
           '   API_KEY="glc_111111111111111111111111111111111111111111="',
           "static void GLC_CreateLightmapTextureArray(void);\nvoid GLC_UploadLightmap(int textureUnit, int lightmapnum);"])
token("grafana-service-account-token", "grafana-service-account-token",
      "grafana-service-account-token", "glsa_{{an:32}}_{{hex:8}}",
      extra=["'Authorization': 'Bearer glsa_{{an:32}}_{{hex:8}}'"],
      fps=["glsa_" + "X" * 32 + "_AAAAAAAA"])
token("harness-api-key", "harness-api-key", "harness", "pat.{{an:22}}.{{an:24}}.{{an:20}}",
      extra=few("harness", "sat.{{an:22}}.{{an:24}}.{{an:20}}"),
      misses=value_misses("harness", "pat.{{an:22}}.{{an:24}}.{{an:20}}",
                          bad=["pat.{{an:22}}.{{an:24}}", "tat.{{an:22}}.{{an:24}}.{{an:20}}"])
      + prefix_misses("harness", "pat.", "{{an:22}}.{{an:24}}.{{an:20}}"))
token("hashicorp-tf-api-token", "hashicorp-terraform-token", "hashicorpToken",
      "{{hex:14}}.atlasv1.{{lne:64}}",
      extra=['#token = "{{an:14}}.atlasv1.{{b64u:67}}"'],
      fps=['token        = "xxxxxxxxxxxxxx.atlasv1.' + "x" * 67 + '"'])
rule("hashicorp-tf-password", "generic-password", [
    'administrator_login_password = "{{an:11}}"',
    'password       = "{{ln:10}}"',
], ["administrator_login_password = var.db_password",
    'password = "${aws_db_instance.default.password}"'])
semi("heroku-api-key", "heroku-api-key", "heroku", UUID,
     extra=['const HEROKU_KEY = "' + UUID_UP + '"', 'heroku_api_key = "' + UUID + '"'])
token("heroku-api-key-v2", "heroku-api-key-v2", "heroku", "HRKU-AA{{b64u:58}}",
      extra=['const KEY = "HRKU-AA{{b64u:40}}_____w4_{{b64u:12}}""',
             'API_Key = "HRKU-AA{{b64u:58}}"'], prefix="HRKU-AA", short="{{an:20}}")
semi("hubspot-api-key", "hubspot-api-key", "hubspot", UUID,
     extra=['const hubspotKey = "' + UUID_UP + '"'])
token("huggingface-access-token", "huggingface-token", "huggingface", "hf_{{a:34}}",
      extra=["huggingface-cli login --token hf_{{a:34}}",
             '-H "Authorization: Bearer hf_{{a:34}}"',
             "DEV=1 HF_TOKEN=hf_{{a:34}} poetry run python app.py",
             "use_auth_token='hf_{{a:34}}')",
             'CI_HUB_USER_TOKEN = "hf_{{a:34}}"',
             "- Change line 5: instead of 'hf_token = \"ADD_YOUR_HUGGING_FACE_TOKEN_HERE\"', use 'hf_token = \"hf_{{a:34}}\"'",
             '    parser.add_argument("--hf_token", type=str, default=\'hf_{{a:34}}\', help="Hugging Face Access Token")'],
      fps=["- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",
           'amazon.de#@#div[data-cel-widget="desktop-rhf_SponsoredProductsRemoteRHFSearchEXPSubsK2ClickPagination"]',
           "                            _kHMSymptomhf_generatedByHomeAppForDebuggingPurposesKey,",
           "    #define OSCHF_DebugGetExpectedAverageCrystalAmplitude NOROM_OSCHF_DebugGetExpectedAverageCrystalAmplitude",
           "  M_UINT       (ServingCellPriorityParametersDescription_t,  H_PRIO,  2, &hf_servingcellpriorityparametersdescription_h_prio),",
           "        subdirs = glob.glob('HF_CAASIMULIAComputeServicesBuildTime.HF*.Linux64')",
           '        os.environ.get("HF_AUTH_TOKEN",\n        "hf_' + "x" * 34 + '"),',
           "# HuggingFace API Token https://huggingface.co/settings/tokens\nHUGGINGFACE_API_TOKEN=hf_" + "x" * 40 + ","])
token("huggingface-organization-api-token", "huggingface-org-token", "huggingface",
      "api_org_{{a:34}}",
      extra=["api_org_{{a:34}}", "`api_org_{{a:34}}`", "\\'api_org_{{a:34}}'\\",
             '        hf_token = "api_org_{{a:34}}"  # revealed for testing',
             '"news = datasets.load_dataset(\'nlp/news\', use_auth_token=\'api_org_{{a:34}}\')\\n",',
             "os.environ['HUGGINGFACEHUB_API_TOKEN'] = 'api_org_{{a:34}}'"],
      fps=['public static final String API_ORG_EXIST = "APIOrganizationExist";',
           "const api_org_controller = require('../../controllers/api/index').organizations;",
           'API_ORG_CREATE("https://qyapi.weixin.qq.com/cgi-bin/department/create?access_token=ACCESS_TOKEN"),',
           "def test_internal_api_org_inclusion_with_href(api_name, href, expected, monkeypatch, called_with):",
           "    def _api_org_96726c78_4ae3_402f_b08b_7a78c6903d2a(self, method, url, body, headers):",
           "<p>You should see a token <code>hf_xxxxx</code> (old tokens are <code>api_XXXXXXXX</code> or <code>api_org_" + "X" * 34 + "</code>).</p>"])
token("infracost-api-token", "infracost-api-key", "ico", "ico-{{an:32}}",
      extra=['  variable {\n    name = "INFRACOST_API_KEY"\n    secret_value = "ico-{{an:32}}"\n    is_secret = true\n  }'],
      fps=["ico-" + "X" * 32,
           "http://assets.r7.com/assets/media_box_tv_tres_colunas/video_box.ico-{{hex:32}}.png",
           "https://explosivelab.notion.site/Pianificazione-Nerdz-Ng-pubblico-{{hex:32}}?pvs=74"])
semi("intercom-api-key", "intercom-token", "intercom", "{{lne:60}}")
rule("intra42-client-secret", "intra42-client-secret", [
    'clientSecret := "s-s4t2ud-{{hex:64}}"',
    'clientSecret := "s-s4t2af-{{hex:64}}"',
    "s-s4t2ud-{{hex:64}}",
    "s-s4t2af-{{hex:64}}",
], prefix_negatives("s-s4t2ud-", "{{hex:20}}"))
rule("jfrog-api-key", "jfrog-api-key", ["--set imagePullSecretJfrog.password={{ln:73}}"]
     + few("jfrog", "{{ln:73}}") + few("xray", "{{ln:73}}"), semi_negatives("jfrog", "{{ln:73}}"))
semi("jfrog-identity-token", "jfrog-identity-token", "jfrog", "{{ln:64}}",
     idents=["artifactory", "bintray", "xray"], extra=['"artifactory", "{{ln:64}}"'])
JWT = "eyJ{{b64u:30}}.eyJ{{b64u:60}}.{{b64u:43}}"
rule("jwt", "jwt", forms("jwt", "ey{{an:30}}.ey{{b64u:80}}.{{b64u:43}}") + [
    "eyJhbGciOi{{an:30}}9.eyJ{{b64u:400}}.{{b64u:43}}==",
    "JWT := eyJhbGciOi{{an:30}}9.eyJ{{b64u:400}}.{{b64u:43}}",
    '"access_token": "' + JWT + '"',
    "https://pl.acme.io/cpl/20980038/master.m3u8?access_token=" + JWT,
    '2020/11/04 21:08:40 Access Token:\n\t\t"' + JWT + '"',
    "python examples/cli.py " + JWT,
    '"Authorization": "Bearer ' + JWT + '"',
    "//                  authorization: '" + JWT + "',",
    "string: grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + JWT,
    '$ curl "http://admin:password@127.0.0.1:8080/api/v2/token"\n\t\t{"access_token":"' + JWT + '","expires_at":"2021-02-14T20:41:01Z"}',
    '{"signatures": [ "' + JWT + '"]}',
    '"Cookie": "auth-token=' + JWT + '",',
    '<a class="btn" href="https://demo.kuboard.cn/dashboard?k8sToken=' + JWT + '">demo</a>',
    "--header 'Authorization: Bearer " + JWT + "' \\",
    "      - SUPABASE_SERVICE_ROLE_KEY=" + JWT,
    'String tokenWithNoneAlg = "eyJhbGciOiJub25lIn0.eyJ{{b64u:30}}.";',
    "# Req: Invoke-RestMethod -Uri 'http://localhost:8085/users' -Headers @{ 'X-API-KEY' = 'eyJhbGciOiJub25lIn0.eyJ{{b64u:40}}.' }",
], ["eyJhbGciOiJIUzI1NiJ9 is only a header", "the payload eyJzdWIiOiIxMjM0In0 alone is not a token"])
rule("jwt-base64", "jwt-base64",
     ["{{jwt64:%d}}" % n for n in (20, 60, 120, 300)]
     + ["{{jwt64u:%d}}" % n for n in (20, 60, 120, 300)]
     + ["token: {{jwt64:80}}", "auth = '{{jwt64u:80}}'", '"session": "{{jwt64:200}}"'],
     ["-----BEGIN PGP PUBLIC KEY BLOCK-----\nVersion: GnuPG v2\n\nmQENBF{{b64:58}}\n{{b64:64}}\nZXlK{{b64:60}}\n=mIC1\n-----END PGP PUBLIC KEY BLOCK-----",
      "ZXlKaGJHY2lPaU is only the start of an encoded header",
      "blob: ZXlK{{b64:200}}"])
semi("kraken-access-token", "kraken-access-token", "kraken", "{{lnl:84}}", bad="{{lnl:91}}")
# kubernetes-secret-yaml: samples written as manifests in the shapes part below
rule("kubernetes-secret-yaml", "kubernetes-secret", [
    "apiVersion: v1\nkind: Secret\ndata:\n\tpassword: {{b64:100}}=",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: heketi-secret\n  namespace: default\ndata:\n  # base64 encoded password. E.g.: echo -n \"mypassword\" | base64\n  key: {{b64:16}}",
    "apiVersion: v1\n data:\n \textra: {{b64:20}}=\n kind: secret\n metadata:\n\t name: secret-sa-sample",
    "apiVersion: v1\ndata:\n\tpassword: {{b64:16}}\n\tusername: {{b64:12}}\nkind: Secret\nmetadata:\n\tname: db-user-pass\ntype: Opaque",
    "apiVersion: v1\ndata:\n\t# the data is abbreviated in this example\n\tpassword: {{b64:16}}\n\tusername: {{b64:12}}\nkind: Secret\nmetadata:\n\tname: db-user-pass\ntype: Opaque",
    "apiVersion: 'v1'\ndata:\n\textra: '{{b64:20}}='\nkind: 'Secret'\nmetadata:\n\tname: 'secret-sa-sample'",
    'apiVersion: "v1"\ndata:\n\textra: "{{b64:20}}="\nkind: "secret"\nmetadata:\n\tname: "secret-sa-sample"',
    "apiVersion: v1\ndata:\n  .dockercfg: |\n    eyJhdXRocyI6{{b64:60}}Cg==\nmetadata:\n  name: secret-dockercfg\ntype: kubernetes.io/dockercfg\nkind: Secret\n",
    "apiVersion: v1\ndata:\n  .dockercfg: >\n    eyJhdXRocyI6{{b64:60}}Cg==\nmetadata:\n  name: secret-dockercfg\ntype: kubernetes.io/dockercfg\nkind: Secret",
    "apiVersion: v1\nkind: secret\ndata:\n\textra: {{b64:20}}=\nmetadata:\n\tname: secret-sa-sample",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ca-secret\ntype: Opaque\ndata:\n  ca.pem: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{{b64:400}}\n",
    "apiVersion: v1\nkind: Secret\nmetadata:\n\tname: db-user-pass\ntype: Opaque\ndata:\n\t# the data is abbreviated in this example\n\tpassword: {{b64:16}}\n\tusername: {{b64:12}}\n",
    "apiVersion: 'v1'\nkind: 'Secret'\ndata:\n\tpassword: '{{b64:16}}'\n\tusername: '{{b64:12}}'\nmetadata:\n\tname: 'db-user-pass'\ntype: 'Opaque'",
    'apiVersion: "v1"\nkind: "Secret"\ndata:\n\tpassword: "{{b64:16}}"\n\tusername: "{{b64:12}}"\nmetadata:\n\tname: "db-user-pass"\ntype: "Opaque"',
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: secret-dockercfg\ntype: kubernetes.io/dockercfg\ndata:\n  .dockercfg: |\n    eyJhdXRocyI6{{b64:60}}Cg==\n",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: secret-dockercfg\ntype: kubernetes.io/dockercfg\ndata:\n  .dockercfg: >\n    eyJhdXRocyI6{{b64:60}}Cg==",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\nstringData:\n  DATABASE_PASSWORD: {{an:18}}\n  API_KEY: \"{{an:32}}\"",
    '{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "app"}, "data": {"password": "{{b64:24}}", "token": "{{b64:40}}"}}',
    '{\n  "apiVersion": "v1",\n  "kind": "Secret",\n  "data": {\n    "tls.key": "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t{{b64:300}}",\n    "password": "{{b64:24}}"\n  }\n}',
], [
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-auth-data\ntype: Opaque\ndata:\n  htpasswd: ''\n",
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-auth-data\ntype: Opaque\ndata:\n  htpasswd: ""\n',
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-auth-data\ntype: Opaque\ndata:\n  htpasswd: {{ htpasswd }}\n---\napiVersion: v1\nkind: ReplicationController",
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: kubernetes-dashboard-csrf\ntype: Opaque\ndata:\n  csrf: ""\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: kubernetes-dashboard-key-holder\ntype: Opaque\n',
    " kind: Secret\n target:\n   name: mysecret\n   creationPolicy: Owner\n---\nkind: ConfigMap\n data:\n       conversionStrategy: Default\n       decodingStrategy: None\n       key: secret/mysecret\n       property: foo\n     secretKey: foo",
    "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: example\nspec:\n  refreshInterval: 15s\n  secretStoreRef:\n    name: example\n    kind: SecretStore\n  target:\n    name: mysecret\n  data:\n    - remoteRef:\n        conversionStrategy: Default\n        key: secret/mysecret\n        property: foo\n      secretKey: foo\n",
    "apiVersion: isindir.github.com/v1alpha3\nkind: SopsSecret\nmetadata:\n    name: app1-sopssecret\nspec:\n    secretTemplates:\n    -   name: ENC[AES256_GCM,data:{{b64:16}},iv:{{b64:43}}=,tag:{{b64:22}}==,type:str]\n        stringData:\n            db-password: ENC[AES256_GCM,data:{{b64:8}},iv:{{b64:43}}=,tag:{{b64:22}}==,type:str]\nsops:\n    version: 3.6.1",
    "apiVersion: v1\ndata:\n\textra: YmFyCg==\nkind: secret\nmetadata:\n\tname: secret-sa-sample",
    "apiVersion: v1\n data:\n \tpassword: {{ .Values.Password }}\n kind: secret\n metadata:\n \tname: secret-sa-sample",
    "apiVersion: 'kubernetes-client.io/v1'\nmetadata:\n  name: actions-exporter\nspec:\n  backendType: secretsManager\n  data:\n    - key: MySecretManagerKey\n      name: github_token\n      property: github_token\nkind: ExternalSecret\n",
    "apiVersion: external-secrets.io/v1beta1\nspec:\n  secretStoreRef:\n    kind: ClusterSecretStore\n    name: aws-secretsmanager\n  data:\n    - secretKey: api-key\n      remoteRef:\n        key: my-secrets-manager-secret\nmetadata:\n  name: api-key\nkind: ExternalSecret\n",
    "apiVersion: v1\nkind: secret\ndata:\n\textra: YmFyCg==\nmetadata:\n\tname: secret-sa-sample",
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: {{b64:40}}",
])
semi("kucoin-access-token", "kucoin-access-token", "kucoin", "{{hex:24}}")
semi("kucoin-secret-key", "kucoin-secret-key", "kucoin", UUID, negs=False,
     misses=value_misses("kucoin", UUID, alphabet=True))
semi("launchdarkly-access-token", "launchdarkly-key", "launchdarkly", "{{lne:40}}")
token("linear-api-key", "linear-api-key", "linear", "lin_api_{{ln:40}}", prefix="lin_api_",
      short="{{ln:20}}")
semi("linear-client-secret", "linear-client-secret", "linear", "{{hex:32}}")
semi("linkedin-client-id", "linkedin-client-id", "linkedin", "{{ln:14}}",
     idents=["linked_in", "linked-in"])
semi("linkedin-client-secret", "linkedin-client-secret", "linkedin", "{{ln:16}}", negs=False,
     misses=value_misses("linkedin", "{{ln:16}}"))
semi("lob-api-key", "lob-api-key", "lob", "test_{{hex:35}}")
semi("lob-pub-api-key", "lob-api-key", "lob", "test_pub_{{hex:31}}", negs=False,
     misses=value_misses("lob", "test_pub_{{hex:31}}", alphabet=True, bad=["prod_pub_{{hex:31}}"]))
semi("looker-client-id", "looker-client-id", "looker", "{{ln:20}}")
semi("looker-client-secret", "looker-client-secret", "looker", "{{ln:24}}", negs=False,
     misses=value_misses("looker", "{{ln:24}}"))
semi("mailchimp-api-key", "mailchimp-api-key", "mailchimp", "{{hex:32}}-us20",
     extra=["mailchimp_api_key: {{hex:32}}-us18", 'MAILCHIMPE_KEY = "{{hex:32}}-us18"'])
semi("mailgun-private-api-token", "mailgun-api-key", "mailgun", "key-{{hex:32}}")
semi("mailgun-pub-key", "mailgun-api-key", "mailgun", "pubkey-{{hex:32}}", negs=False,
     misses=value_misses("mailgun", "pubkey-{{hex:32}}", alphabet=True))
semi("mailgun-signing-key", "mailgun-api-key", "mailgun", "{{hex:32}}-{{hex:8}}-{{hex:8}}",
     negs=False, misses=value_misses("mailgun", "{{hex:32}}-{{hex:8}}-{{hex:8}}", alphabet=True,
                                     bad=["{{hex:32}}-{{hex:8}}"]))
semi("mapbox-api-token", "mapbox-api-token", "mapbox", "pk.{{ln:60}}.{{ln:22}}")
semi("mattermost-access-token", "mattermost-token", "mattermost", "{{ln:26}}")
token("maxmind-license-key", "maxmind-license-key", "maxmind", "{{an:6}}_{{an:29}}_mmk",
      fps=["the key ends in _mmk and is 40 characters long"])
semi("messagebird-api-token", "messagebird-api-token", "messagebird", "{{ln:25}}",
     idents=["message-bird", "message_bird"])
semi("messagebird-client-id", "messagebird-client-id", "MessageBird", UUID_UP,
     extra=['const MessageBirdClientID = "' + UUID_UP + '"'], negs=False,
     misses=value_misses("MessageBird", UUID_UP, alphabet=True))
rule("microsoft-teams-webhook", "microsoft-teams-webhook", [
    "https://mycompany.webhook.office.com/webhookb2/{{ln:8}}-{{ln:4}}-{{ln:4}}-{{ln:4}}-{{ln:12}}@{{ln:8}}-{{ln:4}}-{{ln:4}}-{{ln:4}}-{{ln:12}}/IncomingWebhook/{{ln:32}}/{{ln:8}}-{{ln:4}}-{{ln:4}}-{{ln:4}}-{{ln:12}}",
    'TEAMS_WEBHOOK="https://acme.webhook.office.com/webhookb2/' + UUID + "@" + UUID + "/IncomingWebhook/{{hex:32}}/" + UUID + '"',
], ["https://acme.webhook.office.com/webhookb2/ is the base address of incoming webhooks"])
semi("netlify-access-token", "netlify-token", "netlify", "{{lne:43}}", bad="{{lne:47}}")
semi("new-relic-browser-api-token", "new-relic-insert-key", "new-relic", "NRJS-{{hex:19}}")
semi("new-relic-insert-key", "new-relic-insert-key", "new-relic", "NRII-{{hex:32}}", negs=False,
     misses=value_misses("new_relic", "NRII-{{hex:32}}", bad=["NRI-{{hex:32}}"])
     + prefix_misses("new_relic", "NRII-", "{{hex:32}}"))
semi("new-relic-user-api-id", "new-relic-user-api-id", "new-relic", "{{ln:64}}", negs=False,
     misses=value_misses("new_relic", "{{ln:64}}"),
     idents=["newrelic", "new_relic"])
semi("new-relic-user-api-key", "new-relic-user-key", "new-relic", "NRAK-{{ln:27}}", negs=False,
     misses=value_misses("new_relic", "NRAK-{{ln:27}}")
     + prefix_misses("new_relic", "NRAK-", "{{ln:27}}"))
rule("notion-api-token", "notion-token", [
    "ntn_{{d:11}}{{an:35}}",
    'NOTION_TOKEN="ntn_{{d:11}}{{an:35}}"',
] + few("notion", "ntn_{{d:11}}{{an:35}}"),
    ["ntn_12345678901", "ntn_123456789012345678901234567890123456789012345678901234567890",
     "ntn_12345678901abc"])
token("npm-access-token", "npm-access-token", "npmAccessToken", "npm_{{ln:36}}", prefix="npm_",
      short="{{ln:20}}")
rule("nuget-config-password", "generic-password", [
    '<add key="Password" value="Cleartext{{an:9}}" />',
    '<add key="ClearTextPassword" value="Cleartext{{an:9}}" />',
    '<add key="ClearTextPassword" value="TestSource{{an:8}}" />',
    '<add key="ClearTextPassword" value="TestSource-{{an:8}}" />',
    '<add key="ClearTextPassword" value="TestSource%{{an:8}}" />',
    '<packageSourceCredentials>\n  <acme>\n    <add key="Username" value="ci" />\n    <add key="ClearTextPassword" value="{{an:20}}" />\n  </acme>\n</packageSourceCredentials>',
], ['<add key="ClearTextPassword" value="XXXXXXXXXXX" />',
    '<add key="ClearTextPassword" value="abc" />',
    '<add key="ClearTextPassword" value="%TestSourcePassword%" />'])
semi("nytimes-access-token", "nytimes-access-token", "nytimes", "{{ln:32}}",
     idents=["newyorktimes"])
rule("octopus-deploy-api-key", "octopus-deploy-api-key", [
    'octopus_api_token = "API-{{AN:26}}"',
    'set apikey="API-{{AN:26}}"',
] + few("octopus", "API-{{AN:26}}"), [
    'msgstr "GSSAPI-VIRHEKAPSELOINTIMERKKIJONO."',
    "https://sonarcloud.io/api/project_badges/measure?project=Garden-Coin_API-CalculadoraDeInvestimentos&metric=alert_status",
    "https://fog-ringer-f42.notion.site/API-{{HEX:32}}",
    '<iframe src="./archive/gifs/api-{{hex:26}}.gif"> </iframe>'])
semi("okta-access-token", "okta-api-token", "okta", "00{{w:40}}",
     extra=['"oktaApiToken": "00{{b64u:40}}",', '\t\t\tvar OktaApiToken = "00{{b64u:40}}";'],
     fps=["oktaKey = 00000000000000000000000000000000000TUVWXYZ",
          "rookTable = 00{{an:40}}"])
rule("openai-api-key", "openai-api-key", forms("openaiApiKey", "sk-{{ln:20}}T3BlbkFJ{{ln:20}}") + [
    "sk-proj-{{b64u:74}}T3BlbkFJ{{b64u:74}}",
    "sk-proj-{{b64u:58}}T3BlbkFJ{{b64u:58}}",
    "sk-svcacct-{{b64u:74}}T3BlbkFJ{{b64u:74}}",
    "sk-admin-{{b64u:58}}T3BlbkFJ{{b64u:58}}",
], ["the prefix sk-proj- is followed by the key body",
    "OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"])
token("openshift-user-token", "openshift-user-token", "oc", "sha256~{{b64u:43}}",
      extra=["Authorization: Bearer sha256~{{b64u:43}}",
             "oc login --token=sha256~{{b64u:43}} ", "sha256~{{b64u:43}}"],
      fps=['--set kraken.kubeconfig.token.token="sha256~XXXXXXXXXX_PUT_YOUR_TOKEN_HERE_XXXXXXXXXXXX" \\',
           "oc login --token=sha256~_xxxxxx_xxxxxxxxxxxxxxxxxxxxxx-xxxxxxxxxx-X \\\n    --server=https://api.acme.io:6443"])
token("perplexity-api-key", "perplexity-api-key", "perplexity", "pplx-{{an:48}}",
      fps=["PERPLEXITY_API_KEY=pplx-" + "x" * 48])
rule("pkcs12-file", None, [], [], reason="a path rule (`*.p12`, `*.pfx`): those files are binary, "
     "so devprojex never returns their content; there is no text to redact")
semi("plaid-api-token", "plaid-access-token", "plaid", "access-sandbox-" + UUID,
     extra=few("plaid", "access-production-" + UUID))
semi("plaid-client-id", "plaid-client-id", "plaid", "{{an:24}}")
semi("plaid-secret-key", "plaid-secret-key", "plaid", "{{ln:30}}", negs=False,
     misses=value_misses("plaid", "{{ln:30}}"))
token("planetscale-api-token", "planetscale-token", "planetScale", "pscale_tkn_{{lne:43}}",
      extra=few("planetScale", "pscale_tkn_{{lne:32}}") + few("planetScale", "pscale_tkn_{{lne:64}}"),
      misses=value_misses("planetscale", "pscale_tkn_{{lne:43}}", lengths="range",
                          bad=["pscale_tkn_{{lne:20}}", "pscale_key_{{ln:43}}"])
      + prefix_misses("planetscale", "pscale_tkn_", "{{lne:43}}"))
token("planetscale-oauth-token", "planetscale-token", "planetScale", "pscale_oauth_{{lne:43}}",
      extra=few("planetScale", "pscale_oauth_{{lne:32}}"),
      misses=value_misses("planetscale", "pscale_oauth_{{lne:43}}", lengths="range",
                          bad=["pscale_oauth_{{lne:20}}", "pscale_oidc_{{ln:43}}"])
      + prefix_misses("planetscale", "pscale_oauth_", "{{lne:43}}"))
token("planetscale-password", "planetscale-token", "planetScale", "pscale_pw_{{lne:43}}",
      extra=few("planetScale", "pscale_pw_{{lne:64}}"),
      misses=value_misses("planetscale", "pscale_pw_{{lne:43}}", lengths="range",
                          bad=["pscale_pw_{{lne:20}}", "pscale_pwd_{{ln:43}}"])
      + prefix_misses("planetscale", "pscale_pw_", "{{lne:43}}"))
token("postman-api-token", "postman-api-key", "postmanAPItoken", "PMAK-{{hex:24}}-{{hex:34}}",
      prefix="PMAK-", short="{{hex:24}}")
token("prefect-api-token", "prefect-api-key", "api-token", "pnu_{{an:36}}",
      fps=['PREFECT_API_KEY = "pnu_' + "X" * 36 + '"'])
rule("private-key", "private-key", [
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQD{{b64:13}}\n{{b64:20}}=\n-----END PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpQIBAAKCAQEA{{b64:48}}\n{{b64:52}}=\n-----END RSA PRIVATE KEY-----\n",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQWGBG{{b64:58}}\n=8xQN\n-----END PGP PRIVATE KEY BLOCK-----",
], ["-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----",
    "-----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY-----"])
rule("privateai-api-token", "privateai-api-token", [
    'privateai_api_token = "{{ln:32}}"'] + few("private_ai", "{{ln:32}}") + few("private-ai", "{{ln:32}}"),
    ['const privateaiToken = "' + "a" * 32 + '";'] + semi_negatives("privateai", "{{ln:32}}"))
token("pulumi-api-token", "pulumi-token", "pulumi-api-token", "pul-{{hex:40}}",
      fps=['<img src="./assets/vipul-{{hex:64}}.png" alt="" class="w-16 h-16 rounded-full">'])
token("pypi-upload-token", "pypi-token", "pypi", "pypi-AgEIcHlwaS5vcmc{{hex:32}}{{hex:32}}",
      prefix="pypi-AgEIcHlwaS5vcmc", short="{{hex:20}}")
semi("rapidapi-access-token", "rapidapi-access-token", "rapidapi", "{{lnx:50}}")
token("readme-api-token", "readme-api-key", "api-token", "rdme_{{ln:70}}",
      fps=["const API_KEY = 'rdme_" + "X" * 70 + "';"])
token("rubygems-api-token", "rubygems-api-key", "rubygemsAPIToken", "rubygems_{{hex:48}}",
      prefix="rubygems_", short="{{hex:20}}")
token("scalingo-api-token", "scalingo-token", "scalingo", "tk-us-{{lnx:48}}",
      extra=['scalingo_api_token = "tk-us-{{lnx:48}}"'], prefix="tk-us-", short="{{ln:20}}")
semi("sendbird-access-id", "sendbird-access-id", "sendbird", UUID)
semi("sendbird-access-token", "sendbird-access-token", "sendbird", "{{hex:40}}", negs=False,
     misses=value_misses("sendbird", "{{hex:40}}", alphabet=True))
token("sendgrid-api-token", "sendgrid-api-key", "sengridAPIToken", "SG.{{lne:66}}",
      extra=["SENDGRID_API_KEY=SG.{{b64u:22}}.{{b64u:43}}"], prefix="SG.", short="{{ln:20}}")
token("sendinblue-api-token", "brevo-api-key", "sendinblue", "xkeysib-{{hex:64}}-{{ln:16}}",
      prefix="xkeysib-", short="{{hex:30}}")
semi("sentry-access-token", "sentry-access-token", "sentry", "{{hex:64}}")
SENTRY_JSON = "eyJpYXQiOjE2{{b64:30}}LCJyZWdpb25fdXJsIjoi{{b64:40}}"
token("sentry-org-token", "sentry-token", "sentry", "sntrys_" + SENTRY_JSON + "_{{b64:43}}",
      extra=[" sntrys_" + SENTRY_JSON + "=_{{an:43}}",
             "sntrys_" + SENTRY_JSON + "_{{an:43}}",
             "<token>sntrys_" + SENTRY_JSON + "_{{an:43}}</token>",
             "https://acme.io?token=sntrys_" + SENTRY_JSON + "_{{an:43}}&other=stuff"],
      fps=["sntrys_ is the prefix of Sentry organization tokens"])
token("sentry-user-token", "sentry-token", "sentry", "sntryu_{{hex:64}}",
      fps=["sntryu_{{hex:40}} was cut short", "sntryu_" + "a" * 64])
token("settlemint-application-access-token", "settlemint-token", "settlemintToken",
      "sm_aat_{{an:16}}", fps=['nonMatchingLabel := "sm_aat_{{an:10}}"'])
token("settlemint-personal-access-token", "settlemint-token", "settlemintToken", "sm_pat_{{an:16}}",
      fps=['nonMatchingLabel := "sm_pat_{{an:10}}"'])
token("settlemint-service-access-token", "settlemint-token", "settlemintToken", "sm_sat_{{an:16}}",
      fps=['nonMatchingLabel := "sm_sat_{{an:10}}"'])
token("shippo-api-token", "shippo-token", "shippo", "shippo_live_{{hex:40}}",
      extra=few("shippo", "shippo_test_{{hex:40}}"), prefix="shippo_live_", short="{{hex:20}}")
token("shopify-access-token", "shopify-access-token", "shopify", "shpat_{{hex:32}}",
      misses=value_misses("shopify", "shpat_{{hex:32}}", alphabet=True)
      + prefix_misses("shopify", "shpat_", "{{hex:32}}"))
token("shopify-custom-access-token", "shopify-custom-app-token", "shopify", "shpca_{{hex:32}}",
      misses=value_misses("shopify", "shpca_{{hex:32}}", alphabet=True)
      + prefix_misses("shopify", "shpca_", "{{hex:32}}"))
token("shopify-private-app-access-token", "shopify-private-app-token", "shopify", "shppa_{{hex:32}}",
      misses=value_misses("shopify", "shppa_{{hex:32}}", alphabet=True)
      + prefix_misses("shopify", "shppa_", "{{hex:32}}"))
token("shopify-shared-secret", "shopify-shared-secret", "shopify", "shpss_{{hex:32}}",
      misses=value_misses("shopify", "shpss_{{hex:32}}", alphabet=True)
      + prefix_misses("shopify", "shpss_", "{{hex:32}}"))
rule("sidekiq-secret", "sidekiq-secret",
     few("BUNDLE_ENTERPRISE__CONTRIBSYS__COM", "{{hex:8}}:{{hex:8}}")
     + few("BUNDLE_GEMS__CONTRIBSYS__COM", "{{hex:8}}:{{hex:8}}") + [
         "BUNDLE_ENTERPRISE__CONTRIBSYS__COM: {{hex:8}}:{{hex:8}}",
         "export BUNDLE_ENTERPRISE__CONTRIBSYS__COM={{hex:8}}:{{hex:8}}",
         "export BUNDLE_ENTERPRISE__CONTRIBSYS__COM = {{hex:8}}:{{hex:8}}",
         'BUNDLE_GEMS__CONTRIBSYS__COM: "{{hex:8}}:{{hex:8}}"',
         'export BUNDLE_GEMS__CONTRIBSYS__COM="{{hex:8}}:{{hex:8}}"',
         "export BUNDLE_ENTERPRISE__CONTRIBSYS__COM={{hex:8}}:{{hex:8}};",
         "export BUNDLE_ENTERPRISE__CONTRIBSYS__COM={{hex:8}}:{{hex:8}} && echo 'hello world'",
     ], ["BUNDLE_GEMS__CONTRIBSYS__COM is set on the build server, not in the repository"])
rule("sidekiq-sensitive-url", "url-credentials", [
    "https://{{hex:8}}:{{hex:8}}@gems.contribsys.com/",
    "https://{{hex:8}}:{{hex:8}}@gems.contribsys.com",
    "https://{{hex:8}}:{{hex:8}}@enterprise.contribsys.com/",
    "http://{{hex:8}}:{{hex:8}}@enterprise.contribsys.com#heading1",
    "http://{{hex:8}}:{{hex:8}}@enterprise.contribsys.com?param1=true&param2=false",
    "http://{{hex:8}}:{{hex:8}}@enterprise.contribsys.com:80/path?param1=true&param2=false#heading1",
], ["source 'https://gems.contribsys.com/' do"])
token("slack-app-token", "slack-app-token", "slack", "xapp-1-A{{AN:10}}-{{d:13}}-{{hex:64}}",
      extra=['"token2": "xapp-1-{{AN:11}}-{{d:13}}-{{hex:64}}"'],
      # the app id is upper case and the other parts digits: letters or a missing part miss
      misses=value_misses("slack", "xapp-1-A{{AN:10}}-{{d:13}}-{{hex:64}}", lengths="range",
                          bad=["xapp-1-A{{AN:10}}-{{d:13}}", "xapp-1-a{{lo:10}}-{{d:13}}-{{hex:64}}",
                               "xapp-x-A{{AN:10}}-{{d:13}}-{{hex:64}}"])
      + prefix_misses("slack", "xapp-", "1-A{{AN:10}}-{{d:13}}-{{hex:64}}"))
rule("slack-bot-token", "slack-bot-token", forms("bot", "xoxb-{{d:12}}-{{d:13}}-{{an:24}}") + [
    '"bot_token1": "xoxb-{{d:12}}-{{d:13}}-{{an:24}}"',
    '"bot_token3": "xoxb-{{d:13}}-{{d:13}}-{{an:24}}"',
], ["xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx", "xoxb-xxx", "xoxb-12345-abcd234",
    "xoxb-xoxb-my-bot-token"])
rule("slack-config-access-token", "slack-config-token",
     forms("access", "xoxe.xoxp-1-Mi0y{{an:159}}") + [
         '"access_token3": "xoxe.xoxp-1-{{an:163}}"',
         '"access_token4": "xoxe.xoxb-1-Mi0y{{an:160}}"',
         '"access_token5": "xoxe.xoxb-1-{{an:165}}"',
     ], ["xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere", "xoxe.xoxp-1-RANDOMSTRINGHERE",
         "xoxe.xoxp-1-initial"])
rule("slack-config-refresh-token", "slack-config-token",
     forms("refresh", "xoxe-1-My0x{{an:142}}") + ['"refresh_token3": "xoxe-1-{{an:146}}"'],
     ["xoxe-1-xxx", "XOxE-RROAmw, Home and Garden, 5:24, 20120323"])
rule("slack-legacy-bot-token", "slack-legacy-bot-token",
     forms("slack", "xoxb-{{d:12}}-{{an:22}}") + [
         '"bot_token2": "xoxb-{{d:12}}-{{an:24}}"',
         '"bot_token4": "xoxb-{{d:12}}-{{an:19}}"',
         '"bot_token9": "xoxb-{{d:8}}-{{an:20}}"',
         '"bot_token10": "xoxb-{{d:10}}-{{an:24}}',
         '"bot_token11": "xoxb-{{d:12}}-{{an:23}}',
     ], ["xoxb-xxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx", "xoxb-Slack_BOT_TOKEN", "xoxb-abcdef-abcdef"])
rule("slack-legacy-token", "slack-legacy-token",
     forms("slack", "xoxs-{{d:12}}-{{d:9}}-{{d:10}}-{{hex:10}}") + [
         '"access_token1": "xoxs-{{d:10}}-{{d:10}}-{{d:10}}-{{hex:10}}"',
         '"access_token3": "xoxs-{{d:12}}-{{d:12}}-{{d:12}}-{{hex:64}}"',
         '"access_token7": "xoxo-{{d:6}}-{{d:6}}-{{d:6}}-{{hex:18}}"',
     ], ["https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg",
         "https://lh3.googleusercontent.com/-tWXjX3LUD6w/Ua4La_N5E2I/AAAAAAAAACg/qcm19xbEYa4/s640/EXO-XOXO-teaser-exo-k-34521098-720-516.jpg"])
rule("slack-legacy-workspace-token", "slack-legacy-token",
     forms("slack", "xoxa-2-{{d:9}}-{{d:11}}-{{d:13}}-{{hex:18}}") + [
         '"access_token1": "xoxa-{{d:1}}-{{ln:12}}',
         '"access_token2": "xoxa-{{ln:12}}',
         '"refresh_token1": "xoxr-{{d:1}}-{{ln:12}}',
         '"refresh_token2": "xoxr-{{ln:12}}',
     ], ["https://github.com/xoxa-nyc/xoxa-nyc.github.io/blob/master/README.md"])
rule("slack-user-token", "slack-user-token",
     forms("user", "xoxp-{{d:11}}-{{d:10}}-{{d:11}}-{{hex:32}}") + [
         '"user_token5": "xoxp-{{d:13}}-{{d:13}}-{{d:13}}-{{hex:32}}"',
         '"url_private": "https:\\/\\/files.slack.com\\/files-pri\\/T04MCQMEXQ9-F04MAA1PKE3\\/image.png?t=xoxe-{{d:13}}-{{d:13}}-{{d:13}}-{{hex:32}}"',
     ], ["https://docs.google.com/document/d/1W7KCxOxP-1Fy5EyF2lbJGE2WuKmu5v0suYqoHas1jRM",
         '"label1": "xoxp-1234567890"',
         '"token2": "xoxp-XXXXXXXXXX-XXXXXXXXXX-XXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"',
         '"label3": "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"',
         '"token4": "xoxp-{{d:12}}-{{d:12}}-{{d:12}}-####################"'])
rule("slack-webhook-url", "slack-webhook-url", [
    "hooks.slack.com/services/{{an:44}}",
    "http://hooks.slack.com/services/{{an:45}}",
    "https://hooks.slack.com/services/{{an:46}}",
    "http://hooks.slack.com/services/T{{AN:8}}/B{{AN:8}}/{{an:24}}",
    "hooks.slack.com/workflows/{{an:44}}",
    "https://hooks.slack.com/workflows/T{{AN:10}}/A{{AN:10}}/{{d:18}}/{{an:24}}",
    "https://hooks.slack.com/triggers/{{an:56}}",
], ["https://hooks.slack.com/services/ is where incoming webhooks post"])
semi("snyk-api-token", "snyk-token", "snyk", UUID_UP,
     extra=['const SNYK_TOKEN = "' + UUID_UP + '"', 'const SNYK_KEY = "' + UUID_UP + '"',
            'SNYK_TOKEN := "' + UUID_UP + '"', 'SNYK_TOKEN ::= "' + UUID_UP + '"',
            'SNYK_TOKEN :::= "' + UUID_UP + '"', 'SNYK_TOKEN ?= "' + UUID_UP + '"',
            'SNYK_API_KEY ?= "' + UUID_UP + '"', 'SNYK_API_TOKEN = "' + UUID_UP + '"',
            'SNYK_OAUTH_TOKEN = "' + UUID_UP + '"'])
semi("sonar-api-token", "sonarqube-token", "sonar", "{{AN:40}}",
     extra=['const SONAR_LOGIN = "{{AN:40}}"', 'SONAR_LOGIN := "{{AN:40}}"',
            'SONAR.LOGIN ::= "{{AN:40}}"', 'SONAR.LOGIN :::= "{{AN:40}}"', 'SONAR.LOGIN ?= "{{AN:40}}"',
            'const SONAR_TOKEN = "squ_{{AN:40}}"', 'SONAR_LOGIN := "sqp_{{AN:40}}"',
            'SONAR.TOKEN = "sqa_{{AN:40}}"'])
rule("sourcegraph-access-token", "sourcegraph-token", [
    "sgp_{{HEX:16}}_{{hex:40}}",
    "sourcegraph: {{hex:20}}{{HEX:20}}",
    "sgp_{{HEX:40}}",
    "sgp_local_{{hex:40}}",
] + few("sourcegraph", "sgp_{{hex:40}}"), [
    "sgp_5555555dAAAAA7777777CcccCFaaaaaaaaaaaaaa",
    "sgp_local_{{hex:4}}G{{hex:35}}",
    "sgp_{{hex:14}}!{{hex:25}}",
    "sgp_{{hex:20}}_{{hex:40}}",
])
rule("square-access-token", "square-access-token", forms("square", "EAAA{{b64u:60}}") + [
    "ARG token=sq0atp-{{an:22}}",
    "ARG token=EAAA{{b64u:60}}",
] + few("square", "sq0atp-{{b64u:30}}"),
    ["aws-cli@sha256:eaaa{{hex:60}}"])
semi("squarespace-access-token", "squarespace-access-token", "squarespace", UUID)
token("stripe-access-token", ("stripe-secret-key", "stripe-restricted-key"), "stripe",
      "sk_test_{{an:30}}",
      extra=few("stripe", "sk_prod_{{an:99}}") + ["sk_test_51{{an:97}}", "rk_prod_51{{an:97}}"],
      fps=['nonMatchingLabel := "task_test_{{an:30}}"'])
rule("sumologic-access-id", "sumologic-access-id", forms("sumo", "su{{an:12}}") + [
    'sumologic.accessId = "su{{an:12}}"',
    'sumologic_access_id = "su{{an:12}}"',
    'export SUMOLOGIC_ACCESSID="su{{an:12}}"',
    'SUMO_ACCESS_ID = "su{{an:12}}"',
], ["- (NSNumber *)sumOfProperty:(NSString *)property;",
    "- (NSInteger)sumOfValuesInRange:(NSRange)range;",
    "+ (unsigned char)byteChecksumOfData:(id)arg1;",
    "sumOfExposures = sumOfExposures;",
    ".si-sumologic.si--color::before { color: #000099; }",
    "/// Based on the SumoLogic keyword syntax:",
    'sumologic_access_id         = ""',
    "SUMOLOGIC_ACCESSID: ${SUMOLOGIC_ACCESSID}",
    "export SUMOLOGIC_ACCESSID=XXXXXXXXXXXXXX",
    "sumObj = su{{an:12}}"])
rule("sumologic-access-token", "sumologic-access-token", forms("sumo", "{{ln:64}}") + [
    'export SUMOLOGIC_ACCESSKEY="{{an:64}}"',
    "SUMO_ACCESS_KEY: {{an:64}}",
    "SUMOLOGIC_ACCESSKEY: {{an:64}}",
    'sumo_access_key = "{{an:64}}"',
], ["#   SUMO_ACCESS_KEY=" + "x" * 64,
    "-e SUMO_ACCESS_KEY=`etcdctl get /sumologic_secret`",
    "SUMO_ACCESS_KEY={SumoAccessKey}",
    "SUMO_ACCESS_KEY=${SUMO_ACCESS_KEY:=$2}",
    'sumo_access_key   = "<SUMOLOGIC ACCESS KEY>"',
    "SUMO_ACCESS_KEY: AbCeFG123",
    "sumOfExposures = {{an:64}};"])
TG = "{{d:8}}:A{{lnx:34}}"
rule("telegram-bot-api-token", "telegram-bot-token",
     forms("telegram", TG) + few("telegram", "{{d:5}}:A{{lnx:34}}") + few("telegram", "{{d:16}}:A{{lnx:34}}")
     + ["TELEGRAM_API_TOKEN = " + TG, "telegram bot: " + TG], [
         'telegram_chat_ref = "{{d:4}}:A{{lnx:34}}"',
         'telegram_chat_ref = "{{d:17}}:A{{lnx:34}}"',
         'telegram_chat_ref = "<xsd:element name=\\"AgencyIdentificationCode\\" type=\\"clm{{d:5}}:AgencyIdentificationCodeContentType\\"/>"',
         'telegram_chat_ref = "token:\\"clm{{d:5}}:AgencyIdentificationCodeContentType\\""',
         'telegram_chat_ref = "telegram_chat_ref = \\"{{d:8}}:Ahello{{lnx:34}}\\""',
         'telegram_chat_ref = "telegram_chat_ref = \\"{{d:8}}:A-some-other-thing-{{lnx:34}}\\""',
         'telegram_chat_ref = "telegram_chat_ref = \\"{{d:8}}:A{{lnx:34}}hello\\""',
     ])
semi("travisci-access-token", "travis-ci-token", "travis", "{{ln:22}}")
token("twilio-api-key", "twilio-api-key", "twilio", "SK{{hex:32}}",
      misses=value_misses("twilio", "SK{{hex:32}}", alphabet=True, bad=["AC{{hex:32}}"])
      + prefix_misses("twilio", "SK", "{{hex:32}}"))
semi("twitch-api-token", "twitch-api-token", "twitch", "{{ln:30}}")
semi("twitter-access-secret", "twitter-api-secret", "twitter", "{{ln:45}}", negs=False,
     misses=value_misses("twitter", "{{ln:45}}"))
semi("twitter-access-token", "twitter-access-token", "twitter", "{{d:20}}-{{an:30}}", negs=False,
     misses=value_misses("twitter", "{{d:20}}-{{an:30}}", lengths="range", alphabet=True,
                         bad=["{{d:10}}-{{an:30}}", "{{d:20}}-{{an:12}}"]))
semi("twitter-api-key", "twitter-api-key", "twitter", "{{ln:25}}")
semi("twitter-api-secret", "twitter-api-secret", "twitter", "{{ln:50}}", negs=False,
     misses=value_misses("twitter", "{{ln:50}}"))
semi("twitter-bearer-token", "twitter-bearer-token", "twitter", "AAAAAAAAAAAAAAAAAAAAA{{an:90}}",
     negs=False,
     misses=value_misses("twitter", "AAAAAAAAAAAAAAAAAAAAA{{an:90}}", lengths="range",
                         bad=["AAAAAAAAAAAAAAAAAAAAA{{an:20}}", "AAAAAAAAAA{{an:90}}"]))
token("typeform-api-token", "typeform-token", "typeformAPIToken", "tfp_{{lne:59}}", prefix="tfp_",
      short="{{ln:20}}")
token("vault-batch-token", "hashicorp-vault-token", "vault", "hvb.{{lnx:138}}",
      extra=["hvb.AAAAAQ{{b64u:200}}"],
      misses=value_misses("vault", "hvb.{{lnx:138}}", lengths="min", bad=["hvb.{{lnx:90}}"])
      + prefix_misses("vault", "hvb.", "{{lnx:138}}"))
rule("vault-service-token", ("hashicorp-vault-token", "hashicorp-vault-legacy-token"), [
    'vault_api_token = "s.{{d:1}}{{an:23}}"',
    "token: s.{{an:24}}",
    'vault_api_token = "hvs.{{d:1}}{{b64u:89}}"',
    '-vaultToken hvs.CAESI{{b64u:110}}"',
], ["  credentials: new AWS.SharedIniFileCredentials({ profile: '<YOUR_PROFILE>' })",
    "INFO 4 --- [           main] o.s.b.f.s.DefaultListableBeanFactory     : Overriding bean definition for bean",
    "s." + "x" * 24, "s.THISSTRINGISALLUPPERCASE", "s.thisstringisalllowercase",
    "s.AcceptanceTimeoutSeconds ", "s.makeKubeConfigController = args",
    "hvs." + "x" * 90])
semi("yandex-access-token", "yandex-iam-token", "yandex", "t1.{{b64u:30}}.{{b64u:86}}", negs=False,
     misses=value_misses("yandex", "t1.{{ln:30}}.{{ln:86}}", lengths="min",
                         bad=["t1.{{ln:30}}", "t2.{{ln:30}}.{{ln:86}}"])
     + prefix_misses("yandex", "t1.", "{{ln:30}}.{{ln:86}}"))
semi("yandex-api-key", "yandex-api-key", "yandex", "AQVN{{b64u:36}}", negs=False,
     misses=value_misses("yandex", "AQVN{{ln:36}}", lengths="range",
                         bad=["AQVN{{ln:30}}", "AQVN{{ln:40}}"])
     + prefix_misses("yandex", "AQVN", "{{ln:36}}"))
semi("yandex-aws-access-token", "yandex-aws-access-token", "yandex", "YC{{b64u:38}}")
semi("zendesk-secret-key", "zendesk-token", "zendesk", "{{ln:40}}")

# --------------------------------------------------------------------------- shapes of issue 19
SHAPES_POS = []
SHAPES_NEG = []


def shape(name, family, text):
    SHAPES_POS.append((name, family, text))


def no_shape(name, family, text):
    SHAPES_NEG.append((name, family, text))


# 1. token boundaries after escapes and percent-encodings
TOKENS = {
    "aws": "AKIA{{b32:16}}",
    "ghp": "ghp_{{an:36}}",
    "github-pat": "github_pat_{{an:22}}_{{an:59}}",
    "stripe": "sk_live_{{an:32}}",
    "openai": "sk-proj-{{b64u:74}}T3BlbkFJ{{b64u:74}}",
    "anthropic": "sk-ant-api03-{{b64u:93}}AA",
    "gcp": "AIza{{b64u:35}}",
    "slack": "xoxb-{{d:12}}-{{d:13}}-{{an:24}}",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJ{{b64u:40}}.{{b64u:43}}",
}
ESCAPES = {
    "newline": '"log": "started\\n{t}\\nready"',
    "crlf": "line one\\r\\n{t}\\r\\nline three",
    "tab": '"row": "key\\t{t}\\tend"',
    "quote": '{\\"token\\":\\"{t}\\"}',
    "unicode-quote": '{\\u0022token\\u0022:\\u0022{t}\\u0022}',
    "pct-equals": "GET /callback?state=1&token%3D{t}%26next%3D%2F HTTP/1.1",
    "pct-amp": "redirect=%2Fhome%26{t}%26x%3D1",
    "pct-quote": "payload=%7B%22token%22%3A%22{t}%22%7D",
    "pct-comma": "ids=a%2C{t}%2Cb",
}
for tname, tok in TOKENS.items():
    for ename, form in ESCAPES.items():
        shape(f"escape/{ename}/{tname}", "escaped-boundary", form.replace("{t}", tok))
# escaped JSON config with context rules and generic keys
shape("escape/json-in-json/heroku", "escaped-boundary",
      '"settings": "{\\"heroku_api_key\\": \\"' + UUID + '\\", \\"region\\": \\"eu\\"}"')
shape("escape/json-in-json/password", "escaped-boundary",
      '"env": "{\\"DB_PASSWORD\\":\\"{{an:18}}\\"}"')
shape("escape/har/authorization", "escaped-boundary",
      '{"name": "Authorization", "value": "Bearer ' + JWT + '"}, {"name": "cookie", "value": "theme=\\"dark\\""}')
shape("escape/tfstate/access-key", "escaped-boundary",
      '"attributes": {"secret": "{{b64:40}}", "id": "AKIA{{b32:16}}", "user_data": "#!/bin/sh\\nexport GITHUB_TOKEN=ghp_{{an:36}}\\n"}')
shape("escape/access-log/token", "escaped-boundary",
      '203.0.113.9 - - [01/May/2024:10:00:00 +0000] "GET /hook?url=https%3A%2F%2Fapi.acme.io%3Ftoken%3Dghp_{{an:36}} HTTP/1.1" 200 512')
for ename in ["newline", "tab", "pct-equals", "pct-comma"]:
    no_shape(f"escape/{ename}/no-token", "escaped-boundary",
             ESCAPES[ename].replace("token", "page").replace("{t}", "build finished"))
no_shape("escape/newline/placeholder", "escaped-boundary", '"log": "token\\nghp_' + "x" * 36 + '\\n"')
no_shape("escape/pct/placeholder", "escaped-boundary", "next=%2F&token%3D%3Cyour-token%3E")

# 2. encoded keys
PEM_B64_KEY = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF{{b64:2100}}"
PEM_B64_CERT = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUR{{b64:1500}}"
shape("encoded/kubeconfig", "encoded-keys",
      "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: " + PEM_B64_CERT
      + "\n    server: https://10.0.0.1:6443\n  name: prod\nusers:\n- name: admin\n  user:\n    client-certificate-data: "
      + PEM_B64_CERT + "=\n    client-key-data: " + PEM_B64_KEY + "==")
shape("encoded/kubeconfig-key-only", "encoded-keys", "    client-key-data: " + PEM_B64_KEY)
shape("encoded/secret-tls", "encoded-keys",
      "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata:\n  name: web-tls\ndata:\n  tls.crt: "
      + PEM_B64_CERT + "\n  tls.key: " + PEM_B64_KEY)
shape("encoded/env", "encoded-keys", "SERVICE_KEY_B64=" + PEM_B64_KEY)
shape("encoded/json", "encoded-keys", '{"key": "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t{{b64:1600}}"}')
shape("encoded/openssh", "encoded-keys", "deploy_key: LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0K{{b64:1200}}")
for n in (40, 400):
    shape(f"encoded/jwt-base64/{n}", "encoded-keys", "session_blob: {{jwt64:%d}}" % n)
    shape(f"encoded/jwt-base64u/{n}", "encoded-keys", "SESSION={{jwt64u:%d}}" % n)
no_shape("encoded/short-b64", "encoded-keys", "marker: LS0tLS1CRUdJTi0= is only the start of a header")
no_shape("encoded/base64-text", "encoded-keys", "greeting: SGVsbG8sIHdvcmxkISBUaGlzIGlzIGEgdGVzdC4=")

# 3. long lines
shape("long/jwt-in-bundle", "long-lines",
      "!{{fill:70000}}var t=\"eyJhbGciOiJIUzI1NiJ9.eyJ{{b64u:5000}}.{{b64u:43}}\";{{fill:3000}}")
shape("long/key-in-bundle", "long-lines", "{{fill:80000}};const k='ghp_{{an:36}}';{{fill:80000}}")
shape("long/pem-b64-in-bundle", "long-lines", "{{fill:66000}};x=\"" + PEM_B64_KEY + "\";{{fill:100}}")
shape("long/assignment-far", "long-lines", "{{fill:90000}};stripe_key=\"sk_live_{{an:99}}\";{{fill:90000}}")
no_shape("long/no-secret", "long-lines", "{{fill:70000}};var token=t.next();{{fill:70000}}")

# 4. credential files and command lines, structure kept
shape("file/netrc-line", "credential-files", "machine api.acme.io login deploy password {{an:20}}")
shape("file/netrc-block", "credential-files", "machine git.acme.io\n  login ci-bot\n  password {{an:24}}\n")
shape("file/pgpass", "credential-files", "db.internal:5432:billing:app:{{an:18}}\nlocalhost:*:*:postgres:{{an:14}}")
shape("file/wp-config", "credential-files",
      "define( 'DB_NAME', 'wordpress' );\ndefine( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '{{an:20}}' );\ndefine('AUTH_KEY', '{{b64:40}}|>.{{an:10}}');")
shape("cmd/mysql-p", "credential-files", "mysql -h db -u root -p{{an:14}} billing < dump.sql")
shape("cmd/mysql-password", "credential-files", "mysqldump --user=app --password={{an:16}} --all-databases")
shape("cmd/mysql-quoted", "credential-files", "mysql -uroot -p'{{an:12}}' -e 'show databases'")
shape("cmd/curl-u", "credential-files", "curl -u deploy:{{an:18}} https://ci.acme.io/api/json")
shape("cmd/curl-u-continued", "credential-files", "curl -X POST \\\n  -H 'Content-Type: application/json' \\\n  -u deploy:{{an:18}} \\\n  https://ci.acme.io/api")
shape("cmd/curl-header", "credential-files", "curl -H 'Authorization: token {{an:40}}' https://api.acme.io")
shape("cmd/curl-api-key", "credential-files", 'curl -H "X-Api-Key: {{an:32}}" https://api.acme.io/v1/items')
shape("cmd/docker-login", "credential-files", "docker login -u ci -p {{an:24}} registry.acme.io")
shape("cmd/docker-login-long", "credential-files", "docker login --username ci --password {{an:24}} registry.acme.io")
shape("cmd/sshpass", "credential-files", "sshpass -p {{an:16}} ssh deploy@build.acme.io uptime")
shape("cmd/sshpass-quoted", "credential-files", "sshpass -p '{{an:16}}' scp dist.tgz deploy@build.acme.io:/srv")
shape("file/redis-conf", "credential-files", "bind 127.0.0.1\nport 6379\nrequirepass {{an:32}}\nmasterauth {{an:32}}")
shape("cmd/redis-cli", "credential-files", "redis-cli -h cache.acme.io -a {{an:24}} ping")
shape("file/go-mysql-dsn", "credential-files", 'dsn := "app:{{an:16}}@tcp(db.internal:3306)/billing?parseTime=true"')
shape("file/go-mysql-dsn-env", "credential-files", "MYSQL_DSN=root:{{an:16}}@tcp(127.0.0.1:3306)/app")
shape("file/spring-default", "credential-files", "spring.datasource.password=${DB_PASSWORD:{{an:16}}}")
shape("file/spring-default-yaml", "credential-files", "spring:\n  datasource:\n    password: ${DB_PASSWORD:{{an:16}}}")
shape("file/compose-default", "credential-files", "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-{{an:16}}}")
shape("file/rails-master-key", "credential-files", "{{hex:32}}")
shape("file/rails-master-key-nl", "credential-files", "{{hex:32}}\n")
shape("file/ssh2-key", "credential-files",
      "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nSubject: deploy\nComment: \"2048-bit rsa, deploy@ci\"\n"
      + "\n".join(["{{b64:70}}"] * 6) + "\n{{b64:30}}==\n---- END SSH2 ENCRYPTED PRIVATE KEY ----")
shape("file/nuget", "credential-files",
      '<packageSourceCredentials>\n  <acme>\n    <add key="Username" value="ci" />\n    <add key="ClearTextPassword" value="{{an:18}}" />\n  </acme>\n</packageSourceCredentials>')
shape("file/xml-multiline-password", "credential-files", "<password>\n    {{an:18}}\n</password>")
for text in ["machine api.acme.io login deploy", "# password is read from the keychain",
             "Enter the password below and press enter.",
             "localhost:*:*:postgres:*", "define( 'DB_PASSWORD', getenv('DB_PASSWORD') );",
             "mysql -h db -u root -p billing < dump.sql", "mysql -P 3306 -h db -u app",
             "docker login -u ci --password-stdin registry.acme.io",
             "sshpass -f ~/.pw ssh deploy@build.acme.io",
             "requirepass foobared", "spring.datasource.password=${DB_PASSWORD}",
             "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-}", "curl -u \"$USER:$PASS\" https://ci.acme.io",
             "dsn := fmt.Sprintf(\"%s:%s@tcp(%s)/%s\", user, pass, host, db)",
             "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"deploy\"\n{{b64:64}}\n---- END SSH2 PUBLIC KEY ----",
             "d41d8cd98f00b204e9800998ecf8427e  empty.txt"]:
    no_shape("file/negative", "credential-files", text)


# --------------------------------------------------------------------------- writers


def samples_file(name, samples):
    out = []
    for sid, kind, text in samples:
        assert "\n%%% " not in text and not text.startswith("%%% "), sid
        out.append(f"%%% {sid} {kind}")
        out.append(text)
    (HERE / name).write_text("\n".join(out) + "\n")
    return len(samples)


pos, neg, mapping = [], [], []
for gid, ours, reason, tps, fps in RULES:
    if ours is None:
        mapping.append((gid, "", reason))
        continue
    mapping.append((gid, ",".join(ours), ""))
    for n, t in enumerate(tps):
        pos.append((f"{gid}#{n}", ours[0], t))
    for n, t in enumerate(fps):
        neg.append((f"{gid}#{n}", ours[0], t))
pos += SHAPES_POS
neg += SHAPES_NEG

ids = [m[0] for m in mapping]
assert len(ids) == len(set(ids)), "duplicate gitleaks id"
print("gitleaks rule ids:", len(ids), "mapped:", sum(1 for m in mapping if m[1]))
print("positive.txt", samples_file("positive.txt", pos))
print("negative.txt", samples_file("negative.txt", neg))
(HERE / "mapping.tsv").write_text(
    "gitleaks\tours\treason\n" + "".join(f"{g}\t{o}\t{r}\n" for g, o, r in mapping))

# the docs table
rows = ["| Gitleaks rule id | devprojex rule id |", "|---|---|"]
for g, o, r in mapping:
    cell = ", ".join(f"`{x}`" for x in o.split(",")) if o else f"none: {r}"
    rows.append(f"| `{g}` | {cell} |")
begin, end = "<!-- gitleaks-mapping:begin -->", "<!-- gitleaks-mapping:end -->"
if DOCS.exists():
    doc = DOCS.read_text()
    if begin in doc and end in doc:
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        DOCS.write_text(head + begin + "\n" + "\n".join(rows) + "\n" + end + tail)
        print("docs/redaction.md mapping table updated")
