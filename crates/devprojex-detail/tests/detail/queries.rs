//! Every language's query files compile against its grammar.

#[test]
fn all_queries_compile() {
    let errors = devprojex_detail::testing::compile_all();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn queries_run_from_their_roots() {
    // A pattern without a single root node (`((a) . (b))`, `(_ ...)`) makes the engine run the
    // query over the whole tree, about three tree walks: name the parent node instead. (Doc
    // comment groups are found from the declaration they document, `@documented`.)
    assert!(
        devprojex_detail::testing::queries_without_roots().is_empty(),
        "{:?}",
        devprojex_detail::testing::queries_without_roots()
    );
}
