//! Every language's query files compile against its grammar.

#[test]
fn all_queries_compile() {
    let errors = devprojex_detail::testing::compile_all();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn bodies_queries_run_from_their_roots() {
    // A pattern starting with `(_ ...)` or `((a) . (b))` makes `signatures` walk the whole tree
    // with the query; name the parent node instead.
    assert_eq!(
        devprojex_detail::testing::bodies_without_roots(),
        Vec::<&str>::new()
    );
}
