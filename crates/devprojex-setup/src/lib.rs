//! `devprojex setup`: register the MCP server in each client's config without damaging it.
//!
//! CONTRACT: exposes `SetupArgs` / `DoctorArgs` (clap `Args`) and `run_setup`, `run_doctor`,
//! which the main binary dispatches to. See issue 9.
