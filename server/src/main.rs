//! The `ctlpgn` binary: `lsp`, `check`, `replay`, `fmt`, `convert` and `pdtl`, all over the same
//! core; the command line itself lives in `ctlpgn::cli`.

fn main() {
    std::process::exit(ctlpgn::cli::main());
}
