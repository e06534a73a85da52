//! Which folders the server serves when it is not told: the client's MCP roots, then the
//! working directory, never `/` or the home folder by accident.
//!
//! Order: `--root`, then `DEVPROJEX_ROOT`, then `CLAUDE_PROJECT_DIR`; otherwise, when the
//! client declares the `roots` capability, the local `file://` roots it lists (asked with
//! `roots/list` after `initialized`, asked again on `notifications/roots/list_changed`), pinned
//! like configured roots; otherwise the working directory. Every root except a `--root` on the
//! command line passes one guard ([`unsafe_default`], setup's `root_guard`): a filesystem root,
//! the home folder, or a folder above it is refused with [`UNSAFE_ROOT`]. GUI clients start
//! servers in `/` (Claude Desktop on macOS) or `~` (VS Code user servers), and Claude Code sets
//! `CLAUDE_PROJECT_DIR` to whatever folder it was started in, `~` from a new terminal: serving
//! that would expose the whole disk or the home folder. An environment root that is refused
//! counts as the working directory does: the client's roots can still give the project.
//!
//! [`SessionHandler`] wraps the tool handler: it decides at `initialize`, fetches the client's
//! roots, holds tool calls until they are known, and adds the version-age note to the
//! instructions. The root set is a [`LiveRoots`], which tool handlers read as a plain
//! `Vec<ProjectRoot>`.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer};
use serde_json::json;

use crate::project::{HostStyle, ProjectRoot};

/// The working directory would expose `/`, a drive, or the home folder.
pub const UNSAFE_ROOT: &str = "DPX-MCP-UNSAFE-ROOT";
/// The client's roots gave no local folder and there is no safe default.
pub const NO_ROOTS: &str = "DPX-MCP-NO-ROOTS";

/// How long tool calls wait for the client's answer to `roots/list`.
pub const ROOTS_WAIT: Duration = Duration::from_secs(10);

/// At most this many different root lists are served in one session (each is kept for the
/// life of the process, see [`LiveRoots`]); later changes are ignored.
pub const MAX_ROOT_LISTS: usize = 256;

/// At most this many roots are taken from one `roots/list` answer.
pub const MAX_CLIENT_ROOTS: usize = 64;

/// At most this many different folders are opened for client roots in one session (each holds
/// a directory handle; a folder seen before reuses its handle).
pub const MAX_CLIENT_FOLDERS: usize = 256;

// ---------- the decision at startup ----------

/// Where the roots come from, decided before the first message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Startup {
    /// Named on the command line with `--root`: served as given, even `/` or the home folder.
    Explicit(Vec<PathBuf>),
    /// Named by the environment (`DEVPROJEX_ROOT`, or `CLAUDE_PROJECT_DIR`, which Claude Code
    /// sets to the folder it was started in): served when it passes the same guard as the
    /// working directory.
    Environment {
        /// The variable that named it.
        var: &'static str,
        /// Its value.
        path: PathBuf,
    },
    /// Nothing named: the client's roots, else this working directory.
    Default(PathBuf),
}

/// Decides the root source. `env` reads a variable; `cwd` is the working directory.
pub fn startup(
    args_roots: &[PathBuf],
    env: &dyn Fn(&str) -> Option<String>,
    cwd: Option<PathBuf>,
) -> Option<Startup> {
    if !args_roots.is_empty() {
        return Some(Startup::Explicit(args_roots.to_vec()));
    }
    for var in ["DEVPROJEX_ROOT", "CLAUDE_PROJECT_DIR"] {
        if let Some(value) = env(var).filter(|v| !v.trim().is_empty()) {
            return Some(Startup::Environment {
                var,
                path: PathBuf::from(value),
            });
        }
    }
    cwd.map(Startup::Default)
}

/// Why serving `dir` by default would be unsafe: it is a filesystem root (`/`, `C:\`, a UNC
/// share), the home folder, or a folder that contains the home folder (`/home`, `/Users`,
/// `C:\Users`). Pure: both paths are compared as written (pass canonical paths), in `style`.
/// The rule is setup's too (`devprojex_setup::root_guard`), so what setup writes and what the
/// server serves agree.
pub fn unsafe_default(dir: &Path, home: Option<&Path>, style: HostStyle) -> Option<&'static str> {
    devprojex_setup::root_guard::too_broad(dir, home, style == HostStyle::Windows)
}

/// How to pin a project, the end of every refusal.
const PIN_HINT: &str = "pin the project with --root /absolute/path/to/project in the client's entry (`devprojex setup --root PATH`), or start the client in the project folder";

/// The error printed (and returned to `initialize`) when the default root is unsafe.
pub fn unsafe_root_message(dir: &Path, why: &str) -> String {
    format!(
        "{UNSAFE_ROOT}: no project root was named and the working directory '{}' is {why}, which the server does not serve by default; {PIN_HINT} (or set DEVPROJEX_ROOT), or use a client that sends MCP roots",
        dir.display()
    )
}

/// The refusal of a root named by an environment variable.
pub fn unsafe_env_root_message(var: &str, dir: &Path, why: &str) -> String {
    let from = if var == "CLAUDE_PROJECT_DIR" {
        "CLAUDE_PROJECT_DIR (the folder Claude Code was started in)"
    } else {
        var
    };
    format!(
        "{UNSAFE_ROOT}: {from} is '{}', which is {why}; the server serves that only when it is named with --root on its own command line: {PIN_HINT}",
        dir.display()
    )
}

/// The refusal of a root the client listed.
pub fn unsafe_client_root_message(dir: &Path, why: &str) -> String {
    format!(
        "{UNSAFE_ROOT}: the client's root '{}' is {why}, which the server does not serve; open a project folder in the client, or {PIN_HINT}",
        dir.display()
    )
}

/// Opens the roots the server starts with. Roots named with `--root` are opened (and must
/// exist). A root named by the environment is opened and judged like the working directory:
/// served when safe, else refused as the working directory would be (the client's MCP roots
/// can still give the project). The working directory is opened too, and judged: an unsafe one
/// is refused at once when no client can be connected (standard input is a terminal), else
/// when the client turns out not to send roots. `Err`: the message to print before exiting
/// with 1.
pub fn prepare(
    startup: Option<Startup>,
    home: Option<&Path>,
    stdin_is_terminal: bool,
) -> Result<(LiveRoots, Mode), String> {
    let judged = |root: ProjectRoot, refuse: &dyn Fn(&Path, &str) -> String| match unsafe_default(
        &root.path,
        home,
        HostStyle::current(),
    ) {
        Some(why) => Err(refuse(&root.path, why)),
        None => Ok(root),
    };
    let default = |cwd: Result<ProjectRoot, String>| match cwd {
        Err(message) if stdin_is_terminal => Err(message),
        cwd => Ok((LiveRoots::pending(), Mode::Default { cwd })),
    };
    match startup {
        Some(Startup::Explicit(paths)) => {
            let mut roots: Vec<ProjectRoot> = Vec::new();
            for path in &paths {
                let root = ProjectRoot::open(path).map_err(|e| e.to_string())?;
                if !roots.iter().any(|r| r.path == root.path) {
                    roots.push(root);
                }
            }
            Ok((LiveRoots::fixed(roots), Mode::Fixed))
        }
        Some(Startup::Environment { var, path }) => {
            let root = ProjectRoot::open(&path).map_err(|e| format!("{var}: {e}"))?;
            match judged(root, &|dir, why| unsafe_env_root_message(var, dir, why)) {
                Ok(root) => Ok((LiveRoots::fixed(vec![root]), Mode::Fixed)),
                Err(message) => default(Err(message)),
            }
        }
        Some(Startup::Default(cwd)) => {
            let root = ProjectRoot::open(&cwd).map_err(|e| e.to_string())?;
            default(judged(root, &unsafe_root_message))
        }
        None => Err(format!(
            "{}: no project root; pass --root /absolute/path/to/project",
            crate::error::codes::PROJECT_UNAVAILABLE
        )),
    }
}

/// The home folder (`HOME`, `USERPROFILE` on Windows), canonical when it exists.
pub fn home_dir() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    let home = std::env::var_os(var)
        .or_else(|| std::env::var_os("HOME"))
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)?;
    Some(crate::project::dunce_canonicalize(&home).unwrap_or(home))
}

// ---------- client roots ----------

/// The local folder a root URI names: `file:///path` or `file://localhost/path`, percent-decoded
/// (`file:///c%3A/Users/x` is `C:\Users\x` on Windows). Other schemes and remote hosts
/// (`file://server/share`) are not local: `None`.
pub fn file_uri_to_path(uri: &str, style: HostStyle) -> Option<PathBuf> {
    let rest = uri
        .strip_prefix("file://")
        .or_else(|| uri.strip_prefix("FILE://"))?;
    let path = if rest.starts_with('/') {
        rest
    } else {
        let (host, path) = rest.split_at(rest.find('/')?);
        if !host.eq_ignore_ascii_case("localhost") {
            return None;
        }
        path
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    if decoded.contains('\0') {
        return None;
    }
    match style {
        HostStyle::Unix => Some(PathBuf::from(decoded.as_ref())),
        HostStyle::Windows => {
            // `/C:/x` -> `C:\x`; a path without a drive is not a local Windows folder.
            let b = decoded.as_bytes();
            let drive = b.len() >= 3 && b[0] == b'/' && b[1].is_ascii_alphabetic() && b[2] == b':';
            drive.then(|| PathBuf::from(decoded[1..].replace('/', "\\")))
        }
    }
}

// ---------- the live root set ----------

/// The roots of a session. Tool handlers read it as `Vec<ProjectRoot>` (`Deref`), as they read
/// fixed roots. A change replaces the list as a whole; each list is kept for the life of the
/// process (at most [`MAX_ROOT_LISTS`], identical lists are shared), which is what lets a
/// handler hold a plain reference while the client changes its roots.
pub struct LiveRoots {
    current: RwLock<&'static Vec<ProjectRoot>>,
    kept: Mutex<Vec<&'static Vec<ProjectRoot>>>,
    ready: tokio::sync::watch::Sender<bool>,
}

impl LiveRoots {
    /// Roots known from the start.
    pub fn fixed(roots: Vec<ProjectRoot>) -> LiveRoots {
        let live = LiveRoots::pending();
        live.set(roots);
        live
    }

    /// Roots not known yet: tool calls wait for [`LiveRoots::set`].
    pub fn pending() -> LiveRoots {
        static EMPTY: Vec<ProjectRoot> = Vec::new();
        LiveRoots {
            current: RwLock::new(&EMPTY),
            kept: Mutex::new(Vec::new()),
            ready: tokio::sync::watch::Sender::new(false),
        }
    }

    /// Replaces the roots (and marks them known). `false` when the list limit is reached.
    pub fn set(&self, roots: Vec<ProjectRoot>) -> bool {
        let Ok(mut kept) = self.kept.lock() else {
            return false;
        };
        let list: &'static Vec<ProjectRoot> = match kept.iter().find(|l| ***l == roots) {
            Some(known) => known,
            None if kept.len() >= MAX_ROOT_LISTS => return false,
            None => {
                let leaked: &'static Vec<ProjectRoot> = Box::leak(Box::new(roots));
                kept.push(leaked);
                leaked
            }
        };
        if let Ok(mut current) = self.current.write() {
            *current = list;
        }
        self.ready.send_replace(true);
        true
    }

    /// A root already opened for the folder `canonical`, in any list kept (its handle is
    /// reused), and how many different folders the kept lists hold.
    pub fn known(&self, canonical: &Path) -> (Option<ProjectRoot>, usize) {
        let Ok(kept) = self.kept.lock() else {
            return (None, usize::MAX);
        };
        let mut folders: Vec<&Path> = Vec::new();
        let mut found = None;
        for root in kept.iter().flat_map(|l| l.iter()) {
            if !folders.contains(&root.path.as_path()) {
                folders.push(&root.path);
            }
            if found.is_none() && root.path == canonical {
                found = Some(root.clone());
            }
        }
        (found, folders.len())
    }

    /// Whether the roots are known.
    pub fn is_ready(&self) -> bool {
        *self.ready.borrow()
    }

    /// Waits until the roots are known, at most `limit`.
    pub async fn wait(&self, limit: Duration) -> bool {
        let mut rx = self.ready.subscribe();
        tokio::time::timeout(limit, rx.wait_for(|r| *r))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    fn snapshot(&self) -> &'static Vec<ProjectRoot> {
        self.current
            .read()
            .map(|c| *c)
            .unwrap_or_else(|e| *e.into_inner())
    }
}

impl Deref for LiveRoots {
    type Target = Vec<ProjectRoot>;

    fn deref(&self) -> &Vec<ProjectRoot> {
        self.snapshot()
    }
}

impl std::fmt::Debug for LiveRoots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.snapshot().iter()).finish()
    }
}

impl AsRef<LiveRoots> for super::server::ServerState {
    fn as_ref(&self) -> &LiveRoots {
        &self.roots
    }
}

// ---------- the session ----------

/// What the process should exit with when the session ends early.
#[derive(Default)]
pub struct Exit {
    code: AtomicI32,
    now: tokio::sync::Notify,
    initialized: std::sync::atomic::AtomicBool,
}

impl Exit {
    /// The exit code when the session has ended: the one recorded, or 1 when the working
    /// directory was refused and no client ever initialized (the refusal is printed then).
    pub fn final_code(&self, mode: &Mode) -> i32 {
        let code = self.code.load(Ordering::SeqCst);
        if code != 0 {
            return code;
        }
        match mode {
            Mode::Default { cwd: Err(message) } if !self.initialized.load(Ordering::SeqCst) => {
                eprintln!("devprojex mcp: {message}");
                1
            }
            _ => 0,
        }
    }

    /// Resolves when the session must end now.
    pub async fn requested(&self) {
        self.now.notified().await
    }

    fn fail_soon(self: &Arc<Self>, code: i32) {
        self.code.store(code, Ordering::SeqCst);
        // Give the error response time to reach the client; a client that hangs up ends the
        // session sooner.
        let exit = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(500)).await;
            exit.now.notify_one();
        });
    }
}

/// How this session finds its roots.
pub enum Mode {
    /// Fixed at startup.
    Fixed,
    /// The client's roots when it declares the capability, else the working directory
    /// (`Err` holds the refusal when serving it would be unsafe).
    Default {
        /// The working directory as a root, or why it must not be served.
        cwd: Result<ProjectRoot, String>,
    },
}

/// The rmcp handler of a session: decides the roots, then delegates to the tool handler `H`.
/// It forwards every method `H` implements (`get_info`, `list_tools`, `get_tool`, `call_tool`).
pub struct SessionHandler<H> {
    inner: H,
    roots: Arc<dyn AsRef<LiveRoots> + Send + Sync>,
    mode: Arc<Mode>,
    exit: Arc<Exit>,
    note: Option<String>,
    follows_client: Arc<std::sync::atomic::AtomicBool>,
    /// Why the client's roots were refused, when none was left to serve.
    refused: Arc<Mutex<Option<String>>>,
}

impl<H: Clone> Clone for SessionHandler<H> {
    fn clone(&self) -> Self {
        SessionHandler {
            inner: self.inner.clone(),
            roots: Arc::clone(&self.roots),
            mode: Arc::clone(&self.mode),
            exit: Arc::clone(&self.exit),
            note: self.note.clone(),
            follows_client: Arc::clone(&self.follows_client),
            refused: Arc::clone(&self.refused),
        }
    }
}

impl<H> SessionHandler<H> {
    /// Wraps `inner`. `roots` holds the root set the tool handler reads; `note` is the
    /// version-age sentence for the instructions (see `crate::update_hint`).
    pub fn new(
        inner: H,
        roots: Arc<dyn AsRef<LiveRoots> + Send + Sync>,
        mode: Arc<Mode>,
        exit: Arc<Exit>,
        note: Option<String>,
    ) -> Self {
        SessionHandler {
            inner,
            roots,
            mode,
            exit,
            note,
            follows_client: Arc::new(std::sync::atomic::AtomicBool::new(false)),
            refused: Arc::new(Mutex::new(None)),
        }
    }

    fn live(&self) -> &LiveRoots {
        (*self.roots).as_ref()
    }

    /// Serves the working directory, or refuses it.
    fn use_cwd(&self) -> Result<(), String> {
        match &*self.mode {
            Mode::Fixed => Ok(()),
            Mode::Default { cwd: Ok(root) } => {
                self.live().set(vec![root.clone()]);
                Ok(())
            }
            Mode::Default { cwd: Err(message) } => Err(message.clone()),
        }
    }
}

/// Asks the client for its roots and serves the local ones that pass the guard (a root that
/// is `/`, a drive, the home folder or above it is refused, and the refusal kept in `refused`
/// for tool calls when no root is left); `false` when the client could not answer.
#[allow(deprecated)] // Roots are deprecated by SEP-2577 but still what today's clients send.
async fn fetch_roots(
    peer: &Peer<RoleServer>,
    live: &LiveRoots,
    refused: &Mutex<Option<String>>,
) -> bool {
    let listed = match tokio::time::timeout(ROOTS_WAIT, peer.list_roots()).await {
        Ok(Ok(list)) => list.roots,
        Ok(Err(err)) => {
            eprintln!("devprojex mcp: roots/list failed: {err}");
            return false;
        }
        Err(_) => {
            eprintln!("devprojex mcp: the client did not answer roots/list within 10 s");
            return false;
        }
    };
    let mut roots: Vec<ProjectRoot> = Vec::new();
    let mut refusal: Option<String> = None;
    let home = home_dir();
    if listed.len() > MAX_CLIENT_ROOTS {
        eprintln!(
            "devprojex mcp: the client listed {} roots; serving the first {MAX_CLIENT_ROOTS}",
            listed.len()
        );
    }
    for root in listed.iter().take(MAX_CLIENT_ROOTS) {
        let Some(path) = file_uri_to_path(&root.uri, HostStyle::current()) else {
            eprintln!(
                "devprojex mcp: ignoring client root {:?}: only local file:// folders are served",
                root.uri.chars().take(200).collect::<String>()
            );
            continue;
        };
        // A folder served before keeps its pinned handle; new folders are bounded.
        if let Ok(canonical) = crate::project::dunce_canonicalize(&path) {
            let (known, folders) = live.known(&canonical);
            if let Some(known) = known.filter(|k| {
                unsafe_default(&k.path, home.as_deref(), HostStyle::current()).is_none()
            }) {
                if !roots.iter().any(|k| k.path == known.path) {
                    roots.push(known);
                }
                continue;
            }
            if folders >= MAX_CLIENT_FOLDERS {
                eprintln!(
                    "devprojex mcp: ignoring a client root: {MAX_CLIENT_FOLDERS} different folders were served already"
                );
                continue;
            }
        }
        match ProjectRoot::open(&path) {
            Ok(r) => {
                if let Some(why) = unsafe_default(&r.path, home.as_deref(), HostStyle::current()) {
                    let message = unsafe_client_root_message(&r.path, why);
                    eprintln!("devprojex mcp: {message}");
                    refusal.get_or_insert(message);
                } else if !roots.iter().any(|k| k.path == r.path) {
                    roots.push(r);
                }
            }
            Err(err) => eprintln!("devprojex mcp: ignoring client root: {err}"),
        }
    }
    if let Ok(mut kept) = refused.lock() {
        *kept = refusal;
    }
    eprintln!(
        "devprojex mcp: serving the client's roots [{}]",
        roots
            .iter()
            .map(|r| r.address.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !live.set(roots) {
        eprintln!(
            "devprojex mcp: the client changed its roots too often; keeping the current ones"
        );
    }
    true
}

fn no_roots_result(refused: &Mutex<Option<String>>) -> CallToolResult {
    if let Some(message) = refused.lock().ok().and_then(|m| m.clone()) {
        return CallToolResult::error(vec![ContentBlock::text(message)]);
    }
    CallToolResult::error(vec![ContentBlock::text(format!(
        "{NO_ROOTS}: the client reported no local project folder (MCP roots) and the server has no other root; open a folder in the client, or start the server with --root /absolute/path/to/project"
    ))])
}

impl<H: ServerHandler> ServerHandler for SessionHandler<H> {
    fn get_info(&self) -> InitializeResult {
        let mut info = self.inner.get_info();
        if let Some(note) = &self.note {
            let base = info.instructions.take().unwrap_or_default();
            info.instructions = Some(if base.is_empty() {
                note.clone()
            } else {
                format!("{base} {note}")
            });
        }
        info
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.exit.initialized.store(true, Ordering::SeqCst);
        if matches!(*self.mode, Mode::Default { .. }) && !self.live().is_ready() {
            if request.capabilities.roots.is_some() {
                self.follows_client.store(true, Ordering::SeqCst);
            } else if let Err(message) = self.use_cwd() {
                eprintln!("devprojex mcp: {message}");
                self.exit.fail_soon(1);
                return Err(ErrorData::new(
                    ErrorCode::INVALID_REQUEST,
                    message,
                    Some(json!({"code": UNSAFE_ROOT})),
                ));
            }
        }
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if !self.follows_client.load(Ordering::SeqCst) {
            return;
        }
        let live = self.live();
        if !fetch_roots(&context.peer, live, &self.refused).await && !live.is_ready() {
            // The client declared roots but did not list them: the working directory if safe.
            if let Err(message) = self.use_cwd() {
                eprintln!("devprojex mcp: {message}");
                live.set(Vec::new());
            }
        }
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        if self.follows_client.load(Ordering::SeqCst) {
            fetch_roots(&context.peer, self.live(), &self.refused).await;
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.inner.list_tools(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let live = self.live();
        if !live.is_ready() {
            if !self.follows_client.load(Ordering::SeqCst) {
                // No `initialize` (a session that negotiates per request): decide now.
                if let Err(message) = self.use_cwd() {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into());
                }
            } else if !live.wait(ROOTS_WAIT + Duration::from_secs(1)).await {
                return Ok(no_roots_result(&self.refused).into());
            }
        }
        if live.is_empty() && request.name != "list_projects" {
            return Ok(no_roots_result(&self.refused).into());
        }
        self.inner.call_tool(request, context).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn explicit_roots_win_in_order() {
        let env = |k: &str| match k {
            "DEVPROJEX_ROOT" => Some("/dpx".to_string()),
            "CLAUDE_PROJECT_DIR" => Some("/claude".to_string()),
            _ => None,
        };
        assert_eq!(
            startup(&[p("/a")], &env, Some(p("/cwd"))),
            Some(Startup::Explicit(vec![p("/a")]))
        );
        assert_eq!(
            startup(&[], &env, Some(p("/cwd"))),
            Some(Startup::Environment {
                var: "DEVPROJEX_ROOT",
                path: p("/dpx")
            })
        );
        let claude = |k: &str| (k == "CLAUDE_PROJECT_DIR").then(|| "/claude".to_string());
        assert_eq!(
            startup(&[], &claude, Some(p("/cwd"))),
            Some(Startup::Environment {
                var: "CLAUDE_PROJECT_DIR",
                path: p("/claude")
            })
        );
        let blank = |_: &str| Some("  ".to_string());
        assert_eq!(
            startup(&[], &blank, Some(p("/cwd"))),
            Some(Startup::Default(p("/cwd")))
        );
    }

    #[test]
    fn a_root_from_the_environment_passes_the_guard_of_the_working_directory() {
        let home = tempfile::tempdir().unwrap();
        let home_path = crate::project::dunce_canonicalize(home.path()).unwrap();
        let project = home_path.join("src").join("app");
        std::fs::create_dir_all(&project).unwrap();
        for var in ["DEVPROJEX_ROOT", "CLAUDE_PROJECT_DIR"] {
            // The home folder: refused, the client's roots may still give the project.
            let env = |k: &str| (k == var).then(|| home_path.to_string_lossy().into_owned());
            let (live, mode) = prepare(startup(&[], &env, None), Some(&home_path), false).unwrap();
            assert!(!live.is_ready());
            let Mode::Default { cwd: Err(message) } = mode else {
                panic!("{var}: the home folder is served");
            };
            assert!(
                message.starts_with(UNSAFE_ROOT) && message.contains(var),
                "{message}"
            );
            assert!(message.contains("--root"), "{message}");
            // With no client to ask (a terminal), at once.
            let Err(err) = prepare(startup(&[], &env, None), Some(&home_path), true) else {
                panic!("{var}: the home folder is served");
            };
            assert!(err.contains("your home folder"), "{err}");
            // A project folder is served as before.
            let env = |k: &str| (k == var).then(|| project.to_string_lossy().into_owned());
            let (live, _) = prepare(startup(&[], &env, None), Some(&home_path), true).unwrap();
            assert_eq!(live[0].path, project);
        }
        // `/` from the environment is refused too; only --root serves it.
        let root = |k: &str| (k == "CLAUDE_PROJECT_DIR").then(|| "/".to_string());
        let Err(err) = prepare(startup(&[], &root, None), Some(&home_path), true) else {
            panic!("/ is served");
        };
        assert!(err.contains("a filesystem root"), "{err}");
        let (live, _) = prepare(startup(&[p("/")], &root, None), Some(&home_path), true).unwrap();
        assert_eq!(live[0].path, p("/"));
    }

    #[test]
    fn unsafe_defaults_per_os() {
        let unix = HostStyle::Unix;
        let home = Some(Path::new("/home/ada"));
        assert_eq!(
            unsafe_default(Path::new("/"), home, unix),
            Some("a filesystem root")
        );
        assert_eq!(
            unsafe_default(Path::new("/home/ada"), home, unix),
            Some("your home folder")
        );
        assert_eq!(
            unsafe_default(Path::new("/home/ada/"), home, unix),
            Some("your home folder")
        );
        assert_eq!(
            unsafe_default(Path::new("/home"), home, unix),
            Some("a folder that contains your home folder")
        );
        for fine in ["/home/ada/src/app", "/home/adam", "/srv/app", "/tmp"] {
            assert_eq!(unsafe_default(Path::new(fine), home, unix), None, "{fine}");
        }
        assert_eq!(
            unsafe_default(Path::new("/"), None, unix),
            Some("a filesystem root")
        );
        let mac = Some(Path::new("/Users/ada"));
        assert!(unsafe_default(Path::new("/Users"), mac, unix).is_some());
        let win = HostStyle::Windows;
        let whome = Some(Path::new("C:\\Users\\ada"));
        for root in [
            "C:\\",
            "c:",
            "D:\\",
            "\\\\?\\C:\\",
            "\\\\server\\share",
            "\\\\server\\share\\",
            "\\\\?\\UNC\\server\\share",
        ] {
            assert_eq!(
                unsafe_default(Path::new(root), whome, win),
                Some("a filesystem root"),
                "{root}"
            );
        }
        assert_eq!(
            unsafe_default(Path::new("c:\\users\\ADA"), whome, win),
            Some("your home folder")
        );
        assert!(unsafe_default(Path::new("C:\\Users"), whome, win).is_some());
        for fine in ["C:\\Users\\ada\\src", "D:\\work", "\\\\server\\share\\proj"] {
            assert_eq!(unsafe_default(Path::new(fine), whome, win), None, "{fine}");
        }
    }

    #[test]
    fn only_local_file_uris_are_roots() {
        let unix = HostStyle::Unix;
        assert_eq!(
            file_uri_to_path("file:///home/ada/app", unix),
            Some(p("/home/ada/app"))
        );
        assert_eq!(
            file_uri_to_path("file://localhost/srv/x", unix),
            Some(p("/srv/x"))
        );
        assert_eq!(
            file_uri_to_path("file:///home/ada/my%20app%C3%A9", unix),
            Some(p("/home/ada/my appé"))
        );
        for not_local in [
            "https://example.com/repo",
            "vscode-remote://ssh-remote+box/home/x",
            "file://attacker.example/share",
            "file:relative",
            "/home/ada/app",
            "file:///home/%00/x",
            "file:///home/%FF",
        ] {
            assert_eq!(file_uri_to_path(not_local, unix), None, "{not_local}");
        }
        let win = HostStyle::Windows;
        assert_eq!(
            file_uri_to_path("file:///c%3A/Users/ada/app", win),
            Some(p("c:\\Users\\ada\\app"))
        );
        assert_eq!(file_uri_to_path("file:///C:/src", win), Some(p("C:\\src")));
        assert_eq!(file_uri_to_path("file://server/share/x", win), None);
        assert_eq!(file_uri_to_path("file:///no-drive", win), None);
    }

    fn root_at(dir: &Path) -> ProjectRoot {
        ProjectRoot::open(dir).unwrap()
    }

    #[test]
    fn live_roots_change_as_a_whole_and_share_identical_lists() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let live = LiveRoots::pending();
        assert!(!live.is_ready() && live.is_empty());
        assert!(live.set(vec![root_at(a.path())]));
        let first: &Vec<ProjectRoot> = &live;
        assert!(live.is_ready());
        assert!(live.set(vec![root_at(b.path())]));
        // A reference taken before the change still reads the old list.
        assert_eq!(first[0].path, root_at(a.path()).path);
        assert_eq!(live[0].path, root_at(b.path()).path);
        assert!(live.set(vec![root_at(a.path())]));
        assert_eq!(
            live.kept.lock().unwrap().len(),
            2,
            "the same list is not kept twice"
        );
    }

    /// A tool handler with one tool whose result is fixed, to see what the wrapper adds.
    #[derive(Clone)]
    struct Echo;

    impl ServerHandler for Echo {
        fn get_info(&self) -> InitializeResult {
            InitializeResult::new(
                rmcp::model::ServerCapabilities::builder()
                    .enable_tools()
                    .build(),
            )
            .with_instructions("Base instructions.")
        }

        async fn list_tools(
            &self,
            _request: Option<PaginatedRequestParams>,
            _context: RequestContext<RoleServer>,
        ) -> Result<ListToolsResult, ErrorData> {
            Ok(ListToolsResult::with_all_items(vec![Tool::new(
                "echo",
                "echo",
                Arc::new(serde_json::Map::new()),
            )]))
        }

        async fn call_tool(
            &self,
            _request: CallToolRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            Ok(CallToolResult::success(vec![ContentBlock::text("tool output")]).into())
        }
    }

    struct Fixed(LiveRoots);

    impl AsRef<LiveRoots> for Fixed {
        fn as_ref(&self) -> &LiveRoots {
            &self.0
        }
    }

    #[tokio::test]
    async fn the_version_note_goes_to_the_instructions_never_to_a_tool_result() {
        use rmcp::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        let note = crate::update_hint::note(
            Some(crate::update_hint::Release {
                version: "0.1.0",
                date: "2026-01-05",
            }),
            "2026-03-01".parse().unwrap(),
            false,
            "devprojex self-update",
        );
        assert!(note.is_some());
        let handler = SessionHandler::new(
            Echo,
            Arc::new(Fixed(LiveRoots::fixed(vec![root_at(dir.path())]))),
            Arc::new(Mode::Fixed),
            Arc::new(Exit::default()),
            note.clone(),
        );
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let (sr, sw) = tokio::io::split(server_io);
        let (cr, cw) = tokio::io::split(client_io);
        let server =
            tokio::spawn(async move { handler.serve((sr, sw)).await.unwrap().waiting().await });
        let client = ().serve((cr, cw)).await.unwrap();
        let info = client.peer_info().unwrap();
        let instructions = info.instructions.clone().unwrap();
        assert_eq!(
            instructions,
            format!("Base instructions. {}", note.unwrap()),
            "one sentence after the base"
        );
        let result = client
            .call_tool(rmcp::model::CallToolRequestParams::new("echo"))
            .await
            .unwrap();
        let text = serde_json::to_string(&result).unwrap();
        assert!(text.contains("tool output"), "{text}");
        assert!(!text.contains("newer release"), "{text}");
        client.cancel().await.unwrap();
        let _ = server.await;
    }
}
