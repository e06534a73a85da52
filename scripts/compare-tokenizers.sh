#!/usr/bin/env bash
# Compare Rust tokenizer crates for devprojex's exact token counts (docs/benchmarks.md,
# "Tokenizer crates"): bpe-openai (GitHub's rust-gems), tiktoken-rs and the pure-Rust tiktoken.
#
#   scripts/compare-tokenizers.sh [CORPUS_MB]      (default 100)
#
# For each candidate and each encoding (o200k_base, cl100k_base) it reports:
#   - identity: the token ids of every corpus file against the reference, Python tiktoken from
#     PyPI (count and SHA-256 of the ids per file);
#   - speed per core (1 thread) and on every core (rayon, parallel across files), MB/s of
#     UTF-8 text, files already in memory;
#   - binary size: a release binary that counts with both encodings, minus the same program
#     without a tokenizer;
#   - memory: peak RSS of that binary counting the corpus file by file, and its start-up
#     (vocabulary load) time.
#
# Python tiktoken downloads its vocabularies at run time, which is impossible here. The route
# taken instead: the vocabulary files that tiktoken-rs ships (assets/*.tiktoken) are put in
# TIKTOKEN_CACHE_DIR under the names tiktoken gives its download cache. tiktoken checks every
# cached file against the SHA-256 pinned in its own source (tiktoken_ext/openai_public.py)
# before using it, so the reference runs on the official vocabularies or fails.
#
# The corpus: text files (no NUL byte, valid UTF-8) sampled half from the cargo registry
# sources (~/.cargo/registry/src) and half from the kernel corpus (/work/kernel), each in the
# order of the SHA-1 of its path, until each half holds CORPUS_MB/2 MB. The throwaway crates and
# all outputs live in $TOKCMP_DIR (default /tmp/tokcmp), outside the repository.
set -euo pipefail

corpus_mb="${1:-100}"
work="${TOKCMP_DIR:-/tmp/tokcmp}"
kernel="${KERNEL_DIR:-/work/kernel}"
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
mkdir -p "$work"
cd "$work"

echo "== reference: Python tiktoken in $work/venv"
if [ ! -x venv/bin/python ]; then
    python3 -m venv venv
fi
venv/bin/python -c 'import tiktoken' 2>/dev/null ||
    venv/bin/pip install --quiet --disable-pip-version-check 'tiktoken==0.14.0'

echo "== candidate crates (release builds in $work/target)"
versions_bpe_openai="0.3.2"
versions_tiktoken_rs="0.12.1"
versions_tiktoken="4.1.2"
export CARGO_TARGET_DIR="$work/target"

release_profile='[profile.release]
lto = "thin"
codegen-units = 4
strip = "symbols"
'

# The comparison harness: all three crates in one binary (identity and speed).
mkdir -p harness/src
cat > harness/Cargo.toml <<EOF
[package]
name = "tokcmp-harness"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
bpe-openai = "=$versions_bpe_openai"
tiktoken-rs = "=$versions_tiktoken_rs"
tiktoken = { version = "=$versions_tiktoken", default-features = false, features = ["vocab-openai"] }
rayon = "1"
sha2 = "0.10"

$release_profile
[workspace]
EOF
cat > harness/src/main.rs <<'EOF'
//! tokcmp-harness digest|speed CRATE ENCODING LIST [THREADS]
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::time::Instant;

type Encode = Box<dyn Fn(&str) -> Vec<u32> + Sync>;
type Count = Box<dyn Fn(&str) -> usize + Sync>;

/// utime + stime of this process (Linux /proc, clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap().split_whitespace().collect();
    (fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap()) / 100.0
}

fn tokenizer(krate: &str, encoding: &str) -> (Encode, Count) {
    match (krate, encoding) {
        ("bpe-openai", "o200k_base") => {
            let t = bpe_openai::o200k_base();
            (Box::new(move |s| t.encode(s)), Box::new(move |s| t.count(s)))
        }
        ("bpe-openai", "cl100k_base") => {
            let t = bpe_openai::cl100k_base();
            (Box::new(move |s| t.encode(s)), Box::new(move |s| t.count(s)))
        }
        ("tiktoken-rs", "o200k_base") => {
            let t = tiktoken_rs::o200k_base_singleton();
            (Box::new(move |s| t.encode_ordinary(s)), Box::new(move |s| t.encode_ordinary(s).len()))
        }
        ("tiktoken-rs", "cl100k_base") => {
            let t = tiktoken_rs::cl100k_base_singleton();
            (Box::new(move |s| t.encode_ordinary(s)), Box::new(move |s| t.encode_ordinary(s).len()))
        }
        ("tiktoken", enc) => {
            let t = tiktoken::get_encoding(enc).expect("encoding compiled in");
            (Box::new(move |s| t.encode(s)), Box::new(move |s| t.count(s)))
        }
        other => panic!("unknown crate/encoding {other:?}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (mode, krate, encoding, list) = (&args[1], &args[2], &args[3], &args[4]);
    let texts: Vec<String> = std::fs::read_to_string(list)
        .unwrap()
        .lines()
        .map(|path| String::from_utf8(std::fs::read(path).unwrap()).expect("corpus is UTF-8"))
        .collect();
    let started = Instant::now();
    let (encode, count) = tokenizer(krate, encoding);
    count("warm up: build the vocabulary");
    let load = started.elapsed().as_secs_f64();
    match mode.as_str() {
        "digest" => {
            let lines: Vec<String> = texts
                .par_iter()
                .map(|text| {
                    let ids = encode(text);
                    let counted = count(text);
                    let mut hash = Sha256::new();
                    for id in &ids {
                        hash.update(id.to_le_bytes());
                    }
                    let digest: String =
                        hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
                    // a count that differs from the ids is a defect of its own
                    let flag = if counted == ids.len() { "" } else { " count-mismatch" };
                    format!("{} {digest}{flag}\n", ids.len())
                })
                .collect();
            print!("{}", lines.concat());
        }
        "speed" => {
            let threads: usize = args[5].parse().unwrap();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let bytes: usize = texts.iter().map(|t| t.len()).sum();
            // wall time and this process's CPU time: the machine is shared, CPU time is what
            // one core costs whatever else runs
            let (mut best_wall, mut best_cpu) = (f64::MAX, f64::MAX);
            let mut tokens = 0;
            for _ in 0..2 {
                let (t, c) = (Instant::now(), cpu_seconds());
                tokens = pool.install(|| texts.par_iter().map(|s| count(s)).sum::<usize>());
                best_wall = best_wall.min(t.elapsed().as_secs_f64());
                best_cpu = best_cpu.min(cpu_seconds() - c);
            }
            println!(
                "{krate} {encoding} threads={threads} tokens={tokens} wall={best_wall:.2}s ({:.1} MB/s) cpu={best_cpu:.2}s ({:.1} MB/s per CPU second) load={load:.3}s",
                bytes as f64 / best_wall / 1e6,
                bytes as f64 / best_cpu / 1e6
            );
        }
        other => panic!("unknown mode {other}"),
    }
}
EOF

# One small program per candidate (and one without a tokenizer) for binary size and memory:
# count the corpus file by file with both encodings.
small_program() { # NAME DEPENDENCY-LINE BODY
    mkdir -p "small-$1/src"
    cat > "small-$1/Cargo.toml" <<EOF
[package]
name = "small-$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$2

$release_profile
[workspace]
EOF
    cat > "small-$1/src/main.rs" <<EOF
fn main() {
    let started = std::time::Instant::now();
    let count = |text: &str| -> (usize, usize) { $3 };
    count("warm up");
    eprintln!("load {:.3}s", started.elapsed().as_secs_f64());
    let list = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let mut total = (0, 0);
    for path in list.lines() {
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let (a, b) = count(&text);
        total.0 += a;
        total.1 += b;
    }
    println!("{} {}", total.0, total.1);
}
EOF
}
small_program none "" "(text.len(), text.chars().count())"
small_program bpe-openai "bpe-openai = \"=$versions_bpe_openai\"" \
    "(bpe_openai::o200k_base().count(text), bpe_openai::cl100k_base().count(text))"
small_program tiktoken-rs "tiktoken-rs = \"=$versions_tiktoken_rs\"" \
    "(tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len(), tiktoken_rs::cl100k_base_singleton().encode_ordinary(text).len())"
small_program tiktoken "tiktoken = { version = \"=$versions_tiktoken\", default-features = false, features = [\"vocab-o200k_base\", \"vocab-cl100k_base\"] }" \
    "(tiktoken::get_encoding(\"o200k_base\").unwrap().count(text), tiktoken::get_encoding(\"cl100k_base\").unwrap().count(text))"

for dir in harness small-none small-bpe-openai small-tiktoken-rs small-tiktoken; do
    (cd "$dir" && cargo build --release --quiet)
done

echo "== corpus: ${corpus_mb} MB of mixed code"
venv/bin/python - "$corpus_mb" "$registry" "$kernel" > corpus.list <<'EOF'
import hashlib, os, sys
budget = int(sys.argv[1]) * 1_000_000 // 2
for root in sys.argv[2:]:
    files = []
    for base, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in names:
            path = os.path.join(base, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            files.append(path)
    files.sort(key=lambda p: hashlib.sha1(os.path.relpath(p, root).encode()).hexdigest())
    taken = 0
    for path in files:
        if taken >= budget:
            break
        data = open(path, "rb").read()
        if not data or b"\0" in data or len(data) > 4_000_000:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        print(path)
        taken += len(data)
EOF
files=$(wc -l < corpus.list)
bytes=$(tr '\n' '\0' < corpus.list | xargs -0 cat | wc -c)
echo "corpus.list: $files files, $bytes bytes"
echo "extensions (top 12 by files):"
sed -E 's/.*\///; s/^[^.]*$/(none)/; s/.*\.//' corpus.list | sort | uniq -c | sort -rn | head -12 | tr '\n' ' '
echo

echo "== identity against Python tiktoken (encode_ordinary, per file: count and SHA-256 of the ids)"
cache="$work/tiktoken-cache"
mkdir -p "$cache"
assets="$(ls -d "$registry"/*/tiktoken-rs-"$versions_tiktoken_rs"/assets | head -1)"
for enc in o200k_base cl100k_base; do
    url="https://openaipublic.blob.core.windows.net/encodings/$enc.tiktoken"
    key=$(printf '%s' "$url" | sha1sum | cut -d' ' -f1)
    cp "$assets/$enc.tiktoken" "$cache/$key"
done
for enc in o200k_base cl100k_base; do
    TIKTOKEN_CACHE_DIR="$cache" venv/bin/python - "$enc" corpus.list > "ref-$enc.txt" <<'EOF'
import array, hashlib, sys, time, tiktoken
enc = tiktoken.get_encoding(sys.argv[1])  # fails unless the cached file has the pinned SHA-256
paths = open(sys.argv[2]).read().splitlines()
# bytes, decoded: text mode would turn CRLF into LF
texts = [open(p, "rb").read().decode("utf-8") for p in paths]
start = time.process_time()
out = []
for text in texts:
    ids = enc.encode_ordinary(text)
    out.append(f"{len(ids)} {hashlib.sha256(array.array('I', ids).tobytes()).hexdigest()}\n")
elapsed = time.process_time() - start
sys.stdout.write("".join(out))
size = sum(len(t.encode()) for t in texts)
print(f"python tiktoken {tiktoken.__version__} {sys.argv[1]}: {size / elapsed / 1e6:.1f} MB/s per CPU second (encode_ordinary + hashing)", file=sys.stderr)
EOF
    for krate in bpe-openai tiktoken-rs tiktoken; do
        "$work/target/release/tokcmp-harness" digest "$krate" "$enc" corpus.list > "got-$krate-$enc.txt"
        differing=$(paste -d' ' "ref-$enc.txt" "got-$krate-$enc.txt" |
            awk '$1 != $3 || $2 != $4 || NF != 4 {n++} END {print n+0}')
        tokens_ref=$(awk '{s+=$1} END {print s}' "ref-$enc.txt")
        tokens_got=$(awk '{s+=$1} END {print s}' "got-$krate-$enc.txt")
        echo "$krate $enc: $differing of $files files differ; tokens $tokens_got (reference $tokens_ref)"
    done
done

echo "== speed (files in memory, count only, best of 2; load average $(cut -d' ' -f1-3 /proc/loadavg))"
for enc in o200k_base cl100k_base; do
    for krate in bpe-openai tiktoken-rs tiktoken; do
        for threads in 1 "$(nproc)"; do
            "$work/target/release/tokcmp-harness" speed "$krate" "$enc" corpus.list "$threads"
        done
    done
done

echo "== binary size and memory (both encodings, corpus counted file by file)"
base_size=$(stat -c %s "$work/target/release/small-none")
for krate in none bpe-openai tiktoken-rs tiktoken; do
    bin="$work/target/release/small-$krate"
    size=$(stat -c %s "$bin")
    /usr/bin/time -f "%M KB %e s %U s" -o time.txt "$bin" corpus.list > counts.txt 2> load.txt
    echo "$krate: binary $size bytes (+$(( (size - base_size) / 1024 )) KiB), peak RSS $(cut -d' ' -f1 time.txt) KB, wall $(cut -d' ' -f3 time.txt) s, user CPU $(cut -d' ' -f5 time.txt) s, $(cat load.txt), totals $(cat counts.txt)"
done

echo "== the spec's estimate (characters / 4, rounded up per file) against the reference's exact counts, per extension (at least 40 files)"
venv/bin/python - corpus.list ref-o200k_base.txt ref-cl100k_base.txt <<'PYEOF'
import collections, math, os, sys
paths = open(sys.argv[1]).read().splitlines()
counts = [[int(l.split()[0]) for l in open(p)] for p in sys.argv[2:4]]
rows = collections.defaultdict(lambda: [0, 0, 0, 0])
for path, o, c in zip(paths, *counts):
    chars = len(open(path, "rb").read().decode("utf-8"))
    name = os.path.basename(path)
    ext = "." + name.rsplit(".", 1)[1].lower() if "." in name[1:] else "(none)"
    for key in (ext, "(all)"):
        r = rows[key]
        r[0] += 1; r[1] += math.ceil(chars / 4); r[2] += o; r[3] += c
print(f"{'extension':10} {'files':>6} {'estimate':>11} {'o200k':>11} {'cl100k':>11} {'estimate vs o200k':>18} {'vs cl100k':>10}")
for ext, (n, est, o, c) in sorted(rows.items(), key=lambda kv: -kv[1][2]):
    if n >= 40 or ext == "(all)":
        print(f"{ext:10} {n:>6} {est:>11} {o:>11} {c:>11} {100 * (est - o) / o:>+17.1f}% {100 * (est - c) / c:>+9.1f}%")
PYEOF
