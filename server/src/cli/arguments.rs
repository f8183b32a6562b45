//! The command line's grammar, declared with clap: every subcommand, its flags and their
//! values. Parsing rejects what it does not know (an unknown flag, a value given to a switch
//! such as `--rules=yes`, a flag given twice such as `--ply 3 --ply 4`) with status 2.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};

use super::input::{parse_size, DEFAULT_MAX_INPUT_SIZE};
use ctlpgn_core::conversion::LetterTarget;
use ctlpgn_core::format::{EllipsisStyle, Separators};

/// The language server and toolkit for CTL-PGN, the game-record format of C'escacs.
#[derive(Debug, Parser)]
#[command(name = "ctlpgn", version, arg_required_else_help = true, after_help = EXIT_STATUS)]
pub struct CommandLine {
    #[command(subcommand)]
    pub command: Command,
}

/// The statuses every command ends with, shown under the help.
const EXIT_STATUS: &str = "\
Exit status: 0 when all is well; 1 on findings (check and replay: an error diagnostic;
fmt --check: a file would change; convert: a record that does not replay; pdtl and board: no
position at the place, as in a record that does not replay; any command: a file that is not
UTF-8); 2 on a usage error, a place the file does not have (pdtl and board: a line past its
end, a ply past the main line), or an input or output that cannot be read or written. A closed
standard output (ctlpgn check FILE | head) ends a command quietly with 0.";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The language server, speaking LSP over standard input and output.
    Lsp,
    /// Report every diagnostic; exit 1 when any is an error.
    Check(CheckArguments),
    /// Format files in place, only those whose text changes.
    Fmt(FmtArguments),
    /// The main line of every record ply by ply, with the PDTL after each ply.
    Replay(ReplayArguments),
    /// Minimal CTL-PGN, or the identifiers rewritten; refused when a record does not replay.
    Convert(ConvertArguments),
    /// The PDTL of the position after the half-move at a place of a record.
    Pdtl(PdtlArguments),
    /// The board at a place of a record, or of a PDTL, as SVG, PNG or text.
    Board(BoardArguments),
}

/// How much a command reads at most, from each file and from standard input.
#[derive(Debug, Args)]
pub struct InputLimit {
    /// Refuse an input larger than this (bytes, or with K, M or G: 1024-based).
    #[arg(long, value_name = "BYTES", default_value = DEFAULT_MAX_INPUT_SIZE, value_parser = parse_size)]
    pub max_input_size: u64,
}

#[derive(Debug, Args)]
pub struct CheckArguments {
    /// How to print the findings: located messages with excerpts, a JSON array, or GitHub
    /// Actions annotations.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Report the optional rule checks (R-codes) too.
    #[arg(long)]
    pub rules: bool,
    /// Apply the fixes the editor's "Fix all" applies (each proven by a replay), writing the
    /// files as fmt does, then report what is left.
    #[arg(long)]
    pub fix: bool,
    /// Show the fixes --fix would make as a unified diff, and write nothing.
    #[arg(long)]
    pub diff: bool,
    /// Print one line per code found, with its count and name, instead of the diagnostics.
    #[arg(long)]
    pub statistics: bool,
    /// Leave out the summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// When to colour the output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColourChoice::Auto)]
    pub color: ColourChoice,
    /// Walk folders into what .gitignore, .ignore and hidden names exclude too.
    #[arg(long)]
    pub no_ignore: bool,
    #[command(flatten)]
    pub limit: InputLimit,
    /// The files to check, and folders to walk for *.ctl-pgn files; - reads standard input.
    #[arg(value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,
}

/// When `check` colours what it prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourChoice {
    /// When standard output is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

/// How `check` prints its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// path:line:col: severity[code]: message [name], and the source line with carets.
    Human,
    /// A JSON array of diagnostics (docs/commands.md lists their fields).
    Json,
    /// GitHub Actions workflow commands (::error file=…,line=…::message), which annotate a
    /// pull request's lines.
    Github,
}

#[derive(Debug, Args)]
pub struct FmtArguments {
    /// Write nothing; list the files that would change and exit 1 if any.
    #[arg(long)]
    pub check: bool,
    /// Write nothing; show the changes as a unified diff and exit 1 if any.
    #[arg(long)]
    pub diff: bool,
    /// Walk folders into what .gitignore, .ignore and hidden names exclude too.
    #[arg(long)]
    pub no_ignore: bool,
    /// How to write the separators: unicode turns - and * into ‐ and ×, ascii turns them back.
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = Spelling::Keep)]
    pub separators: Spelling,
    /// How to write the ellipsis of a Black-first move line: unicode …, ascii ...
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = Spelling::Keep)]
    pub ellipsis: Spelling,
    #[command(flatten)]
    pub limit: InputLimit,
    /// The files to format, and folders to walk for *.ctl-pgn files; - (or /dev/stdin, a
    /// pipe, a device) formats standard input to standard output.
    #[arg(value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,
}

/// The formatter's choice of spelling for separators and ellipses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Spelling {
    /// As written.
    Keep,
    /// The Unicode characters.
    Unicode,
    /// Their ASCII stand-ins.
    Ascii,
}

impl Spelling {
    pub fn separators(self) -> Separators {
        match self {
            Spelling::Keep => Separators::Keep,
            Spelling::Unicode => Separators::Unicode,
            Spelling::Ascii => Separators::Ascii,
        }
    }

    pub fn ellipsis(self) -> EllipsisStyle {
        match self {
            Spelling::Keep => EllipsisStyle::Keep,
            Spelling::Unicode => EllipsisStyle::Unicode,
            Spelling::Ascii => EllipsisStyle::Ascii,
        }
    }
}

#[derive(Debug, Args)]
pub struct ReplayArguments {
    /// One JSON object per record per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limit: InputLimit,
    /// The file to replay; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct ConvertArguments {
    #[command(flatten)]
    pub target: ConversionTarget,
    /// Write the converted text back into the files instead of standard output.
    #[arg(short = 'i', long)]
    pub in_place: bool,
    /// Walk folders into what .gitignore, .ignore and hidden names exclude too.
    #[arg(long)]
    pub no_ignore: bool,
    #[command(flatten)]
    pub limit: InputLimit,
    /// The files to convert, and folders to walk for *.ctl-pgn files; - reads standard input
    /// (not with --in-place).
    #[arg(value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,
}

/// What `convert` turns the records into: exactly one of these.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct ConversionTarget {
    /// Minimal CTL-PGN for a minimum reader.
    #[arg(long)]
    pub minimal: bool,
    /// The identifiers rewritten to the standard letters.
    #[arg(long)]
    pub letters: bool,
    /// The identifiers rewritten to FAN figurines.
    #[arg(long)]
    pub fan: bool,
    /// The identifiers rewritten to a preset of alternative letters, such as "B@J, Q@D, W@V".
    #[arg(long, value_name = "LETTERS", value_parser = LetterTarget::redefine)]
    pub redefine: Option<LetterTarget>,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("place").required(true).args(["at", "ply"])))]
pub struct PdtlArguments {
    /// After the half-move at this place of the file (1-based line and column in characters).
    #[arg(long, value_name = "LINE:COL", value_parser = parse_line_column)]
    pub at: Option<(usize, usize)>,
    /// After the N-th half-move of the record's main line (0: its start).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// The record --ply speaks of (1-based); needed when the file holds several.
    #[arg(long, value_name = "K", requires = "ply", conflicts_with = "at", value_parser = clap::value_parser!(u64).range(1..))]
    pub record: Option<u64>,
    /// Print the standard letters whatever the record's Redefine.
    #[arg(long)]
    pub letters: bool,
    #[command(flatten)]
    pub limit: InputLimit,
    /// The file; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("place").required(true).args(["at", "ply", "pdtl"])))]
pub struct BoardArguments {
    /// After the half-move at this place of the file (1-based line and column in characters).
    #[arg(long, value_name = "LINE:COL", value_parser = parse_line_column, requires = "file")]
    pub at: Option<(usize, usize)>,
    /// After the N-th half-move of the record's main line (0: its start).
    #[arg(long, value_name = "N", requires = "file")]
    pub ply: Option<usize>,
    /// The record --ply speaks of (1-based); needed when the file holds several.
    #[arg(long, value_name = "K", requires = "ply", conflicts_with = "at", value_parser = clap::value_parser!(u64).range(1..))]
    pub record: Option<u64>,
    /// The position of this PDTL (in standard letters, or FAN), instead of a place of a file.
    #[arg(long, value_name = "PDTL", conflicts_with = "file")]
    pub pdtl: Option<String>,
    /// Black at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// What to draw.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = BoardFormat::Svg)]
    pub format: BoardFormat,
    /// The colours of an SVG or PNG board.
    #[arg(long, value_enum, value_name = "THEME", default_value_t = BoardTheme::Light)]
    pub theme: BoardTheme,
    /// Write the board to this file (replaced whole; a read-only file is refused) instead of
    /// standard output (- or /dev/stdout).
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub limit: InputLimit,
    /// The file; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// What `board` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoardFormat {
    /// An SVG document (about 24 KB).
    Svg,
    // The help says what a build without the png feature (the VS Code extension's server)
    // does instead.
    #[cfg_attr(
        feature = "png",
        doc = "The SVG rasterised, twice its size, for articles and slides."
    )]
    #[cfg_attr(
        not(feature = "png"),
        doc = "Not in this build of ctlpgn, made without its png feature: ask for svg."
    )]
    Png,
    /// The text picture of the 29 transversal lines.
    Text,
}

/// The colours of a drawn board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoardTheme {
    Light,
    Dark,
}

/// `LINE:COL`, both from 1.
fn parse_line_column(written: &str) -> Result<(usize, usize), String> {
    written
        .split_once(':')
        .and_then(|(line, column)| Some((line.parse().ok()?, column.parse().ok()?)))
        .filter(|&(line, column)| line >= 1 && column >= 1)
        .ok_or_else(|| "expected LINE:COL, both from 1".to_string())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_line_declaration_is_consistent() {
        CommandLine::command().debug_assert();
    }

    #[test]
    fn line_and_column_read_from_one() {
        assert_eq!(parse_line_column("12:3"), Ok((12, 3)));
        assert!(parse_line_column("0:3").is_err());
        assert!(parse_line_column("12").is_err());
        assert!(parse_line_column("a:b").is_err());
    }
}
