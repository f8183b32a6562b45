//! The `ctlpgn` binary: `lsp`, `check`, `replay`, `fmt`, `convert` and `pdtl`, all over the same
//! core.

use ctlpgn::cli;

const USAGE: &str = "usage: ctlpgn <command> [arguments]

commands:
  lsp                             the language server, speaking LSP over standard input/output
  check [--format json] [--rules] FILE...
                                  report every diagnostic (--rules: the optional rule checks too);
                                  exit 1 when any is an error
  replay FILE [--json]            the main line ply by ply with the PDTL after each ply
  fmt [--check] [--separators keep|unicode|ascii] [--ellipsis keep|unicode|ascii] FILE...
                                  format files in place (- formats standard input to output)
  convert (--minimal | --letters | --fan | --redefine \"B@J, Q@D, W@V\") [--in-place] FILE...
                                  minimal CTL-PGN, or the identifiers rewritten; standard output
                                  unless --in-place (-i); refused when a record does not replay
  pdtl FILE (--at LINE:COL | --ply N [--record K]) [--letters]
                                  the PDTL of the position after the half-move at that place
";

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let status = match arguments.first().map(String::as_str) {
        Some("check") => cli::run_check(&arguments[1..]),
        Some("replay") => cli::run_replay(&arguments[1..]),
        Some("fmt") => cli::run_fmt(&arguments[1..]),
        Some("convert") => cli::run_convert(&arguments[1..]),
        Some("pdtl") => cli::run_pdtl(&arguments[1..]),
        Some("lsp") => ctlpgn::lsp::run_stdio(),
        Some("--help" | "-h" | "help") => {
            print!("{USAGE}");
            0
        }
        Some("--version" | "-V") => {
            println!("ctlpgn {}", env!("CARGO_PKG_VERSION"));
            0
        }
        _ => {
            eprint!("{USAGE}");
            2
        }
    };
    std::process::exit(status);
}
