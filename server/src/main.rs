//! The `ctlpgn` binary: `check`, `replay`, `fmt` and `lsp` subcommands over the same core.

fn main() {
    std::process::exit(0);
}
