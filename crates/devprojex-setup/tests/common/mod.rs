//! A temporary home folder and the `devprojex setup` / `doctor` front driven in-process.
#![allow(dead_code)]

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use clap::Parser;
use devprojex_setup::{DoctorArgs, Io, Os, SetupArgs, SetupEnv, run_doctor_with, run_setup_with};

/// The main binary's shape, as the contract describes it.
#[derive(Parser)]
#[command(name = "devprojex")]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(clap::Subcommand)]
pub enum Cmd {
    Setup(SetupArgs),
    Doctor(DoctorArgs),
}

pub struct Out {
    pub code: u8,
    pub out: String,
    pub err: String,
}

impl Out {
    pub fn all(&self) -> String {
        format!("{}{}", self.out, self.err)
    }
}

pub struct Home {
    pub _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub env: SetupEnv,
}

impl Home {
    /// A home with an installed-looking binary at `~/bin/devprojex` that is not on `PATH`, and
    /// the current folder `~/project`.
    pub fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut env = SetupEnv::for_tests(Os::Linux, &root);
        std::fs::create_dir_all(&env.cwd).unwrap();
        let exe = env.current_exe.clone().unwrap();
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, "").unwrap();
        env.path = vec![];
        Home {
            _dir: dir,
            root,
            env,
        }
    }

    pub fn p(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn s(&self, rel: &str) -> String {
        self.p(rel).to_string_lossy().into_owned()
    }

    pub fn mkdir(&self, rel: &str) {
        std::fs::create_dir_all(self.p(rel)).unwrap();
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.p(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.p(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn json(&self, rel: &str) -> serde_json::Value {
        serde_json::from_str(&self.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn exe(&self) -> String {
        self.env
            .current_exe
            .as_ref()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }

    /// devprojex's data folder in this home (Linux layout).
    pub fn data(&self) -> PathBuf {
        self.p(".local/share/devprojex")
    }

    pub fn run_io(&self, argv: &[&str], interactive: bool, input: &mut dyn BufRead) -> Out {
        let mut full = vec!["devprojex"];
        full.extend_from_slice(argv);
        let cli = Cli::try_parse_from(full).unwrap_or_else(|e| panic!("{e}"));
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            input,
            interactive,
        };
        let code = match cli.cmd {
            Cmd::Setup(a) => run_setup_with(&a, &self.env, &mut io),
            Cmd::Doctor(a) => run_doctor_with(&a, &self.env, &mut io),
        };
        Out {
            code,
            out: String::from_utf8(out).unwrap(),
            err: String::from_utf8(err).unwrap(),
        }
    }

    pub fn run_with(&self, argv: &[&str], interactive: bool, input: &str) -> Out {
        let mut input = input.as_bytes();
        self.run_io(argv, interactive, &mut input)
    }

    pub fn run(&self, argv: &[&str]) -> Out {
        self.run_with(argv, false, "")
    }

    /// Every file under the home folder (relative, sorted), for "nothing left behind" checks.
    pub fn files(&self) -> Vec<String> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()) {
                let p = e.path();
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                if p.is_dir() {
                    out.push(format!("{rel}/"));
                    walk(&p, base, out);
                } else {
                    out.push(rel);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &self.root, &mut out);
        out.sort();
        out
    }
}

/// Standard input whose first read runs `during` (the user is still thinking about the
/// question while another program writes a file), then answers `answers` line by line.
pub struct Meanwhile<F: FnMut()> {
    pub during: Option<F>,
    pub answers: std::io::Cursor<Vec<u8>>,
}

impl<F: FnMut()> Meanwhile<F> {
    pub fn new(during: F, answers: &str) -> Self {
        Meanwhile {
            during: Some(during),
            answers: std::io::Cursor::new(answers.as_bytes().to_vec()),
        }
    }
}

impl<F: FnMut()> Read for Meanwhile<F> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(mut f) = self.during.take() {
            f();
        }
        self.answers.read(buf)
    }
}

impl<F: FnMut()> BufRead for Meanwhile<F> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if let Some(mut f) = self.during.take() {
            f();
        }
        self.answers.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.answers.consume(amt)
    }
}
