//! The files that `file:` URIs name: the workspace folders, the files the survey reads and the
//! open documents that are files. Paths belong to the native server, which reads the disk; the
//! protocol layer knows documents by URI only.

use std::collections::HashSet;
use std::path::PathBuf;

use ctlpgn_protocol::documents::Documents;
use tower_lsp_server::lsp_types::Uri;
use tower_lsp_server::UriExt;

/// The file a URI names, when it is a `file:` URI.
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().is_some_and(|scheme| scheme.as_str().eq_ignore_ascii_case("file")) {
        return None;
    }
    uri.to_file_path().map(std::borrow::Cow::into_owned)
}

/// The files of the open documents that are files.
pub fn open_paths(documents: &Documents) -> HashSet<PathBuf> {
    documents.uris().iter().filter_map(file_path).collect()
}
