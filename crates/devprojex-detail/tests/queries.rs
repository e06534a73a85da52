//! Every language's query files compile against its grammar.

#[test]
fn all_queries_compile() {
    let errors = devprojex_detail::testing::compile_all();
    assert!(errors.is_empty(), "{errors:#?}");
}
