//! Planning and applying setup: for each client, find the places its entry lives, read them,
//! decide what to do, and write. A file's new text is always computed from the file as it is at
//! write time; the plan's copy only decides what to do.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::client::{
    ClientId, Format, Location, Place, RootPolicy, Scope, claude_project_key, legacy_location,
    local_location, project_location, same_claude_key, user_location,
};
use crate::edit;
use crate::entry::{
    Entry, EntryState, ServerFlags, classify, command_target_in, entry_args, is_dev_build,
    likely_path, looks_like_ours, roots_of, without_roots,
};
use crate::env::SetupEnv;
use crate::error::{Result, SetupError};
use crate::fsio::{self, ConfigFile, WriteOptions, WriteReport};

/// The command written for clients started from a terminal and from the desktop (their `PATH`
/// differs, so the same binary may need its absolute path in one and not the other).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commands {
    /// For Claude Code, Codex, Gemini CLI and Copilot CLI.
    pub terminal: String,
    /// For Claude Desktop, Antigravity, Cursor, VS Code, Windsurf and Zed.
    pub desktop: String,
    /// The user chose the spelling (`--command-path absolute` or `name`): an entry spelled
    /// otherwise is updated even when it runs the same binary.
    pub exact: bool,
}

impl Commands {
    /// The same command for every client.
    pub fn same(command: &str) -> Commands {
        Commands {
            terminal: command.into(),
            desktop: command.into(),
            exact: false,
        }
    }

    /// The command for `client`.
    pub fn for_client(&self, client: ClientId) -> &str {
        match client.launch() {
            crate::client::Launch::Terminal => &self.terminal,
            crate::client::Launch::Desktop => &self.desktop,
        }
    }
}

/// What setup writes, independent of the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// User or project scope.
    pub scope: Scope,
    /// The entry name (`devprojex` by default).
    pub name: String,
    /// The command written.
    pub commands: Commands,
    /// Server flags; `roots` are the `--root` values given (empty: each client's default).
    pub flags: ServerFlags,
}

impl Options {
    /// The entry for `client` in this scope: the given roots, else what the client resolves
    /// (`${workspaceFolder}` for Cursor and VS Code project files, nothing for clients that
    /// start in the project or send MCP roots; clients that give no project get none here and
    /// need `--root`, see [`needs_root`]).
    pub fn entry_for(&self, client: ClientId) -> Entry {
        self.entry_in(client, self.scope)
    }

    /// [`Options::entry_for`] for a place of another scope.
    pub fn entry_in(&self, client: ClientId, scope: Scope) -> Entry {
        let mut flags = self.flags.clone();
        if flags.roots.is_empty() && client.root_policy(scope) == RootPolicy::WorkspaceVariable {
            flags.roots.push("${workspaceFolder}".into());
        }
        Entry {
            with_type: client.writes_type(),
            command: self.commands.for_client(client).to_string(),
            args: flags.args(),
            extra: client.extra_fields(),
        }
    }
}

/// Whether an entry for `client` needs `--root`: the client gives the server no project.
pub fn needs_root(client: ClientId, scope: Scope) -> bool {
    client.root_policy(scope) == RootPolicy::Named
}

/// What setup will do (or did) at one place.
#[derive(Debug)]
pub enum Action {
    /// Create the file with the entry.
    Create,
    /// Add the entry to an existing file.
    Add,
    /// Update an entry that setup wrote earlier (command path moved, default root added).
    Update,
    /// Replace an entry changed by hand (`--force`).
    Replace,
    /// The entry is already exactly what setup writes.
    Unchanged,
    /// Remove the entry.
    Remove,
    /// Nothing to remove.
    NotPresent,
    /// An entry that differs is in the way and `--force` was not given.
    Conflict {
        /// Whether setup was removing (the message then says "remove", not "replace").
        removing: bool,
    },
    /// Left as it is on purpose; the text says why.
    Kept(String),
    /// The user chose not to configure this client.
    Skipped,
    /// The place cannot be edited (parse error, I/O error, no root...).
    Failed(SetupError),
}

impl Action {
    /// Whether the action writes the file.
    pub fn writes(&self) -> bool {
        matches!(
            self,
            Action::Create | Action::Add | Action::Update | Action::Replace | Action::Remove
        )
    }

    /// Whether the action is a problem (conflict or failure).
    pub fn is_problem(&self) -> bool {
        matches!(self, Action::Conflict { .. } | Action::Failed(_))
    }

    /// Short description for the plan.
    pub fn describe(&self) -> String {
        match self {
            Action::Create => "create the file with the entry".into(),
            Action::Add => "add the entry".into(),
            Action::Update => "update the entry written by an earlier setup".into(),
            Action::Replace => "replace the differing entry (--force)".into(),
            Action::Unchanged => "already configured, nothing to change".into(),
            Action::Remove => "remove the entry".into(),
            Action::NotPresent => "no entry, nothing to remove".into(),
            Action::Conflict { removing: false } => {
                "the entry differs (changed by hand, or written with other flags): left untouched, use --force to replace it".into()
            }
            Action::Conflict { removing: true } => {
                "the entry is not one setup writes (another server of this name?): left untouched, use --force to remove it anyway".into()
            }
            Action::Kept(why) => why.clone(),
            Action::Skipped => "skipped (no project folder given)".into(),
            Action::Failed(_) => "cannot be edited (the error is shown below)".into(),
        }
    }

    /// Same decision (for re-planning against a file that changed meanwhile).
    fn same_as(&self, other: &Action) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// One place's part of the plan.
#[derive(Debug)]
pub struct PlanItem {
    /// Where.
    pub location: Location,
    /// The file as read when planning (absent when reading failed).
    pub file: Option<ConfigFile>,
    /// What happens.
    pub action: Action,
    /// The entry found there, if any.
    pub existing: Option<Value>,
    /// The entry setup writes there.
    pub wanted: Entry,
    /// Extra lines for the plan (not detected, kept elsewhere...).
    pub notes: Vec<String>,
}

impl PlanItem {
    /// The client.
    pub fn client(&self) -> ClientId {
        self.location.client
    }

    /// The config file as configured.
    pub fn path(&self) -> &Path {
        &self.location.path
    }
}

/// What the plan is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Register the entry.
    Add,
    /// Remove the entry.
    Remove,
}

/// The places setup acts on for `client`: for adding, the scope's file (Claude Code: its local
/// entry for this project when one exists, so no duplicate goes to user scope; Antigravity: the
/// current file and the pre-2.0 one when it exists); for removing, every user-side place
/// (Claude Code: user scope and every project's local scope) or the project file.
pub fn places(
    client: ClientId,
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
) -> Result<Vec<Location>> {
    if opts.scope == Scope::Project {
        return project_location(client, env)
            .map(|l| vec![l])
            .ok_or_else(|| {
                SetupError::Usage(format!(
                    "{} has no project-scope config; use --scope user for it",
                    client.name()
                ))
            });
    }
    let mut out = vec![user_location(client, env)?];
    match (client, mode) {
        (ClientId::ClaudeCode, Mode::Add) => {
            let key = claude_project_key(env);
            if let Some(local) = local_entries(env, &opts.name)?
                .into_iter()
                .find(|project| same_claude_key(env.os, project, &key))
            {
                out = vec![local_location(env, &local)?];
            }
        }
        (ClientId::ClaudeCode, Mode::Remove) => {
            for project in local_entries(env, &opts.name)? {
                out.push(local_location(env, &project)?);
            }
        }
        (ClientId::Antigravity, _) => {
            let legacy = legacy_location(env)?;
            if legacy.path.exists() {
                out.push(legacy);
            }
        }
        _ => {}
    }
    Ok(out)
}

/// The `projects` keys of `~/.claude.json` whose local scope has an entry `name` (empty when the
/// file is missing). A file that does not parse, or lists a project twice, is an error: setup
/// cannot tell which local entries exist, so it must not say there are none.
pub fn local_entries(env: &SetupEnv, name: &str) -> Result<Vec<String>> {
    let path = crate::client::user_config_path(ClientId::ClaudeCode, env)?;
    let file = fsio::load(&path)?;
    let Some(text) = file.text else {
        return Ok(Vec::new());
    };
    edit::keys_with_entry(&text, &["projects"], &["mcpServers"], name, &path)
}

/// Plans every place of `client`.
pub fn plan_client(
    client: ClientId,
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
    force: bool,
) -> Result<Vec<PlanItem>> {
    let locations = match places(client, env, opts, mode) {
        Ok(l) => l,
        // The user file cannot be read as a whole (it does not parse, or a key on the way to
        // the local scopes is there twice): that place fails, naming why.
        Err(e @ (SetupError::NoLocation { .. } | SetupError::Usage(_))) => return Err(e),
        Err(e) => {
            let mut item = plan_location(user_location(client, env)?, env, opts, mode, force);
            if !item.action.is_problem() {
                item.action = Action::Failed(e);
            }
            return Ok(vec![item]);
        }
    };
    Ok(locations
        .into_iter()
        .map(|l| plan_location(l, env, opts, mode, force))
        .collect())
}

/// Plans one place.
pub fn plan_location(
    location: Location,
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
    force: bool,
) -> PlanItem {
    let wanted = opts.entry_in(location.client, location.place.scope());
    let mut item = PlanItem {
        location,
        file: None,
        action: Action::Unchanged,
        existing: None,
        wanted,
        notes: Vec::new(),
    };
    match fsio::load(&item.location.path) {
        Ok(file) => {
            match decide(
                &item.location,
                file.text.as_deref(),
                &item.wanted,
                env,
                opts,
                mode,
                force,
            ) {
                Ok((action, existing, wanted)) => {
                    item.action = action;
                    item.existing = existing;
                    item.wanted = wanted;
                    item.notes.extend(entry_notes(&item, env));
                }
                Err(e) => item.action = Action::Failed(e),
            }
            item.file = Some(file);
        }
        Err(e) => item.action = Action::Failed(e),
    }
    item
}

/// Decides what to do at `location` given its text. Returns the action, the entry found, and
/// the entry to write (a client that needs `--root` keeps the roots of its existing entry).
fn decide(
    location: &Location,
    text: Option<&str>,
    wanted: &Entry,
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
    force: bool,
) -> Result<(Action, Option<Value>, Entry)> {
    let client = location.client;
    let keys = location.key_refs();
    let existing = match text {
        Some(t) => edit::read_entry_at(t, client.format(), &keys, &opts.name, &location.path)?,
        None => None,
    };
    let mut wanted = wanted.clone();
    if mode == Mode::Remove {
        let action = match &existing {
            None => Action::NotPresent,
            Some(v) if !force && !looks_like_ours(v) => Action::Conflict { removing: true },
            Some(_) => Action::Remove,
        };
        return Ok((action, existing, wanted));
    }
    // A client that gives no project keeps the folders its entry already names.
    if needs_root(client, location.place.scope()) && opts.flags.roots.is_empty() {
        let kept = existing
            .as_ref()
            .filter(|v| looks_like_ours(v))
            .and_then(entry_args)
            .map(|a| roots_of(&a))
            .unwrap_or_default();
        if kept.is_empty() {
            return Err(SetupError::NeedsRoot {
                client: client.display(),
            });
        }
        let mut flags = opts.flags.clone();
        flags.roots = kept;
        wanted.args = flags.args();
    }
    let action = match &existing {
        None if text.is_none() => Action::Create,
        None => Action::Add,
        Some(v) => match classify(v, &wanted) {
            EntryState::Current => Action::Unchanged,
            EntryState::Outdated if !opts.commands.exact && runs_this_binary(v, client, env) => {
                Action::Unchanged
            }
            EntryState::Outdated => match installed_binary_kept(v, env, force) {
                Some(why) => Action::Kept(why),
                None => Action::Update,
            },
            EntryState::Incomplete => {
                // Only the missing keys are added: a command that runs this binary, or the
                // installed one a development build never replaces, stays as it is.
                let keep = (!opts.commands.exact && runs_this_binary(v, client, env))
                    || installed_binary_kept(v, env, force).is_some();
                if let (true, Some(cmd)) = (keep, v.get("command").and_then(Value::as_str)) {
                    wanted.command = cmd.to_string();
                }
                if classify(v, &wanted) == EntryState::Current {
                    Action::Unchanged
                } else {
                    Action::Update
                }
            }
            EntryState::Modified if only_default_root_added(v, &wanted, opts) => Action::Update,
            EntryState::Modified if replaces_missing_roots(v, &wanted, opts) => Action::Update,
            EntryState::Modified if force => Action::Replace,
            EntryState::Modified => Action::Conflict { removing: false },
        },
    };
    Ok((action, existing, wanted))
}

/// What the plan says about the entry found: it runs another installed copy of devprojex (two
/// copies re-point the entries at themselves on every run), or names `--root` folders that no
/// longer exist (the server cannot start there).
fn entry_notes(item: &PlanItem, env: &SetupEnv) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(existing) = item.existing.as_ref().filter(|v| looks_like_ours(v)) else {
        return notes;
    };
    if matches!(item.action, Action::Update)
        && let (Some(cmd), Some(exe)) = (
            existing.get("command").and_then(Value::as_str),
            env.current_exe.as_ref(),
        )
        && let Some(other) = command_target_in(cmd, env, &likely_path(env, item.client().launch()))
        && !crate::entry::same_file(&other, exe)
        && !is_dev_build(&other)
    {
        notes.push(format!(
            "the entry runs another installed devprojex ({}); setup points it at this one ({}). With two copies installed, each one's setup points the entries back at itself: uninstall the copy you do not use",
            other.display(),
            exe.display()
        ));
    }
    let missing: Vec<String> = entry_args(existing)
        .map(|a| roots_of(&a))
        .unwrap_or_default()
        .into_iter()
        .filter(|r| !r.contains("${") && !Path::new(r).is_dir())
        .collect();
    if !missing.is_empty() {
        notes.push(format!(
            "the entry's --root {} no longer exist{}: the server cannot start there; run setup with --root NEW-FOLDER to replace {}",
            missing.join(", "),
            if missing.len() == 1 { "s" } else { "" },
            if missing.len() == 1 { "it" } else { "them" },
        ));
    }
    notes
}

/// Whether the existing entry differs only in `--root` folders that no longer exist, replaced by
/// the ones given now: setup replaces such a broken entry without `--force`.
fn replaces_missing_roots(existing: &Value, wanted: &Entry, opts: &Options) -> bool {
    let Some(args) = entry_args(existing) else {
        return false;
    };
    let roots = roots_of(&args);
    looks_like_ours(existing)
        && !opts.flags.roots.is_empty()
        && !roots.is_empty()
        && roots
            .iter()
            .all(|r| !r.contains("${") && !Path::new(r).is_dir())
        && without_roots(&args) == without_roots(&wanted.args)
}

/// An entry setup wrote before per-client roots existed (a bare `mcp`) is brought up to date
/// without `--force` when the only difference is the root the client now gets by default.
fn only_default_root_added(existing: &Value, wanted: &Entry, opts: &Options) -> bool {
    let Some(args) = entry_args(existing) else {
        return false;
    };
    looks_like_ours(existing)
        && opts.flags.roots.is_empty()
        && roots_of(&args).is_empty()
        && !roots_of(&wanted.args).is_empty()
        && without_roots(&args) == without_roots(&wanted.args)
}

/// Whether the entry's command, as the client resolves it, runs the current executable (then a
/// different spelling, `devprojex` or its absolute path, is the same entry).
fn runs_this_binary(existing: &Value, client: ClientId, env: &SetupEnv) -> bool {
    let (Some(cmd), Some(exe)) = (
        existing.get("command").and_then(Value::as_str),
        env.current_exe.as_ref(),
    ) else {
        return false;
    };
    command_target_in(cmd, env, &likely_path(env, client.launch()))
        .is_some_and(|t| crate::entry::same_file(&t, exe))
}

/// A development build never re-points a working entry that runs an installed devprojex.
fn installed_binary_kept(existing: &Value, env: &SetupEnv, force: bool) -> Option<String> {
    let exe = env.current_exe.as_ref()?;
    if force || !is_dev_build(exe) {
        return None;
    }
    let cmd = existing.get("command")?.as_str()?;
    let target = command_target_in(cmd, env, &env.path)?;
    (!is_dev_build(&target)).then(|| {
        format!(
            "kept: it runs the installed devprojex ({}), which a development build never replaces (--force replaces it)",
            target.display()
        )
    })
}

/// The new text of one file: every writing item's edit applied in turn to `text`.
pub fn edited_text(text: &str, items: &[&PlanItem], name: &str) -> Result<String> {
    let mut out = text.to_string();
    for item in items.iter().filter(|i| i.action.writes()) {
        let keys = item.location.key_refs();
        let format = item.client().format();
        out = match item.action {
            Action::Remove => edit::remove_at(&out, format, &keys, name, item.path())?,
            _ => edit::upsert_at(&out, format, &keys, name, &item.wanted, item.path())?,
        };
    }
    Ok(out)
}

/// The plan's items grouped by the file they write (in plan order).
pub fn files_to_write(items: &[PlanItem]) -> Vec<Vec<usize>> {
    let mut groups: Vec<(PathBuf, Vec<usize>)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if !item.action.writes() {
            continue;
        }
        let real = item
            .file
            .as_ref()
            .map(|f| f.real.clone())
            .unwrap_or_else(|| item.path().to_path_buf());
        match groups.iter_mut().find(|(p, _)| *p == real) {
            Some((_, g)) => g.push(i),
            None => groups.push((real, vec![i])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// What writing one file gave.
#[derive(Debug)]
pub enum FileOutcome {
    /// Written.
    Written(WriteReport),
    /// The file changed since the plan and the decision for it is different now: plan again
    /// (and ask again on a terminal).
    Replan,
    /// Failed.
    Failed(SetupError),
}

/// Writes one file's items. The new text is computed from the file as it is now, and again
/// from every newer text another program writes before setup's swap lands
/// ([`fsio::write_edited`]); whenever the file differs from the plan's copy, the decisions are
/// made again and must be the same (else [`FileOutcome::Replan`], and the file is left as the
/// other program wrote it).
pub fn apply_file(
    items: &[&PlanItem],
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
    force: bool,
    write: &WriteOptions,
) -> FileOutcome {
    apply_file_with_hook(items, env, opts, mode, force, write, &mut |_, _| Ok(()))
}

/// [`apply_file`] with [`fsio::write_edited`]'s hook (tests write the file there, as a running
/// client would).
pub fn apply_file_with_hook(
    items: &[&PlanItem],
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
    force: bool,
    write: &WriteOptions,
    hook: fsio::SwapHook<'_>,
) -> FileOutcome {
    let first = items[0];
    let format = first.client().format();
    let fresh = match fsio::load(first.path()) {
        Ok(f) => f,
        Err(e) => return FileOutcome::Failed(e),
    };
    let planned = first.file.as_ref().and_then(|f| f.text.clone());
    let mut replan = false;
    let mut edit = |current: Option<&str>| -> Result<String> {
        if current != planned.as_deref() {
            for item in items {
                match decide(
                    &item.location,
                    current,
                    &item.wanted,
                    env,
                    opts,
                    mode,
                    force,
                ) {
                    Ok((action, existing, _))
                        if action.same_as(&item.action) && existing == item.existing => {}
                    // Another program made the very change setup was about to make.
                    Ok((Action::Unchanged, ..)) if mode == Mode::Add => {}
                    Ok((Action::NotPresent, ..)) if mode == Mode::Remove => {}
                    _ => {
                        replan = true;
                        return Err(SetupError::Changed {
                            path: first.path().to_path_buf(),
                        });
                    }
                }
            }
        }
        edited_text(current.unwrap_or(""), items, &opts.name)
    };
    let carry =
        |shown: &str, lost: &str, newer: &str| crate::carry::carry_over(format, shown, lost, newer);
    let result = fsio::write_edited(&fresh, write, &mut edit, &carry, hook);
    match result {
        Ok(report) => FileOutcome::Written(report),
        Err(_) if replan => FileOutcome::Replan,
        Err(e) => FileOutcome::Failed(e),
    }
}

/// Whether `text` holds nothing but empty objects (`{"mcpServers": {}}`) or nothing at all, and
/// no comment: what a file setup created is after its entry is removed.
pub fn is_effectively_empty(text: &str, format: Format) -> bool {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if body.trim().is_empty() {
        return true;
    }
    match format {
        Format::Toml => body
            .lines()
            .all(|l| l.trim().is_empty() || is_empty_table_header(l.trim())),
        Format::Json | Format::Jsonc => {
            if body.contains("//") || body.contains("/*") {
                return false;
            }
            fn empty(v: &Value) -> bool {
                v.as_object().is_some_and(|o| o.values().all(empty))
            }
            serde_json::from_str::<Value>(body).is_ok_and(|v| empty(&v))
        }
    }
}

fn is_empty_table_header(line: &str) -> bool {
    line.starts_with('[') && line.ends_with(']') && !line.contains('=')
}

/// The state of an entry, for `setup status` and `doctor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The config file does not exist.
    NoFile,
    /// The file exists but has no entry of that name.
    NotConfigured,
    /// The entry is exactly what setup would write now.
    Current,
    /// The entry was written by setup but points at another devprojex binary.
    Outdated,
    /// The entry lacks a key setup writes now (Claude Code's `"alwaysLoad": true`).
    Incomplete,
    /// The entry's command cannot be found (the binary moved or was removed).
    Stale(String),
    /// The entry was changed by hand, written with other flags, or is another server.
    Modified,
    /// The file cannot be read or parsed.
    Error(String),
}

impl Status {
    /// Every label (for `setup status --help`, which must list what status prints).
    pub const LABELS: [&'static str; 8] = [
        "no config file",
        "not configured",
        "present, current",
        "present, points at another devprojex binary (run setup to update)",
        "present, lacks a key setup now writes, such as alwaysLoad (run setup to update)",
        "present, STALE: command not found: COMMAND",
        "present, differs from what setup would write with these flags",
        "ERROR: MESSAGE",
    ];

    /// Short label.
    pub fn label(&self) -> String {
        match self {
            Status::NoFile => Self::LABELS[0].into(),
            Status::NotConfigured => Self::LABELS[1].into(),
            Status::Current => Self::LABELS[2].into(),
            Status::Outdated => Self::LABELS[3].into(),
            Status::Incomplete => Self::LABELS[4].into(),
            Status::Stale(cmd) => Self::LABELS[5].replace("COMMAND", cmd),
            Status::Modified => Self::LABELS[6].into(),
            Status::Error(e) => Self::LABELS[7].replace("MESSAGE", e),
        }
    }

    /// Whether this is a problem for doctor.
    pub fn is_problem(&self) -> bool {
        matches!(self, Status::Stale(_) | Status::Error(_))
    }
}

/// The status of the entry named `opts.name` at `location`.
pub fn status_at(location: &Location, env: &SetupEnv, opts: &Options) -> Status {
    let path = &location.path;
    let client = location.client;
    let file = match fsio::load(path) {
        Ok(f) => f,
        Err(e) => return Status::Error(format!("{} {e}", e.code())),
    };
    let Some(text) = &file.text else {
        return Status::NoFile;
    };
    let keys = location.key_refs();
    let existing = match edit::read_entry_at(text, client.format(), &keys, &opts.name, path) {
        Ok(v) => v,
        Err(e) => return Status::Error(format!("{} {e}", e.code())),
    };
    let Some(existing) = existing else {
        return Status::NotConfigured;
    };
    if let Some(cmd) = existing.get("command").and_then(Value::as_str)
        && command_target_in(cmd, env, &likely_path(env, client.launch())).is_none()
    {
        return Status::Stale(cmd.to_string());
    }
    let mut wanted = opts.entry_in(client, location.place.scope());
    if needs_root(client, location.place.scope())
        && opts.flags.roots.is_empty()
        && let Some(args) = entry_args(&existing)
    {
        // Compare with the roots the entry names (status does not know which were meant).
        let mut flags = opts.flags.clone();
        flags.roots = roots_of(&args);
        wanted.args = flags.args();
    }
    match classify(&existing, &wanted) {
        EntryState::Current => Status::Current,
        EntryState::Outdated
            if !opts.commands.exact && runs_this_binary(&existing, client, env) =>
        {
            Status::Current
        }
        EntryState::Outdated => Status::Outdated,
        EntryState::Incomplete => Status::Incomplete,
        EntryState::Modified if only_default_root_added(&existing, &wanted, opts) => {
            Status::Outdated
        }
        EntryState::Modified => Status::Modified,
    }
}

/// Every place that may hold `client`'s entry for this folder, for status and doctor: user
/// scope, Claude Code's local scope of this project, the project file (unless it is the user
/// file, as when run from the home folder), and Antigravity's pre-2.0 file when it exists.
pub fn all_places(client: ClientId, env: &SetupEnv) -> Result<Vec<Location>> {
    let user = user_location(client, env)?;
    let mut out = vec![user.clone()];
    if client == ClientId::ClaudeCode {
        out.push(local_location(env, &claude_project_key(env))?);
    }
    if let Some(project) = project_location(client, env)
        && !same_path(&project.path, &user.path)
    {
        out.push(project);
    }
    if client == ClientId::Antigravity {
        let legacy = legacy_location(env)?;
        if legacy.path.exists() {
            out.push(legacy);
        }
    }
    Ok(out)
}

fn same_path(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| {
        p.parent()
            .and_then(|d| std::fs::canonicalize(d).ok())
            .map(|d| d.join(p.file_name().unwrap_or_default()))
            .unwrap_or_else(|| p.to_path_buf())
    };
    a == b || canon(a) == canon(b)
}

/// Whether `place` is Claude Code's local scope of a project other than this folder's.
pub fn is_other_project(place: &Place, env: &SetupEnv) -> bool {
    match place {
        Place::Local { project } => !same_claude_key(env.os, project, &claude_project_key(env)),
        _ => false,
    }
}
