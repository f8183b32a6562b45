//! Compiles the generated parser and the hand-written external scanner.

fn main() {
    let src_dir = std::path::Path::new("src");
    let mut c_config = cc::Build::new();
    c_config.std("c11").include(src_dir);
    // The generated parser trips a few of the compiler's warnings; they are not ours to fix.
    c_config.flag_if_supported("-Wno-unused-parameter");
    c_config.flag_if_supported("-Wno-unused-but-set-variable");
    c_config.flag_if_supported("-Wno-trigraphs");
    c_config.opt_level(3);
    // wasm32-unknown-unknown has no C library: tree-sitter-language ships the few headers a
    // parser includes (`stdlib.h`, `string.h`, …), whose functions the tree-sitter crate
    // provides from Rust's allocator. The web build compiles this way (clang).
    if std::env::var("TARGET").is_ok_and(|target| target.starts_with("wasm32-unknown")) {
        if let Ok(headers) = std::env::var("DEP_TREE_SITTER_LANGUAGE_WASM_HEADERS") {
            c_config.include(headers);
        }
    }
    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        c_config.file(&path);
        println!("cargo:rerun-if-changed={}", path.to_str().unwrap_or(file));
    }
    c_config.compile("tree-sitter-ctlpgn");
}
