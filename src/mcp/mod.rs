pub fn run(_args: crate::cli::McpArgs) -> crate::error::Result<std::process::ExitCode> {
    todo!()
}
