fn main() -> std::process::ExitCode {
    route_tree_sitter_allocations();
    devprojex::cli::main()
}

/// tree-sitter's C core allocates through the C library's malloc unless told otherwise; its
/// parses are most of `--detail` time, and allocate and free a node at a time, which mimalloc
/// does faster. The rest of the program keeps the system allocator: with mimalloc for
/// everything, a pack of the Linux kernel peaked at 173 MB instead of 145 MB. Set before any
/// parser exists, so nothing tree-sitter frees came from the other allocator.
fn route_tree_sitter_allocations() {
    // SAFETY: called first thing in `main`, on one thread, before any tree-sitter object exists;
    // the four functions are mimalloc's, which pair with each other.
    unsafe {
        tree_sitter::set_allocator(
            Some(libmimalloc_sys::mi_malloc),
            Some(libmimalloc_sys::mi_calloc),
            Some(libmimalloc_sys::mi_realloc),
            Some(libmimalloc_sys::mi_free),
        );
    }
}
