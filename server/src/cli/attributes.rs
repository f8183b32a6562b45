//! What a rewritten file keeps besides its mode and owner: its extended attributes, and with
//! them its POSIX access control list (the attribute `system.posix_acl_access`). A rename puts a
//! new file in the old one's place, which has none of them unless they are copied: an ACL that
//! denied a user the file's group bits (`user:nobody:---`) would be gone, and that user could
//! read the new file. Every attribute is copied onto the temporary file before the rename;
//! `security.*` and `trusted.*` ones only where the process may set them (the system sets its
//! own, such as an SELinux label); any other that cannot be kept stops the rewrite.

use std::fs::File;
use std::path::Path;

/// Copies the extended attributes of the file at `original` onto `new`; an error names the
/// attribute that could not be kept.
#[cfg(target_os = "linux")]
pub fn keep_attributes(original: &Path, new: &File) -> Result<(), String> {
    use rustix::fs::{fsetxattr, getxattr, getxattr_query, listxattr, listxattr_query, XattrFlags};
    use rustix::io::Errno;
    let failed = |what: &str, error: Errno| {
        format!("its extended attributes could not be {what} ({})", std::io::Error::from(error))
    };
    let size = match listxattr_query(original) {
        Ok(size) => size,
        // A file system without extended attributes: nothing to keep.
        Err(Errno::NOTSUP) => return Ok(()),
        Err(error) => return Err(failed("read", error)),
    };
    let mut names = vec![0; size];
    let listed = listxattr(original, &mut names[..]).map_err(|error| failed("read", error))?;
    for name in names[..listed].split(|&byte| byte == 0).filter(|name| !name.is_empty()) {
        let shown = String::from_utf8_lossy(name);
        let name = std::ffi::OsStr::from_bytes(name);
        let mut value = vec![0; getxattr_query(original, name).map_err(|e| failed("read", e))?];
        let length = getxattr(original, name, &mut value[..]).map_err(|e| failed("read", e))?;
        if let Err(error) = fsetxattr(new, name, &value[..length], XattrFlags::empty()) {
            let system_owned = shown.starts_with("security.") || shown.starts_with("trusted.");
            if system_owned && matches!(error, Errno::PERM | Errno::ACCESS | Errno::NOTSUP) {
                continue;
            }
            return Err(format!(
                "its extended attribute {shown} could not be kept on the new file ({})",
                std::io::Error::from(error)
            ));
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub fn keep_attributes(_: &Path, _: &File) -> Result<(), String> {
    Ok(())
}

#[cfg(target_os = "linux")]
use std::os::unix::ffi::OsStrExt as _;
