//! What a long-lived process keeps between requests, in one bundle the MCP server owns and
//! hands to each request (`Option<&Caches>`); the command line passes `None`. The pipeline is
//! the same either way: a cache only skips work whose result it can prove unchanged, never
//! changes an answer.
//!
//! Freshness, one rule for every cache: what a file or folder was is keyed by its `stat` (Git's
//! index key: size, modification and change time, inode), and a stat whose times fall within
//! [`crate::facts::RACY_WINDOW_NS`] of when it was read is not trusted ("racily clean" in Git's words: another
//! write in the same clock tick could leave every field unchanged), so such an entry is read
//! again next time.

use std::sync::Arc;

use devprojex_detail::TransformCache;

use crate::facts::FactsCache;
use crate::gitstate::TrackedCache;
use crate::relevance::RelevanceIndex;
use crate::select::cache::SelectionCache;
use crate::symbols::index::SymbolIndex;

/// The caches of one server process.
pub struct Caches {
    /// Walks (and the binary sniffs of their files), revalidated by stat (`select/cache.rs`).
    pub selection: SelectionCache,
    /// Per-file facts: binary, clean of secrets, metrics per detail level (`facts.rs`).
    pub facts: Arc<FactsCache>,
    /// `compact`/`signatures` results by content hash, within a memory budget.
    pub transforms: Arc<TransformCache>,
    /// Each root's Git-index path set, while the index files stat the same (`gitstate.rs`).
    pub tracked: TrackedCache,
    /// Parsed definitions and the import index of `find_symbol`/`related_files`
    /// (`symbols/index.rs`).
    pub symbols: SymbolIndex,
    /// Each file's terms and HEAD's history for `relevant_files` (`relevance/index.rs`).
    pub relevance: RelevanceIndex,
}

impl Caches {
    /// The server's caches, sized by `crate::limits`.
    pub fn for_server() -> Self {
        Self {
            selection: SelectionCache::default(),
            facts: Arc::default(),
            transforms: Arc::new(TransformCache::new(
                crate::limits::SERVER_TRANSFORM_CACHE_BYTES,
            )),
            tracked: TrackedCache::default(),
            symbols: SymbolIndex::new(crate::limits::SERVER_DEFINITION_CACHE_BYTES),
            relevance: RelevanceIndex::new(crate::limits::SERVER_RELEVANCE_CACHE_BYTES),
        }
    }
}
