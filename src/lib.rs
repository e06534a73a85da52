//! devprojex: read-only project inspection and context packing for coding agents.
