//! The keyword prefilter pass: every occurrence of a rule keyword in the text.
//!
//! The keywords (ASCII case-insensitive) are built into an Aho-Corasick DFA by `aho-corasick`,
//! which is then copied into a flat table of our own ([`KeywordAutomaton`]): one `u16` per
//! (state, byte class). A state's id is half the start of its row, which the address computation
//! doubles for free; rows are a multiple of four entries apart and a match state's row starts two
//! entries into its place, so match states have the odd ids and "is any lane in a match state"
//! is one test of the lanes' ids ORed together. Half-premultiplied ids fit twice the states in
//! 16 bits; 16-bit entries halve the bytes the scan touches (some 2,000 states times 50 classes:
//! about 220 KB instead of 440 KB), so more of the rows it visits stay in the first-level cache.
//! Stepping through that table costs about half of what `Automaton::next_state` plus a per-lane
//! `is_special` test did (2.0 against 1.0 GB/s on real code, see `docs/benchmarks.md`).
//!
//! A DFA search is bound by the latency of one table load per byte, because each step needs the
//! previous state. Long texts are therefore cut into [`LANES`] pieces that are scanned in
//! lockstep: the loads of different lanes do not depend on each other, so the processor
//! overlaps them. Each lane starts `max_pattern_len - 1` bytes before its piece, so a keyword
//! that straddles a cut is found by the lane its last byte belongs to, exactly once.

use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::{Anchored, MatchKind};

use table::{State, Table};

/// Independent scans interleaved in one loop.
/// (The lockstep loop in `hits` is written out for exactly four.)
const LANES: usize = 4;
/// Below this many bytes per lane, one plain scan is cheaper than setting up the lanes.
const MIN_LANE_BYTES: usize = 1024;

/// A keyword occurrence: where it starts and which automaton pattern it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) start: usize,
    pub(crate) pattern: u32,
}

/// The keyword automaton as a flat transition table.
pub(crate) struct KeywordAutomaton {
    table: Table,
    /// The unanchored start state.
    start: State,
    /// For match state number `2 * id / pitch`: the patterns it reports as (pattern, length), in
    /// the order `aho-corasick` reports them.
    matches: Vec<Vec<(u32, u32)>>,
    max_pattern_len: usize,
}

impl KeywordAutomaton {
    pub(crate) fn new(keywords: &[Vec<u8>]) -> Result<Self, String> {
        let dfa = aho_corasick::dfa::Builder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            // start states must be ordinary states: the table has no notion of a prefilter
            .prefilter(false)
            .build(keywords)
            .map_err(|e| e.to_string())?;
        Self::from_dfa(&dfa, keywords).map(|(table, _)| table)
    }

    /// Copy the states reachable from the unanchored start into a table of our own; also returns
    /// the DFA's state for each of the table's states (for the tests).
    fn from_dfa(
        dfa: &aho_corasick::dfa::DFA,
        keywords: &[Vec<u8>],
    ) -> Result<(Self, Vec<StateID>), String> {
        // Byte classes from the keywords: each byte that occurs in one (either ASCII case) is
        // its own class, shared by its other case, since the DFA is case-insensitive; every other
        // byte follows no trie edge, so from any state they all lead to the same state and share
        // one class. (A test checks every state and byte against the DFA.)
        let mut in_keyword = [false; 256];
        for &byte in keywords.iter().flatten() {
            in_keyword[byte.to_ascii_lowercase() as usize] = true;
            in_keyword[byte.to_ascii_uppercase() as usize] = true;
        }
        let mut classes = [0u8; 256];
        let mut representatives: Vec<u8> = Vec::new();
        let mut class_of_folded = [None::<u8>; 256];
        let mut other_class = None::<u8>;
        for byte in 0..=255u8 {
            let slot = if in_keyword[byte as usize] {
                &mut class_of_folded[byte.to_ascii_lowercase() as usize]
            } else {
                &mut other_class
            };
            classes[byte as usize] = *slot.get_or_insert_with(|| {
                representatives.push(byte);
                u8::try_from(representatives.len() - 1).expect("at most 256 byte classes")
            });
        }
        let classes_len = representatives.len();
        // room for every class and for the match states' two-entry shift, a multiple of four
        let pitch = (classes_len + 2).next_multiple_of(4);
        let start = dfa
            .start_state(Anchored::No)
            .expect("unanchored searches are supported by a DFA built with defaults");
        // Breadth-first over the reachable states. `index_of` maps a state id to its discovery
        // index (ids are small integers; a vector is cheaper than hashing, and the table is
        // built at every start of the process).
        let mut states: Vec<StateID> = Vec::new();
        let mut index_of: Vec<u32> = Vec::new();
        let mut index = |sid: StateID, states: &mut Vec<StateID>| -> usize {
            let at = sid.as_usize();
            if at >= index_of.len() {
                index_of.resize(at + 1, u32::MAX);
            }
            if index_of[at] == u32::MAX {
                index_of[at] = u32::try_from(states.len()).expect("fewer than 2^32 states");
                states.push(sid);
            }
            index_of[at] as usize
        };
        index(start, &mut states);
        // row-major: raw[state * classes_len + class] is the discovery index of the next state
        let mut raw: Vec<usize> = Vec::new();
        let mut next = 0;
        while next < states.len() {
            let state = states[next];
            next += 1;
            for &byte in &representatives {
                let target = index(dfa.next_state(Anchored::No, state, byte), &mut states);
                raw.push(target);
            }
        }
        // match states first, each group in discovery order (the start state stays first among
        // the others, which keeps the numbering deterministic)
        let mut order: Vec<usize> = (0..states.len()).collect();
        order.sort_by_key(|&i| !dfa.is_match(states[i]));
        let mut renumbered = vec![0usize; states.len()];
        for (new, &old) in order.iter().enumerate() {
            renumbered[old] = new;
        }
        let match_states = order.iter().filter(|&&i| dfa.is_match(states[i])).count();
        if row_id(states.len(), pitch, false).is_none() {
            return Err(format!(
                "{} states of {classes_len} classes do not fit 16-bit transitions",
                states.len()
            ));
        }
        let id = |new: usize| row_id(new, pitch, new < match_states).expect("checked above");
        // the two entries beside each row are never read; they hold the start state's id so that
        // every entry is a state's id
        let mut transitions = vec![id(0) as u16; states.len() * pitch];
        for (old, row) in raw.chunks_exact(classes_len).enumerate() {
            let new = renumbered[old];
            let row_start = 2 * id(new) as usize;
            for (class, &target) in row.iter().enumerate() {
                transitions[row_start + class] = id(renumbered[target]) as u16;
            }
        }
        let matches = order[..match_states]
            .iter()
            .map(|&old| {
                (0..dfa.match_len(states[old]))
                    .map(|i| {
                        let pattern = dfa.match_pattern(states[old], i);
                        (pattern.as_u32(), dfa.pattern_len(pattern) as u32)
                    })
                    .collect()
            })
            .collect();
        let table = Table::new(classes, transitions, classes_len, pitch)?;
        let start = table
            .state(id(renumbered[0]))
            .expect("the start state is a row of the table");
        let table = Self {
            table,
            start,
            matches,
            max_pattern_len: dfa.max_pattern_len(),
        };
        Ok((table, order.iter().map(|&old| states[old]).collect()))
    }

    /// Every keyword occurrence in `hay`, ordered by end position (as an overlapping search
    /// reports them), overlapping ones included.
    pub(crate) fn hits(&self, hay: &[u8]) -> Vec<Hit> {
        let mut hits = Vec::new();
        let overlap = self.max_pattern_len.saturating_sub(1);
        let lane_len = hay.len() / LANES;
        if lane_len < MIN_LANE_BYTES.max(overlap + 1) {
            self.scan(self.start, hay, 0, 0, &mut hits);
            return hits;
        }
        // lane k reports hits ending in piece k = [k * lane_len, end_k) and scans from
        // `overlap` bytes earlier so straddling keywords are seen whole.
        let piece_start = |k: usize| k * lane_len;
        let piece_end = |k: usize| {
            if k + 1 == LANES {
                hay.len()
            } else {
                (k + 1) * lane_len
            }
        };
        let begin: [usize; LANES] = std::array::from_fn(|k| piece_start(k).saturating_sub(overlap));
        let mut lane_hits: [Vec<Hit>; LANES] = Default::default();
        // lockstep while every lane has bytes left (lane 0 starts at 0, the others `overlap`
        // earlier than their piece, the last one ends at `hay.len()`)
        let steps = (0..LANES)
            .map(|k| piece_end(k) - begin[k])
            .min()
            .expect("LANES > 0");
        let [l0, l1, l2, l3]: [&[u8]; LANES] =
            std::array::from_fn(|k| &hay[begin[k]..begin[k] + steps]);
        // the rare match handling is out of line
        let mut state = [self.start; LANES];
        self.table
            .lockstep([l0, l1, l2, l3], &mut state, |state, i| {
                self.record_lanes(state, i, &begin, &mut lane_hits, lane_len)
            });
        let at: [usize; LANES] = std::array::from_fn(|k| begin[k] + steps);
        for k in 0..LANES {
            self.scan(
                state[k],
                &hay[..piece_end(k)],
                at[k],
                piece_start(k),
                &mut lane_hits[k],
            );
        }
        for lane in lane_hits {
            hits.extend(lane);
        }
        hits
    }

    /// Record the lanes' matches after lockstep step `i` (lane `k` reports only inside its own
    /// piece, which starts at `k * lane_len`).
    #[cold]
    #[inline(never)]
    fn record_lanes(
        &self,
        state: [State; LANES],
        i: usize,
        begin: &[usize; LANES],
        lane_hits: &mut [Vec<Hit>; LANES],
        lane_len: usize,
    ) {
        for k in 0..LANES {
            self.record(state[k], begin[k] + i + 1, k * lane_len, &mut lane_hits[k]);
        }
    }

    /// One plain scan of `hay[from..]` from `state`, reporting hits that end after
    /// `report_after`.
    fn scan(
        &self,
        mut state: State,
        hay: &[u8],
        from: usize,
        report_after: usize,
        hits: &mut Vec<Hit>,
    ) {
        for (pos, &byte) in hay.iter().enumerate().skip(from) {
            state = self.table.step(state, byte);
            if is_match(state) {
                self.record(state, pos + 1, report_after, hits);
            }
        }
    }

    /// Record the patterns of `state` reached just before `end`, if it is a match state and the
    /// match ends inside the lane's own piece (after `piece_start`).
    #[inline]
    fn record(&self, state: State, end: usize, piece_start: usize, hits: &mut Vec<Hit>) {
        if !is_match(state) || end <= piece_start {
            return;
        }
        for &(pattern, len) in &self.matches[state.id() as usize * 2 / self.table.pitch()] {
            hits.push(Hit {
                start: end - len as usize,
                pattern,
            });
        }
    }
}

/// The id of state number `state`: half the start of its row, `state * pitch` or, for a match
/// state, two entries later (`pitch` a multiple of four: match states' ids are the odd ones),
/// when it fits in 16 bits.
fn row_id(state: usize, pitch: usize, is_match: bool) -> Option<u32> {
    u16::try_from((state * pitch + 2 * usize::from(is_match)) / 2)
        .ok()
        .map(u32::from)
}

/// Whether a state is a match state (its id is odd, see [`row_id`]).
#[inline(always)]
fn is_match(state: State) -> bool {
    state.id() & 1 == 1
}

/// The transition table, apart so that its states can only be ones it made: stepping from one
/// then needs no bounds check (four fewer compare-and-branch pairs per lockstep round; the scan
/// is bound by the instructions of its loop: 5 to 8 % faster on `keywords-only`; the safe
/// variants measured are in `docs/redaction.md`, "Throughput").
mod table {
    /// A state of a [`Table`]: the id of one of its rows, which only the table hands out (its
    /// rows start at `2 * id`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) struct State(u32);

    impl State {
        pub(super) fn id(self) -> u32 {
            self.0
        }
    }

    pub(super) struct Table {
        /// Byte -> column.
        classes: [u8; 256],
        /// `transitions[2 * state + class]` is the next state.
        transitions: Box<[u16]>,
        /// Number of columns of a row.
        columns: usize,
        /// Entries from one row's place to the next (a multiple of four); a row starts at its
        /// place or two entries into it.
        pitch: usize,
    }

    impl Table {
        /// A table whose every class is a column (`< columns`) and whose every transition is
        /// the id of a whole row.
        pub(super) fn new(
            classes: [u8; 256],
            transitions: Vec<u16>,
            columns: usize,
            pitch: usize,
        ) -> Result<Self, String> {
            let table = Self {
                classes,
                transitions: transitions.into_boxed_slice(),
                columns,
                pitch,
            };
            let places = pitch.is_multiple_of(4)
                && columns + 2 <= pitch
                && table.transitions.len().is_multiple_of(pitch);
            let classes_fit = classes.iter().all(|&c| usize::from(c) < columns);
            let rows = (table.transitions.iter()).all(|&t| table.state(u32::from(t)).is_some());
            if places && classes_fit && rows {
                Ok(table)
            } else {
                Err("the keyword table has a transition outside its rows".to_string())
            }
        }

        /// The state with row id `id`, if the table has that row (ids are 16-bit: the entries
        /// are).
        pub(super) fn state(&self, id: u32) -> Option<State> {
            let start = 2 * usize::from(u16::try_from(id).ok()?);
            (start % self.pitch <= 2 && start + self.columns <= self.transitions.len())
                .then_some(State(id))
        }

        /// Step four lanes of equal length in lockstep from `states` (left at the lanes' last
        /// states); after step `i`, when a lane is in a match state (odd id), call
        /// `on_match(states, i)`.
        ///
        /// Written so that every value the loop keeps lives in a register: the classes are
        /// copied to the stack (addressed from the stack pointer, they need no register of
        /// their own), and the states are whole words (no zero extension before each
        /// address). The loop over [`Table::step`] kept two lanes' addresses, the table and
        /// the loop's end in memory: 36 instructions per round of four bytes against 26.
        #[inline(always)]
        #[allow(unsafe_code)]
        pub(super) fn lockstep(
            &self,
            lanes: [&[u8]; 4],
            states: &mut [State; 4],
            mut on_match: impl FnMut([State; 4], usize),
        ) {
            let classes = self.classes;
            let transitions = &self.transitions;
            let next = |s: usize, b: u8| -> usize {
                let at = 2 * s + usize::from(classes[usize::from(b)]);
                // SAFETY: `s` is the id of a row of this table (one of `states`, which only the
                // table makes, or an entry of `transitions`, each of which `new` checked), and
                // every class is below `columns`: as in `step`, `at` is inside the table.
                usize::from(unsafe { *transitions.get_unchecked(at) })
            };
            let [l0, l1, l2, l3] = lanes;
            let steps = l0.len();
            assert!(l1.len() == steps && l2.len() == steps && l3.len() == steps);
            let [mut s0, mut s1, mut s2, mut s3] = states.map(|s| s.0 as usize);
            let state = |s: usize| State(s as u32);
            for i in 0..steps {
                // the four loads are independent: this is where the speed comes from
                s0 = next(s0, l0[i]);
                s1 = next(s1, l1[i]);
                s2 = next(s2, l2[i]);
                s3 = next(s3, l3[i]);
                if (s0 | s1 | s2 | s3) & 1 == 1 {
                    on_match([s0, s1, s2, s3].map(state), i);
                }
            }
            *states = [s0, s1, s2, s3].map(state);
        }

        pub(super) fn pitch(&self) -> usize {
            self.pitch
        }

        /// One transition.
        #[inline(always)]
        #[allow(unsafe_code)]
        pub(super) fn step(&self, state: State, byte: u8) -> State {
            let at = 2 * state.0 as usize + usize::from(self.classes[usize::from(byte)]);
            // SAFETY: `state` is a row of this table (only `state` and `step` make a `State`,
            // and `new` checked every transition), so `2 * state.0 + columns` is at most the
            // table's length, and every class is below `columns` (also checked by `new`).
            State(u32::from(unsafe { *self.transitions.get_unchecked(at) }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::AhoCorasick;

    fn reference(prefixes: &[Vec<u8>], hay: &[u8]) -> Vec<Hit> {
        let ac = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(prefixes)
            .unwrap();
        ac.find_overlapping_iter(hay)
            .map(|m| Hit {
                start: m.start(),
                pattern: m.pattern().as_u32(),
            })
            .collect()
    }

    #[test]
    fn lanes_find_exactly_what_an_overlapping_search_finds() {
        let prefixes: Vec<Vec<u8>> = ["pass", "sk-", "toke", "ke", "://", "xoxb", "a"]
            .iter()
            .map(|p| p.as_bytes().to_vec())
            .collect();
        let automaton = KeywordAutomaton::new(&prefixes).unwrap();
        // pseudo-random text over a small alphabet so prefixes straddle every lane cut
        let alphabet = b"paskTOKE-:/xob \n";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in [0, 1, 3, 4095, 4096, 4097, 4099, 10_000, 65_537] {
            let hay: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            assert_eq!(
                automaton.hits(&hay),
                reference(&prefixes, &hay),
                "len {len}"
            );
        }
    }

    #[test]
    fn a_large_prefix_set_finds_what_an_overlapping_search_finds() {
        // hundreds of 2-4 byte prefixes, nested ones (`aw`, `aws`, `aws-`) included, over text
        // drawn from the same bytes in both cases
        let alphabet = b"aWs-_:/.~Qk0e";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut prefixes: Vec<Vec<u8>> = Vec::new();
        while prefixes.len() < 300 {
            let len = 2 + (next() % 3) as usize;
            let prefix: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize].to_ascii_lowercase())
                .collect();
            if !prefixes.contains(&prefix) {
                prefixes.push(prefix);
            }
        }
        let automaton = KeywordAutomaton::new(&prefixes).unwrap();
        for len in [5, 4096, 4103, 50_000] {
            let hay: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let found = automaton.hits(&hay);
            assert!(!found.is_empty() || len < 10, "len {len}");
            assert_eq!(found, reference(&prefixes, &hay), "len {len}");
        }
    }

    #[test]
    fn the_table_agrees_with_the_dfa_on_every_state_and_byte() {
        let keywords: Vec<Vec<u8>> = [
            "aws",
            "AKIA",
            "xoxb-",
            "://",
            "q~",
            "Pass",
            "_key",
            "\u{e9}t\u{e9}",
        ]
        .iter()
        .map(|k| k.as_bytes().to_vec())
        .collect();
        let dfa = aho_corasick::dfa::Builder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .prefilter(false)
            .build(&keywords)
            .unwrap();
        let (table, states) = KeywordAutomaton::from_dfa(&dfa, &keywords).unwrap();
        let pitch = table.table.pitch();
        assert!(pitch < 256, "bytes outside the keywords share a class");
        let position = |sid: StateID| states.iter().position(|&s| s == sid).unwrap();
        let id = |sid: StateID| row_id(position(sid), pitch, dfa.is_match(sid)).unwrap();
        for &sid in &states {
            let own = table.table.state(id(sid)).expect("a row of the table");
            assert_eq!(is_match(own), dfa.is_match(sid));
            for byte in 0..=255u8 {
                let expected = id(dfa.next_state(Anchored::No, sid, byte));
                assert_eq!(
                    table.table.step(own, byte).id(),
                    expected,
                    "state {sid:?} byte {byte}"
                );
            }
        }
    }

    #[test]
    fn a_table_with_a_transition_outside_its_rows_is_refused() {
        let classes = [0u8; 256];
        // two places of eight entries, rows of two columns: ids 0 and 1 (rows at 0 and 2), 4
        // and 5 (at 8 and 10); id 2 (at 4) is inside a place, id 8 (at 16) past the end
        let table_with = |target: u16| {
            let mut entries = vec![0u16; 16];
            entries[10] = target;
            Table::new(classes, entries, 2, 8)
        };
        for valid in [0, 1, 4, 5] {
            assert!(table_with(valid).is_ok(), "{valid}");
        }
        for invalid in [2, 3, 8, 9] {
            assert!(table_with(invalid).is_err(), "{invalid}");
        }
        let mut wide = [0u8; 256];
        wide[b'x' as usize] = 2; // a class past the row
        assert!(Table::new(wide, vec![0; 16], 2, 8).is_err());
        assert!(
            Table::new(classes, vec![0; 16], 2, 6).is_err(),
            "a pitch not a multiple of 4"
        );
        let table = table_with(0).unwrap();
        assert!(table.state(5).is_some() && table.state(2).is_none() && table.state(8).is_none());
        // an id whose row start overflows a 32-bit `usize` is not one
        assert!(table.state(0x8000_0000).is_none());
    }

    #[test]
    fn a_prefix_across_each_cut_is_found_once() {
        let prefixes = vec![b"toke".to_vec()];
        let automaton = KeywordAutomaton::new(&prefixes).unwrap();
        let len = 4 * 4096;
        for cut in [4096usize, 8192, 12288] {
            for shift in 0..4 {
                let mut hay = vec![b' '; len];
                hay[cut - shift..cut - shift + 4].copy_from_slice(b"ToKe");
                let hits = automaton.hits(&hay);
                assert_eq!(hits.len(), 1, "cut {cut} shift {shift}");
                assert_eq!(hits[0].start, cut - shift);
            }
        }
    }
}
