//! `ctlpgn board --format png`: the board's SVG rasterised by resvg, with a system font for the
//! piece letters. The board's colours are CSS custom properties with defaults, which resvg does
//! not read, so they are written out as their defaults first.
//!
//! resvg and its fonts are 43 of the 120 crates the binary is built from, for this alone: they
//! come with the `png` feature, on by default. The VS Code extension's server is built without
//! it.

/// Whether this build draws PNG pictures (the `png` feature).
pub const BUILT: bool = cfg!(feature = "png");

/// What a build without the `png` feature answers to `--format png`.
pub const NOT_BUILT: &str = "this build of ctlpgn has no PNG (it was built without its png \
     feature, as the VS Code extension's server is): ask for --format svg, or use a ctlpgn \
     built with its default features (as cargo install builds it)";

/// How many pixels a unit of the SVG becomes in a PNG: twice its size, sharp in print.
#[cfg(feature = "png")]
const PNG_SCALE: f32 = 2.0;

/// The board's SVG as a PNG picture.
#[cfg(feature = "png")]
pub fn rasterise(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};

    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // The board asks for `sans-serif`, which fontdb maps to Arial: map it to a sans-serif face
    // this machine has, else to any face at all.
    let family = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans", "Arial"]
        .into_iter()
        .map(str::to_string)
        .find(|wanted| {
            fonts.faces().any(|face| face.families.iter().any(|(name, _)| name == wanted))
        })
        .or_else(|| {
            fonts.faces().find_map(|face| face.families.first().map(|(name, _)| name.clone()))
        });
    let Some(family) = family else {
        return Err("no font was found to draw the piece letters of a PNG board (install one, \
                    such as Debian's fonts-dejavu-core), or ask for --format svg"
            .to_string());
    };
    fonts.set_sans_serif_family(family);
    let tree = usvg::Tree::from_str(&without_custom_properties(svg), &options)
        .map_err(|error| format!("the board's SVG could not be read for the PNG: {error}"))?;
    let size = tree.size().to_int_size().scale_by(PNG_SCALE).ok_or("the board is empty")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("no room for the PNG picture")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|error| format!("the PNG could not be encoded: {error}"))
}

/// Without the `png` feature: why there is no picture (`board` says it before reading a file).
#[cfg(not(feature = "png"))]
pub fn rasterise(_svg: &str) -> Result<Vec<u8>, String> {
    Err(NOT_BUILT.to_string())
}

/// `svg` with every `var(--name,default)` replaced by its default: the colours a page could set
/// are the theme's own in a picture.
#[cfg(feature = "png")]
fn without_custom_properties(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("var(--") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let (Some(comma), Some(close)) = (after.find(','), after.find(')')) else {
            out.push_str(after);
            return out;
        };
        if comma < close {
            out.push_str(after[comma + 1..close].trim());
        } else {
            out.push_str(&after[..=close]);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(all(test, feature = "png"))]
mod tests {
    use super::without_custom_properties;

    #[test]
    fn custom_properties_become_their_defaults() {
        let svg = ".hex{fill:var(--ctlpgn-hex-white,#f4ead5);stroke:var(--edge, #5c4631)}";
        assert_eq!(without_custom_properties(svg), ".hex{fill:#f4ead5;stroke:#5c4631}");
        assert_eq!(without_custom_properties("fill:var(--x)"), "fill:var(--x)");
    }
}
