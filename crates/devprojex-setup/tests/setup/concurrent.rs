//! No lost update, by construction (issue 37, item 2): a client that saves its config whenever
//! setup writes it never loses a save, over 100 rounds of `setup` and `setup --remove`.
//!
//! The client is a thread that watches the config's folder and, the moment one of setup's
//! temporary files appears (setup is between reading the file and replacing it), saves the file
//! the way Claude Code does: read, change one value, write a temporary file, rename it over the
//! config. Every save adds a key of its own; at the end every key must still be there.
#![cfg(not(windows))]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::Home;
use devprojex_setup::client::user_location;
use devprojex_setup::entry::ServerFlags;
use devprojex_setup::fsio::{SwapStep, TEMP_PREFIX, WriteOptions};
use devprojex_setup::plan::{
    Commands, FileOutcome, Mode, Options, PlanItem, apply_file_with_hook, plan_location,
};
use devprojex_setup::{ClientId, Scope};

/// One save as a client makes it: read, add `saves.sN`, write a temporary file, rename.
fn client_save(path: &Path, n: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the client read a broken file ({e}): {text}"));
    v["saves"][format!("s{n}")] = serde_json::json!(n);
    let tmp = path.with_file_name(format!(".claude.json.client-{n}"));
    std::fs::write(&tmp, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Setup's options for Claude Code's user config in `h`, as `setup` would use them.
fn claude_code_options(h: &Home) -> (Options, WriteOptions) {
    let opts = Options {
        scope: Scope::User,
        name: "devprojex".into(),
        commands: Commands::same(&h.exe()),
        flags: ServerFlags::default(),
    };
    let write = WriteOptions {
        private: true,
        backup_dir: Some(h.p("backups")),
        backup_label: "claude-code".into(),
        client_display: "Claude Code".into(),
        user: h.env.user,
        home: h.env.home.clone(),
    };
    (opts, write)
}

/// Round `round` of register (even) and remove (odd): its mode and setup's plan for Claude
/// Code's user config.
fn plan_round(h: &Home, opts: &Options, round: usize) -> (Mode, PlanItem) {
    let mode = if round.is_multiple_of(2) {
        Mode::Add
    } else {
        Mode::Remove
    };
    let location = user_location(ClientId::ClaudeCode, &h.env).unwrap();
    (mode, plan_location(location, &h.env, opts, mode, false))
}

/// After round `round`: setup wrote, and its change is made.
fn assert_round_applied(h: &Home, mode: Mode, round: usize, outcome: &FileOutcome) {
    assert!(
        matches!(outcome, FileOutcome::Written(_)),
        "round {round}: {outcome:?}"
    );
    let v = h.json(".claude.json");
    assert_eq!(
        v["mcpServers"].get("devprojex").is_some(),
        mode == Mode::Add,
        "round {round}: setup's change is made: {v}"
    );
}

/// Every one of the client's `saves` (`saves.s0` …) is in the config, and its first value too.
fn assert_every_save_kept(h: &Home, saves: usize) {
    let v = h.json(".claude.json");
    let lost: Vec<usize> = (0..saves)
        .filter(|n| v["saves"].get(format!("s{n}")).is_none())
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {saves} saves lost: {lost:?}",
        lost.len()
    );
    assert_eq!(v["numStartups"], 1);
}

fn setup_is_writing(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().any(|e| {
        e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(TEMP_PREFIX)
    })
}

#[test]
fn a_client_saving_whenever_setup_writes_loses_nothing_in_100_rounds() {
    let h = Home::new();
    h.write(".claude.json", "{\n  \"numStartups\": 1\n}\n");
    let path = h.p(".claude.json");
    let stop = Arc::new(AtomicBool::new(false));
    let saves = Arc::new(AtomicUsize::new(0));
    let client = {
        let (path, dir, stop, saves) = (
            path.clone(),
            h.root.clone(),
            Arc::clone(&stop),
            Arc::clone(&saves),
        );
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                if !setup_is_writing(&dir) {
                    std::hint::spin_loop();
                    continue;
                }
                let n = saves.fetch_add(1, Ordering::SeqCst);
                client_save(&path, n);
                // One save per write of setup's.
                let deadline = Instant::now() + Duration::from_secs(5);
                while setup_is_writing(&dir) && Instant::now() < deadline {
                    std::hint::spin_loop();
                }
            }
        })
    };
    for round in 0..100 {
        let argv: &[&str] = if round % 2 == 0 {
            &["setup", "--yes", "--client", "claude-code"]
        } else {
            &["setup", "--yes", "--remove", "--client", "claude-code"]
        };
        let r = h.run(argv);
        assert_eq!(r.code, 0, "round {round}: {}", r.all());
    }
    stop.store(true, Ordering::SeqCst);
    client.join().unwrap();
    let made = saves.load(Ordering::SeqCst);
    let v = h.json(".claude.json");
    let kept = v["saves"].as_object().map_or(0, |m| m.len());
    let lost: Vec<usize> = (0..made)
        .filter(|n| v["saves"].get(format!("s{n}")).is_none())
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {made} saves lost: {lost:?}",
        lost.len()
    );
    assert_eq!(kept, made);
    assert_eq!(v["numStartups"], 1);
    // The client met setup's writes (a thread that polls: on a loaded machine it misses some;
    // the test below makes every write meet a save).
    assert!(
        made >= 10,
        "only {made} saves: the client missed setup's writes"
    );
}

/// The same client, made to save at the worst moment of every write: after setup read the file
/// and staged its new text, just before the swap. 100 rounds of register and remove, 100 saves,
/// none lost, and every round ends with setup's change made.
#[test]
fn a_save_in_every_write_window_is_kept_and_the_edit_applied_to_it() {
    let h = Home::new();
    h.write(".claude.json", "{\n  \"numStartups\": 1\n}\n");
    let path = h.p(".claude.json");
    let (opts, write) = claude_code_options(&h);
    let mut saves = 0;
    for round in 0..100 {
        let (mode, item) = plan_round(&h, &opts, round);
        assert!(item.action.writes(), "round {round}: {:?}", item.action);
        let mut saved_this_round = false;
        let outcome =
            apply_file_with_hook(&[&item], &h.env, &opts, mode, false, &write, &mut |_, _| {
                if !std::mem::replace(&mut saved_this_round, true) {
                    client_save(&path, saves);
                    saves += 1;
                }
                Ok(())
            });
        assert_round_applied(&h, mode, round, &outcome);
    }
    assert_eq!(saves, 100);
    assert_every_save_kept(&h, saves);
}

/// A second client reads setup's text in the moment it is in place (between the swap that found
/// the first client's save and its undo) and saves from it. 100 rounds of register and remove,
/// two saves a round, none lost, and every round ends with setup's change made.
#[test]
fn a_save_made_from_setups_text_in_the_undo_window_loses_nothing() {
    let h = Home::new();
    h.write(".claude.json", "{\n  \"numStartups\": 1\n}\n");
    let path = h.p(".claude.json");
    let (opts, write) = claude_code_options(&h);
    let mut saves = 0;
    for round in 0..100 {
        let (mode, item) = plan_round(&h, &opts, round);
        let mut steps = Vec::new();
        let outcome = apply_file_with_hook(
            &[&item],
            &h.env,
            &opts,
            mode,
            false,
            &write,
            &mut |_, step| {
                steps.push(step);
                match steps[..] {
                    [SwapStep::Replace] | [SwapStep::Replace, SwapStep::Undo] => {
                        client_save(&path, saves);
                        saves += 1;
                    }
                    _ => {}
                }
                Ok(())
            },
        );
        assert_round_applied(&h, mode, round, &outcome);
        assert_eq!(
            steps[..2],
            [SwapStep::Replace, SwapStep::Undo],
            "round {round}"
        );
    }
    assert_eq!(saves, 200);
    assert_every_save_kept(&h, saves);
}
