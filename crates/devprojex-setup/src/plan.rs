//! Planning and applying setup: for each client, read its config, decide what to do, and write.

use std::path::PathBuf;

use serde_json::Value;

use crate::client::{ClientId, Format, Scope, config_path};
use crate::edit;
use crate::entry::{Entry, EntryState, ServerFlags, classify, command_resolves, looks_like_ours};
use crate::env::SetupEnv;
use crate::error::{Result, SetupError};
use crate::fsio::{self, ConfigFile, WriteReport};

/// What setup writes, independent of the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// User or project scope.
    pub scope: Scope,
    /// The entry name (`devprojex` by default).
    pub name: String,
    /// The command written.
    pub command: String,
    /// Server flags; `roots` empty means "no `--root`" (VS Code project scope then uses `${workspaceFolder}`).
    pub flags: ServerFlags,
}

impl Options {
    /// The entry for `client`.
    pub fn entry_for(&self, client: ClientId) -> Entry {
        let mut flags = self.flags.clone();
        if flags.roots.is_empty() && self.scope == Scope::Project && client == ClientId::VsCode {
            flags.roots.push("${workspaceFolder}".into());
        }
        Entry {
            with_type: client.writes_type(),
            command: self.command.clone(),
            args: flags.args(),
        }
    }
}

/// What setup will do (or did) to one client's config.
#[derive(Debug)]
pub enum Action {
    /// Create the file with the entry.
    Create,
    /// Add the entry to an existing file.
    Add,
    /// Update an entry that setup wrote earlier with other flags or another path.
    Update,
    /// Replace an entry changed by hand (`--force`).
    Replace,
    /// The entry is already exactly what setup writes.
    Unchanged,
    /// Remove the entry.
    Remove,
    /// Nothing to remove.
    NotPresent,
    /// An entry changed by hand is in the way and `--force` was not given.
    Conflict,
    /// The file cannot be edited (parse error, I/O error...).
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
        matches!(self, Action::Conflict | Action::Failed(_))
    }

    /// Short description for the plan.
    pub fn describe(&self) -> String {
        match self {
            Action::Create => "create the file with the entry".into(),
            Action::Add => "add the entry".into(),
            Action::Update => "update the command path of the entry written by an earlier setup".into(),
            Action::Replace => "replace the differing entry (--force)".into(),
            Action::Unchanged => "already configured, nothing to change".into(),
            Action::Remove => "remove the entry".into(),
            Action::NotPresent => "no entry, nothing to remove".into(),
            Action::Conflict => {
                "the entry differs (changed by hand, or written with other flags): left untouched, use --force to replace it".into()
            }
            Action::Failed(e) => format!("error {}: {e}", e.code()),
        }
    }
}

/// One client's part of the plan.
#[derive(Debug)]
pub struct PlanItem {
    /// The client.
    pub client: ClientId,
    /// Its config file (as configured; edits land at a symlink's target).
    pub path: PathBuf,
    /// The file as read (absent when reading failed).
    pub file: Option<ConfigFile>,
    /// The new text when the action writes.
    pub new_text: Option<String>,
    /// What happens.
    pub action: Action,
    /// The entry found in the file, if any.
    pub existing: Option<Value>,
    /// The entry setup writes.
    pub wanted: Entry,
}

/// Plans the change for one client.
pub fn plan_client(
    client: ClientId,
    env: &SetupEnv,
    opts: &Options,
    remove: bool,
    force: bool,
) -> Result<PlanItem> {
    let path = config_path(client, opts.scope, env)?.ok_or_else(|| {
        SetupError::Usage(format!(
            "{} has no project-scope config; use --scope user for it",
            client.name()
        ))
    })?;
    let wanted = opts.entry_for(client);
    let mut item = PlanItem {
        client,
        path: path.clone(),
        file: None,
        new_text: None,
        action: Action::Unchanged,
        existing: None,
        wanted,
    };
    let file = match fsio::load(&path) {
        Ok(f) => f,
        Err(e) => {
            item.action = Action::Failed(e);
            return Ok(item);
        }
    };
    match decide(client, &file, &item.wanted, &opts.name, remove, force) {
        Ok((action, existing, new_text)) => {
            item.action = action;
            item.existing = existing;
            item.new_text = new_text;
        }
        Err(e) => item.action = Action::Failed(e),
    }
    item.file = Some(file);
    Ok(item)
}

type Decision = (Action, Option<Value>, Option<String>);

fn decide(
    client: ClientId,
    file: &ConfigFile,
    wanted: &Entry,
    name: &str,
    remove: bool,
    force: bool,
) -> Result<Decision> {
    let (format, container) = (client.format(), client.container());
    let text = file.text_or_empty();
    let existing = edit::read_entry(text, format, container, name, &file.path)?;
    if remove {
        return Ok(match &existing {
            None => (Action::NotPresent, None, None),
            Some(v) if !force && !looks_like_ours(v) => (Action::Conflict, existing, None),
            Some(_) => {
                let new = edit::remove(text, format, container, name, &file.path)?;
                (Action::Remove, existing, Some(new))
            }
        });
    }
    let action = match &existing {
        None if file.text.is_none() => Action::Create,
        None => Action::Add,
        Some(v) => match classify(v, wanted) {
            EntryState::Current => return Ok((Action::Unchanged, existing, None)),
            EntryState::Outdated => Action::Update,
            EntryState::Modified if force => Action::Replace,
            EntryState::Modified => return Ok((Action::Conflict, existing, None)),
        },
    };
    let new = edit::upsert(text, format, container, name, wanted, &file.path)?;
    if new == text && file.text.is_some() {
        return Ok((Action::Unchanged, existing, None));
    }
    Ok((action, existing, Some(new)))
}

/// Writes one planned change. User-scope files created by setup get owner-only permissions.
pub fn apply_item(item: &PlanItem, scope: Scope) -> Result<WriteReport> {
    let (Some(file), Some(text)) = (&item.file, &item.new_text) else {
        return Ok(WriteReport::default());
    };
    fsio::write(file, text, scope == Scope::User)
}

/// The state of a client's entry, for `setup status` and `doctor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The config file does not exist.
    NoFile,
    /// The file exists but has no entry of that name.
    NotConfigured,
    /// The entry is exactly what setup would write now.
    Current,
    /// The entry was written by setup but with other flags or another command path.
    Outdated,
    /// The entry's command cannot be found (the binary moved or was removed).
    Stale(String),
    /// The entry was changed by hand (or is another server with the same name).
    Modified,
    /// The file cannot be read or parsed.
    Error(String),
}

impl Status {
    /// Short label.
    pub fn label(&self) -> String {
        match self {
            Status::NoFile => "no config file".into(),
            Status::NotConfigured => "not configured".into(),
            Status::Current => "present, current".into(),
            Status::Outdated => {
                "present, points at another devprojex binary (run setup to update)".into()
            }
            Status::Stale(cmd) => format!("present, STALE: command not found: {cmd}"),
            Status::Modified => {
                "present, differs from what setup would write with these flags".into()
            }
            Status::Error(e) => format!("ERROR: {e}"),
        }
    }

    /// Whether this is a problem for doctor.
    pub fn is_problem(&self) -> bool {
        matches!(self, Status::Stale(_) | Status::Error(_))
    }
}

/// The status of `client`'s entry named `opts.name` at `path`.
pub fn status_of(
    client: ClientId,
    path: &std::path::Path,
    env: &SetupEnv,
    opts: &Options,
) -> Status {
    let file = match fsio::load(path) {
        Ok(f) => f,
        Err(e) => return Status::Error(format!("{} {e}", e.code())),
    };
    let Some(text) = &file.text else {
        return Status::NoFile;
    };
    let format: Format = client.format();
    let existing = match edit::read_entry(text, format, client.container(), &opts.name, path) {
        Ok(v) => v,
        Err(e) => return Status::Error(format!("{} {e}", e.code())),
    };
    let Some(existing) = existing else {
        return Status::NotConfigured;
    };
    if let Some(cmd) = existing.get("command").and_then(Value::as_str)
        && !command_resolves(cmd, env)
    {
        return Status::Stale(cmd.to_string());
    }
    match classify(&existing, &opts.entry_for(client)) {
        EntryState::Current => Status::Current,
        EntryState::Outdated => Status::Outdated,
        EntryState::Modified => Status::Modified,
    }
}
