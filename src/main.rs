fn main() -> std::process::ExitCode {
    devprojex::cli::main()
}
