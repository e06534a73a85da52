//! A three-way line merge: carries an edit made on a printer's normalised copy of a text back
//! onto the text itself.
//!
//! `toml_edit` prints a parsed document back byte for byte except around dotted keys: the
//! spaces around a dot of a key that several lines share (`a.b .c = 1` prints as `a.b.c`),
//! and the order of dotted keys interleaved with others in one table. Setup edits the
//! parsed document, so the print of the edit carries those changes too. With the print of the
//! unedited document as the base, the file's own lines as one side and the edited print as the
//! other, every line the edit did not touch comes back as the file had it.

/// Where a merge puts lines one side inserted at a place the other side also changed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    /// Where both sides inserted lines at one place, those of `ours` come first.
    pub(crate) ours_first: bool,
    /// Lines one side inserted inside lines the other side replaced go after the replacement
    /// (else before it).
    pub(crate) inside_goes_after: bool,
}

impl Placement {
    /// Every placement, for a caller that checks which one means the same.
    pub(crate) const ALL: [Placement; 4] = [
        Placement {
            ours_first: true,
            inside_goes_after: true,
        },
        Placement {
            ours_first: false,
            inside_goes_after: true,
        },
        Placement {
            ours_first: true,
            inside_goes_after: false,
        },
        Placement {
            ours_first: false,
            inside_goes_after: false,
        },
    ];
}

/// Merges `ours` and `theirs`, both derived from `base`; `None` where both changed the same
/// lines differently. Lines one side inserted where the other changed lines too are placed as
/// `placement` says (the caller checks which placement means the same). Lines are compared
/// without their line breaks (a printer may write LF where the file has CRLF), and every line
/// neither side changed comes from `ours`, break included.
pub(crate) fn merge3(base: &str, ours: &str, theirs: &str, placement: Placement) -> Option<String> {
    let base: Vec<&str> = base.split_inclusive('\n').collect();
    let ours: Vec<&str> = ours.split_inclusive('\n').collect();
    let theirs: Vec<&str> = theirs.split_inclusive('\n').collect();
    let (base_keys, ours_keys, theirs_keys) = (keys(&base), keys(&ours), keys(&theirs));
    let ours_diff = diff(&base_keys, &ours_keys);
    let mut ours_hunks = changes(&ours_diff, &ours, !placement.ours_first);
    let mut theirs_hunks = changes(
        &diff(&base_keys, &theirs_keys),
        &theirs,
        placement.ours_first,
    );
    move_insertions_out_of(&mut ours_hunks, &theirs_hunks, placement);
    move_insertions_out_of(&mut theirs_hunks, &ours_hunks, placement);
    let mut hunks = ours_hunks;
    hunks.extend(theirs_hunks);
    // By place; an insertion before a change that starts where it is inserted.
    hunks.sort_by_key(|h| (h.start, h.end, h.later));
    hunks.dedup_by(|b, a| (a.start, a.end, a.lines) == (b.start, b.end, b.lines));

    // Each base line's own spelling in `ours`, where `ours` kept it.
    let mut in_ours = vec![None; base.len()];
    for op in &ours_diff {
        if op.tag() == similar::DiffTag::Equal {
            for (b, o) in op.old_range().zip(op.new_range()) {
                in_ours[b] = Some(ours[o]);
            }
        }
    }
    let mut out = String::new();
    let unchanged = |out: &mut String, lines: std::ops::Range<usize>| {
        for b in lines {
            let line = in_ours[b].unwrap_or(base[b]);
            out.push_str(line);
            // A last line without a break, where the printer ended it (lines may follow).
            if !line.ends_with('\n') && base[b].ends_with('\n') {
                out.push('\n');
            }
        }
    };
    let mut at = 0;
    for (i, hunk) in hunks.iter().enumerate() {
        let next_overlaps = hunks.get(i + 1).is_some_and(|next| {
            next.start < hunk.end || (hunk.start < hunk.end && next.start == hunk.start)
        });
        if next_overlaps {
            return None;
        }
        unchanged(&mut out, at..hunk.start);
        out.extend(hunk.lines.iter().copied());
        at = hunk.end;
    }
    unchanged(&mut out, at..base.len());
    Some(out)
}

/// Moves each insertion of `hunks` that lies strictly inside a replaced range of `other` to
/// that range's end or start.
fn move_insertions_out_of(hunks: &mut [Hunk<'_>], other: &[Hunk<'_>], placement: Placement) {
    for hunk in hunks.iter_mut().filter(|h| h.start == h.end) {
        if let Some(range) = other
            .iter()
            .find(|o| o.start < hunk.start && hunk.start < o.end)
        {
            let at = if placement.inside_goes_after {
                range.end
            } else {
                range.start
            };
            (hunk.start, hunk.end) = (at, at);
        }
    }
}

/// The lines without their line breaks.
fn keys<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    lines
        .iter()
        .map(|l| {
            let l = l.strip_suffix('\n').unwrap_or(l);
            l.strip_suffix('\r').unwrap_or(l)
        })
        .collect()
}

fn diff(base: &[&str], other: &[&str]) -> Vec<similar::DiffOp> {
    similar::capture_diff_slices(similar::Algorithm::Myers, base, other)
}

/// The lines of `base[start..end]` one side replaced by `lines` (an insertion when empty);
/// `later` orders it after the other side's insertion at the same place.
struct Hunk<'a> {
    start: usize,
    end: usize,
    lines: &'a [&'a str],
    later: bool,
}

/// The hunks of a diff from the base to `other`, in order.
fn changes<'a>(ops: &[similar::DiffOp], other: &'a [&'a str], later: bool) -> Vec<Hunk<'a>> {
    ops.iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| Hunk {
            start: op.old_range().start,
            end: op.old_range().end,
            lines: &other[op.new_range()],
            later,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Placement, merge3};

    const P: Placement = Placement::ALL[0];
    const THEIRS_FIRST: Placement = Placement::ALL[1];

    #[test]
    fn an_edit_on_the_normalised_copy_lands_on_the_original_lines() {
        let original = "a.b = 1\na .c = 2\n\n[t]\nx = 1\n";
        let base = "a.b = 1\na.c = 2\n\n[t]\nx = 1\n";
        let edited = "a.b = 1\na.c = 2\n\n[s]\ny = 2\n\n[t]\nx = 1\n";
        assert_eq!(
            merge3(base, original, edited, P).as_deref(),
            Some("a.b = 1\na .c = 2\n\n[s]\ny = 2\n\n[t]\nx = 1\n")
        );
        // And back: removing the section again gives the original.
        let added = merge3(base, original, edited, P).unwrap();
        assert_eq!(merge3(edited, &added, base, P).as_deref(), Some(original));
    }

    #[test]
    fn moved_lines_stay_where_the_original_has_them() {
        let original = "a.b = 1\nc = 2\na.d = 3\n[s]\n";
        let base = "a.b = 1\na.d = 3\nc = 2\n[s]\n";
        let edited = "a.b = 1\na.d = 3\nc = 2\n[s]\nk = 1\n";
        assert_eq!(
            merge3(base, original, edited, P).as_deref(),
            Some("a.b = 1\nc = 2\na.d = 3\n[s]\nk = 1\n")
        );
    }

    #[test]
    fn both_sides_changing_one_line_is_a_conflict() {
        assert_eq!(merge3("a\nb\nc\n", "a\nB\nc\n", "a\nX\nc\n", P), None);
        assert_eq!(
            merge3("a\nb\n", "a\nb\n", "a\nb\n", P).as_deref(),
            Some("a\nb\n")
        );
        assert_eq!(merge3("", "x", "", P).as_deref(), Some("x"));
        // Two insertions at one place: in the order asked for.
        assert_eq!(
            merge3("a\n", "a\nx\n", "a\ny\n", P).as_deref(),
            Some("a\nx\ny\n")
        );
        assert_eq!(
            merge3("a\n", "a\nx\n", "a\ny\n", THEIRS_FIRST).as_deref(),
            Some("a\ny\nx\n")
        );
    }

    #[test]
    fn a_change_beside_the_other_sides_change_is_no_conflict() {
        // The edit adds a line right after a line the printer re-spelled, and takes it away.
        let original = "k.a = 1\nk .b = 2\n";
        let base = "k.a = 1\nk.b = 2\n";
        let edited = "k.a = 1\nk.b = 2\nk.c = 3\n";
        let added = merge3(base, original, edited, P).unwrap();
        assert_eq!(added, "k.a = 1\nk .b = 2\nk.c = 3\n");
        assert_eq!(merge3(edited, &added, base, P).as_deref(), Some(original));
    }

    #[test]
    fn unchanged_lines_keep_their_own_line_breaks() {
        let original = "a = 1\r\nb .c = 2\r\n";
        let base = "a = 1\nb.c = 2\n";
        let edited = "a = 1\nb.c = 2\nd = 3\n";
        assert_eq!(
            merge3(base, original, edited, P).as_deref(),
            Some("a = 1\r\nb .c = 2\r\nd = 3\n")
        );
    }

    #[test]
    fn an_insertion_inside_the_other_sides_replacement_goes_beside_it() {
        // The file has one line where the printer wrote two; the edit adds a line between them.
        let (base, original, edited) = ("a\nb\nx\nc\n", "a\nB\nc\n", "a\nb\nn\nx\nc\n");
        let after = Placement::ALL[0];
        let before = Placement::ALL[2];
        assert_eq!(
            merge3(base, original, edited, after).as_deref(),
            Some("a\nB\nn\nc\n")
        );
        assert_eq!(
            merge3(base, original, edited, before).as_deref(),
            Some("a\nn\nB\nc\n")
        );
    }
}
