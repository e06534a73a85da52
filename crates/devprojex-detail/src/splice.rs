//! A reduced text described by its original: the byte ranges it keeps and the placeholders it
//! inserts, in order.
//!
//! The transform cache keeps results in this form. A `compact` result is most of its original
//! (blank lines and comments are a small part of code), so keeping it as text would cost nearly
//! as much memory as the source; as ranges it costs a few percent, and a cache of the same size
//! holds results for a project ten times larger.

/// One piece of the output: `Keep` copies `original[start..end]`, `Add` copies
/// `added[start..end]` (generated text such as `{ /* ... */ }`, stored once however often it
/// is inserted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Keep { start: u32, end: u32 },
    Add { start: u32, end: u32 },
}

impl Piece {
    fn len(self) -> usize {
        match self {
            Piece::Keep { start, end } | Piece::Add { start, end } => (end - start) as usize,
        }
    }
}

/// See the module documentation. Built by appending in output order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Splice {
    pieces: Vec<Piece>,
    added: String,
    /// Length of the output.
    len: usize,
    /// An offset did not fit in `u32` (texts that large are never transformed): unusable.
    overflowed: bool,
}

impl Splice {
    /// Appends `original[start..end]`, joining it to the previous range when they touch.
    pub(crate) fn keep(&mut self, start: usize, end: usize) {
        if start >= end {
            return;
        }
        let (Ok(s), Ok(e)) = (u32::try_from(start), u32::try_from(end)) else {
            self.overflowed = true;
            return;
        };
        self.len += end - start;
        if let Some(Piece::Keep { end: last_end, .. }) = self.pieces.last_mut()
            && *last_end == s
        {
            *last_end = e;
            return;
        }
        self.pieces.push(Piece::Keep { start: s, end: e });
    }

    /// Appends generated text.
    pub(crate) fn add(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        // Placeholders repeat (one per collapsed body): each distinct text is held once.
        let start = self.added.find(text).unwrap_or_else(|| {
            self.added.push_str(text);
            self.added.len() - text.len()
        });
        let (Ok(s), Ok(e)) = (u32::try_from(start), u32::try_from(start + text.len())) else {
            self.overflowed = true;
            return;
        };
        self.len += text.len();
        self.pieces.push(Piece::Add { start: s, end: e });
    }

    /// Shortens the output to `len` bytes, as `String::truncate` does to the text it describes.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.len > len {
            let Some(last) = self.pieces.last_mut() else {
                break;
            };
            let excess = self.len - len;
            let piece_len = last.len();
            if piece_len <= excess {
                self.pieces.pop();
                self.len -= piece_len;
            } else {
                let cut = excess as u32; // < piece_len, itself a u32 difference
                match last {
                    Piece::Keep { end, .. } | Piece::Add { end, .. } => *end -= cut,
                }
                self.len = len;
            }
        }
    }

    /// The same output for `prefix + original`: every range moves by `prefix.len()` bytes and the
    /// prefix is kept first (a byte order mark the transform stepped over).
    pub(crate) fn after_prefix(self, prefix_len: usize) -> Splice {
        if prefix_len == 0 {
            return self;
        }
        let mut shifted = Splice {
            added: String::new(),
            pieces: Vec::with_capacity(self.pieces.len() + 1),
            len: 0,
            overflowed: self.overflowed,
        };
        shifted.keep(0, prefix_len);
        for piece in &self.pieces {
            match *piece {
                Piece::Keep { start, end } => {
                    shifted.keep(start as usize + prefix_len, end as usize + prefix_len)
                }
                Piece::Add { start, end } => shifted.add(&self.added[start as usize..end as usize]),
            }
        }
        shifted
    }

    /// The output, rebuilt from `original`; `None` when the ranges do not fit it (it is not the
    /// text this splice was made from).
    pub(crate) fn render(&self, original: &str) -> Option<String> {
        if self.overflowed {
            return None;
        }
        let mut out = String::with_capacity(self.len);
        for piece in &self.pieces {
            let part = match *piece {
                Piece::Keep { start, end } => original.get(start as usize..end as usize)?,
                Piece::Add { start, end } => self.added.get(start as usize..end as usize)?,
            };
            out.push_str(part);
        }
        Some(out)
    }

    /// Where output byte `pos` comes from in the original (for a byte of an added piece: where
    /// the original resumes after the edit that added it).
    pub(crate) fn original_offset(&self, pos: usize) -> usize {
        let (mut at, mut original, mut resume) = (0usize, 0usize, false);
        for piece in &self.pieces {
            let len = piece.len();
            match *piece {
                Piece::Keep { start, end } => {
                    if resume {
                        return start as usize;
                    }
                    if pos < at + len {
                        return start as usize + (pos - at);
                    }
                    original = end as usize;
                }
                Piece::Add { .. } => resume |= pos < at + len,
            }
            at += len;
        }
        original
    }

    /// The pieces that copy the original, in order: (output start, original start, original end).
    pub(crate) fn kept(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let mut at = 0usize;
        self.pieces.iter().filter_map(move |piece| {
            let out = at;
            at += piece.len();
            match *piece {
                Piece::Keep { start, end } => Some((out, start as usize, end as usize)),
                Piece::Add { .. } => None,
            }
        })
    }

    /// Heap memory held, for a cache's budget.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pieces.capacity() * std::mem::size_of::<Piece>() + self.added.capacity()
    }

    /// Frees unused capacity before the splice is kept.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.pieces.shrink_to_fit();
        self.added.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a splice and the text it describes side by side, as the engine's writer does.
    struct Both {
        splice: Splice,
        out: String,
    }

    impl Both {
        fn keep(&mut self, original: &str, start: usize, end: usize) {
            self.splice.keep(start, end);
            self.out.push_str(&original[start..end]);
        }
        fn add(&mut self, text: &str) {
            self.splice.add(text);
            self.out.push_str(text);
        }
        fn truncate(&mut self, len: usize) {
            self.splice.truncate(len);
            self.out.truncate(len);
        }
    }

    #[test]
    fn renders_what_was_appended_through_joins_and_truncations() {
        let original = "fn a() {\n    body();\n}\n\n\n// note\nfn b() {}\n";
        let mut both = Both {
            splice: Splice::default(),
            out: String::new(),
        };
        both.keep(original, 0, 7);
        both.add("{ /* ... */ }");
        both.keep(original, 22, 24);
        both.keep(original, 24, 25); // touches the previous range: joined
        both.truncate(both.out.len() - 1); // the blank line goes
        both.keep(original, 25, 26);
        both.add("x");
        both.truncate(both.out.len() - 3); // across an added piece into a kept one
        both.add("{ /* ... */ }");
        both.keep(original, 34, original.len());
        assert_eq!(
            both.splice.added, "{ /* ... */ }x",
            "a repeated text is held once"
        );
        assert_eq!(
            both.splice.render(original).as_deref(),
            Some(both.out.as_str())
        );
        assert_eq!(both.splice.len, both.out.len());

        let bom = "\u{feff}";
        let with_bom = format!("{bom}{original}");
        let shifted = both.splice.clone().after_prefix(bom.len());
        assert_eq!(
            shifted.render(&with_bom),
            Some(format!("{bom}{}", both.out))
        );
    }

    #[test]
    fn offsets_map_the_output_back_to_the_original() {
        let original = "int a; /* c */ int b() { return 1; }\n\n\nint c;\n";
        let mut both = Both {
            splice: Splice::default(),
            out: String::new(),
        };
        both.keep(original, 0, 6); // `int a;`
        both.keep(original, 14, 23); // ` int b() `: the comment goes
        both.add("{ /* ... */ }");
        both.keep(original, 36, 38); // the body went; `\n\n`
        both.truncate(both.out.len() - 1); // a blank line goes
        both.keep(original, 38, original.len());
        assert_eq!(both.out, "int a; int b() { /* ... */ }\n\nint c;\n");
        let at = |s: &str| both.out.find(s).unwrap();
        let splice = &both.splice;
        assert_eq!(
            splice.original_offset(at("b()")),
            original.find("b()").unwrap()
        );
        assert_eq!(
            splice.original_offset(at("/* ...")),
            original.find("\n").unwrap(),
            "an added byte: where the original resumes"
        );
        assert_eq!(
            splice.original_offset(at("int c")),
            original.find("int c").unwrap()
        );
        assert_eq!(splice.original_offset(both.out.len()), original.len());
    }

    #[test]
    fn a_text_the_ranges_do_not_fit_renders_nothing() {
        let mut splice = Splice::default();
        splice.keep(0, 10);
        assert_eq!(splice.render("short"), None);
        let mut splice = Splice::default();
        splice.keep(1, 3);
        assert_eq!(splice.render("é"), None, "not on a character boundary");
    }

    #[test]
    fn offsets_beyond_u32_make_it_unusable_instead_of_wrong() {
        let mut splice = Splice::default();
        splice.keep(0, 2);
        splice.keep(u32::MAX as usize, u32::MAX as usize + 5);
        assert_eq!(splice.render("ab"), None);
    }
}
