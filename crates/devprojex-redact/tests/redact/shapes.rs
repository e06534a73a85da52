//! The credential shapes of issue 19, with the exact redacted text: the value goes, the
//! structure (keys, flags, quotes, indentation, line count) stays.

use devprojex_redact::{RedactOptions, Redactor, testgen};

fn redact(text: &str) -> String {
    Redactor::new(RedactOptions::default())
        .redact(text)
        .text
        .into_owned()
}

/// Expand `template` and check that the output is `expected` with every `{}` replaced, in
/// order, by a marker of the rule ids given.
fn check(template: &str, expected: &str, ids: &[&str]) {
    let (text, _) = testgen::expand_tracked(template, 19);
    let mut want = String::new();
    let mut ids = ids.iter();
    for (i, part) in expected.split("{}").enumerate() {
        if i > 0 {
            let id = ids.next().expect("an id per marker");
            want.push_str(&format!("[REDACTED:{id}]"));
        }
        want.push_str(part);
    }
    assert_eq!(redact(&text), want, "input: {text:?}");
}

#[test]
fn tokens_right_after_escapes_and_percent_encodings() {
    check(
        r#""log": "started\nAKIA{{b32:16}}\nready""#,
        r#""log": "started\n{}\nready""#,
        &["aws-access-key-id"],
    );
    check(
        r"line one\r\nghp_{{an:36}}\r\nline three",
        r"line one\r\n{}\r\nline three",
        &["github-pat"],
    );
    check(
        "GET /cb?token%3Dsk_live_{{an:32}}%26next%3D%2F HTTP/1.1",
        "GET /cb?token%3D{}%26next%3D%2F HTTP/1.1",
        &["stripe-secret-key"],
    );
    check(
        r#"{\"token\":\"github_pat_{{an:22}}_{{an:59}}\"}"#,
        r#"{\"token\":\"{}\"}"#,
        &["github-fine-grained-pat"],
    );
    check(
        r"{\u0022key\u0022:\u0022AIza{{b64u:35}}\u0022}",
        r"{\u0022key\u0022:\u0022{}\u0022}",
        &["gcp-api-key"],
    );
    check(
        "ids=a%2Cxoxb-{{d:12}}-{{d:13}}-{{an:24}}%2Cb",
        "ids=a%2C{}%2Cb",
        &["slack-bot-token"],
    );
    // a key between escaped quotes is a key
    check(
        r#""env": "{\"DB_PASSWORD\":\"{{an:18}}\"}""#,
        r#""env": "{\"DB_PASSWORD\":\"{}\"}""#,
        &["generic-password"],
    );
}

#[test]
fn base64_wrapped_keys_and_jwts() {
    check(
        "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF{{b64:2000}}==",
        "    client-key-data: {}",
        &["base64-pem-block"],
    );
    check(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {{b64:24}}\n  .dockercfg: |\n    {{b64:60}}\nstringData:\n  API_KEY: \"{{an:32}}\"",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {}\n  .dockercfg: |\n    {}\nstringData:\n  API_KEY: \"{}\"",
        &[
            "kubernetes-secret",
            "kubernetes-secret",
            "kubernetes-secret",
        ],
    );
    check("session: {{jwt64:80}}", "session: {}", &["jwt-base64"]);
    // base64 that merely starts like an encoded header stays
    let text = testgen::expand("blob: ZXlK{{b64:200}}", 3);
    assert_eq!(redact(&text), text);
}

#[test]
fn rules_see_the_whole_of_a_long_line() {
    let template =
        "{{fill:70000}}var t=\"eyJhbGciOiJIUzI1NiJ9.eyJ{{b64u:5000}}.{{b64u:43}}\";{{fill:500}}";
    let (text, pieces) = testgen::expand_tracked(template, 1);
    let out = redact(&text);
    assert!(out.contains("var t=\"[REDACTED:jwt]\";"));
    assert!(pieces.iter().all(|p| !out.contains(p.as_str())));
}

#[test]
fn credential_files_keep_their_structure() {
    check(
        "machine api.acme.io login deploy password {{an:20}}",
        "machine api.acme.io login deploy password {}",
        &["netrc-password"],
    );
    check(
        "machine git.acme.io\n  login ci\n  password {{an:24}}\n",
        "machine git.acme.io\n  login ci\n  password {}\n",
        &["netrc-password"],
    );
    check(
        "db.internal:5432:billing:app:{{an:18}}",
        "db.internal:5432:billing:app:{}",
        &["pgpass-password"],
    );
    check(
        "define( 'DB_PASSWORD', '{{an:20}}' );",
        "define( 'DB_PASSWORD', '{}' );",
        &["wordpress-config-secret"],
    );
    check(
        "mysql -h db -u root -p{{an:14}} billing",
        "mysql -h db -u root -p{} billing",
        &["mysql-cli-password"],
    );
    check(
        "mysqldump --user=app --password={{an:16}} --all-databases",
        "mysqldump --user=app --password={} --all-databases",
        &["mysql-cli-password"],
    );
    check(
        "curl -X POST \\\n  -u deploy:{{an:18}} \\\n  https://ci.acme.io/api",
        "curl -X POST \\\n  -u deploy:{} \\\n  https://ci.acme.io/api",
        &["curl-auth-user"],
    );
    check(
        "curl -u sk_test_{{an:24}}: https://api.stripe.com/v1/charges",
        "curl -u {}: https://api.stripe.com/v1/charges",
        &["stripe-secret-key"],
    );
    check(
        "curl -H 'X-Api-Key: {{an:32}}' https://api.acme.io",
        "curl -H 'X-Api-Key: {}' https://api.acme.io",
        &["curl-auth-header"],
    );
    check(
        "docker login -u ci -p {{an:24}} registry.acme.io",
        "docker login -u ci -p {} registry.acme.io",
        &["docker-login-password"],
    );
    check(
        "sshpass -p '{{an:16}}' ssh deploy@build",
        "sshpass -p '{}' ssh deploy@build",
        &["sshpass-password"],
    );
    check(
        "requirepass {{an:32}}",
        "requirepass {}",
        &["redis-password"],
    );
    check(
        r#"dsn := "app:{{an:16}}@tcp(db.internal:3306)/billing""#,
        r#"dsn := "app:{}@tcp(db.internal:3306)/billing""#,
        &["go-mysql-dsn"],
    );
    check(
        "spring.datasource.password=${DB_PASSWORD:{{an:16}}}",
        "spring.datasource.password=${DB_PASSWORD:{}}",
        &["generic-password"],
    );
    check(
        "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-{{an:16}}}",
        "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-{}}",
        &["generic-password"],
    );
    check("{{hex:32}}\n", "{}\n", &["rails-master-key"]);
    check(
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"deploy\"\n{{b64:70}}\n{{b64:30}}==\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"deploy\"\n{}\n{}\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        &["private-key", "private-key"],
    );
    check(
        "<password>\n    {{an:18}}\n</password>",
        "<password>\n    {}\n</password>",
        &["generic-password"],
    );
}

#[test]
fn look_alikes_of_those_shapes_stay() {
    for text in [
        "mysql -h db -u root -p billing",
        "docker login -u ci --password-stdin registry.acme.io",
        "requirepass foobared",
        "curl -u \"$USER:$PASS\" https://ci.acme.io",
        "spring.datasource.password=${DB_PASSWORD}",
        "Enter the password below.",
        "password combination.\n\nR5: Regulatory--21",
        "localhost:*:*:postgres:*",
        "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"deploy\"\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC7Zq81kPx0vB7cR4tYmN2LzXq\n---- END SSH2 PUBLIC KEY ----",
        "d41d8cd98f00b204e9800998ecf8427e  empty.txt",
        "kind: ExternalSecret\nspec:\n  data:\n    - secretKey: api-key",
        // found on real code: a match arm on a path, and the SSH2 marker quoted in a comment
        "    scope::KeyClass::Password => \"generic-password\",",
        "/// SSH2 key blocks, `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`: the header lines\n/// (`Comment: ...`, continued with `\\`) stay, every base64 body line is redacted.\nfn scan_ssh2() {}",
    ] {
        assert_eq!(redact(text), text, "{text}");
    }
}

#[test]
fn an_alphabetic_run_does_not_make_a_real_key_a_placeholder() {
    // the right length and charset for an Anthropic key, with runs inside the body
    check(
        "ANTHROPIC_API_KEY=sk-ant-api03-{{an:9}}-{{lnx:12}}-klmnopqrstuvwx-{{an:14}}-{{lnx:20}}abcdefgh{{an:8}}{{lnx:8}}AA",
        "ANTHROPIC_API_KEY={}",
        &["anthropic-api-key"],
    );
    // a body that is mostly a run is still a placeholder
    let text = "GITHUB_PAT=ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    assert_eq!(redact(text), text);
}

#[test]
fn every_assignment_operator_of_a_provider_key() {
    for form in [
        "herokuToken={v}",
        "herokuToken = \"{v}\"",
        "herokuToken := `{v}`",
        "HEROKU_TOKEN ::= \"{v}\"",
        "HEROKU_TOKEN :::= \"{v}\"",
        "HEROKU_TOKEN ?= \"{v}\"",
        "$herokuToken .= \"{v}\";",
        "  \"herokuToken\" => \"{v}\",",
        "heroku_token <- \"{v}\"",
        "heroku_token: '{v}'",
        "System.setProperty(\"HEROKU_TOKEN\", \"{v}\")",
        "<herokuToken>{v}</herokuToken>",
        "<herokuToken>\n    {v}\n</herokuToken>",
        "var herokuKey string = \"{v}\"",
        "val herokuKey: String = \"{v}\"",
    ] {
        let template = form.replace("{v}", "{{uuid}}");
        let (text, pieces) = testgen::expand_tracked(&template, 7);
        let out = Redactor::new(RedactOptions::default()).redact(&text);
        assert!(
            out.findings.iter().any(|f| f.rule_id == "heroku-api-key"),
            "{text}: {:?}",
            out.findings
        );
        assert!(!out.text.contains(&pieces[0]), "{text}");
    }
}
