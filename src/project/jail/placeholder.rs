//! Which files are cloud placeholders, whose content is not on this machine: pure functions of
//! the bits each platform reports, so that every platform's rule is tested on every platform.
//! Reading such a file (even the 8 KiB binary sniff) makes the sync client download it.

/// macOS `SF_DATALESS` (`<sys/stat.h>`): an iCloud Drive (File Provider) file whose data was
/// evicted.
pub const SF_DATALESS: u32 = 0x4000_0000;

/// Windows `FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS` (OneDrive and other Cloud Files placeholders),
/// `FILE_ATTRIBUTE_RECALL_ON_OPEN` and `FILE_ATTRIBUTE_OFFLINE` (HSM and older sync engines).
/// `windows.rs` checks these values against the Windows SDK's at compile time.
pub const WINDOWS_NOT_LOCAL: u32 = 0x0040_0000 | 0x0004_0000 | 0x0000_1000;

/// Whether macOS `st_flags` mark a dataless file.
#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
pub fn dataless_on_macos(st_flags: u32) -> bool {
    st_flags & SF_DATALESS != 0
}

/// Whether Windows file attributes mark a file whose content must be recalled first. Pinning
/// (`PINNED`, `UNPINNED`), reparse points and sparse files alone are local: OneDrive's "locally
/// available" files carry them and read without a download.
#[cfg_attr(not(windows), allow(dead_code))]
pub fn not_local_on_windows(attributes: u32) -> bool {
    attributes & WINDOWS_NOT_LOCAL != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macos_dataless_files_are_placeholders_other_flags_are_not() {
        const UF_COMPRESSED: u32 = 0x0000_0020;
        const UF_TRACKED: u32 = 0x0000_0040;
        const UF_HIDDEN: u32 = 0x0000_8000;
        const SF_ARCHIVED: u32 = 0x0001_0000;
        const SF_RESTRICTED: u32 = 0x0008_0000;
        for flags in [
            SF_DATALESS,
            SF_DATALESS | UF_TRACKED,
            SF_DATALESS | UF_HIDDEN | UF_COMPRESSED,
        ] {
            assert!(dataless_on_macos(flags), "{flags:#x}");
        }
        for flags in [
            0,
            UF_COMPRESSED,
            UF_TRACKED,
            UF_HIDDEN,
            SF_ARCHIVED,
            SF_RESTRICTED,
            UF_TRACKED | UF_HIDDEN | SF_ARCHIVED | SF_RESTRICTED | UF_COMPRESSED,
        ] {
            assert!(!dataless_on_macos(flags), "{flags:#x}");
        }
    }

    #[test]
    fn windows_recall_and_offline_files_are_placeholders_pinned_and_local_ones_are_not() {
        const READONLY: u32 = 0x0000_0001;
        const HIDDEN: u32 = 0x0000_0002;
        const ARCHIVE: u32 = 0x0000_0020;
        const SPARSE_FILE: u32 = 0x0000_0200;
        const REPARSE_POINT: u32 = 0x0000_0400;
        const COMPRESSED: u32 = 0x0000_0800;
        const OFFLINE: u32 = 0x0000_1000;
        const ENCRYPTED: u32 = 0x0000_4000;
        const RECALL_ON_OPEN: u32 = 0x0004_0000;
        const PINNED: u32 = 0x0008_0000;
        const UNPINNED: u32 = 0x0010_0000;
        const RECALL_ON_DATA_ACCESS: u32 = 0x0040_0000;
        // OneDrive "online-only": a sparse reparse point recalled on read, unpinned.
        let online_only = ARCHIVE | SPARSE_FILE | REPARSE_POINT | UNPINNED | RECALL_ON_DATA_ACCESS;
        for attributes in [
            online_only,
            RECALL_ON_DATA_ACCESS,
            RECALL_ON_OPEN,
            ARCHIVE | OFFLINE,
            READONLY | HIDDEN | OFFLINE,
        ] {
            assert!(not_local_on_windows(attributes), "{attributes:#x}");
        }
        // "Locally available" (a hydrated placeholder) and "always keep on this device".
        let locally_available = ARCHIVE | SPARSE_FILE | REPARSE_POINT;
        let always_kept = ARCHIVE | REPARSE_POINT | PINNED;
        for attributes in [
            0,
            ARCHIVE,
            locally_available,
            always_kept,
            ARCHIVE | UNPINNED,
            READONLY | HIDDEN | COMPRESSED | ENCRYPTED,
        ] {
            assert!(!not_local_on_windows(attributes), "{attributes:#x}");
        }
    }
}
