//! `ctlpgn-tests` holds end-to-end tests only (in `tests/`: the corpus, the handbook's
//! examples, the quick fixes, the language server in-process) and the language server's
//! benchmark; what they share lives in the `ctlpgn-test-support` crate.
