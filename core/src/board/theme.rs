//! The colours of the SVG board: a light and a dark default palette, each colour a CSS custom
//! property (`--ctlpgn-hex-white`, …) that a host page may set, so that a VS Code webview can
//! follow the editor's theme while an image in a hover still has sensible colours.

/// Which default palette the board uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// For light backgrounds (and printing).
    #[default]
    Light,
    /// For dark editor themes: dimmer hexes and light labels.
    Dark,
}

impl Theme {
    /// Both themes.
    pub const ALL: [Theme; 2] = [Theme::Light, Theme::Dark];

    /// `light` or `dark`, as a command-line option or a request names it.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme called `name`.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|theme| theme.name() == name)
    }

    /// The custom properties of the palette with their defaults in this theme, as
    /// `(property name without --ctlpgn-, colour)`.
    pub fn palette(self) -> [(&'static str, &'static str); PALETTE_SIZE] {
        let light = self == Theme::Light;
        let pick = |light_colour, dark_colour| if light { light_colour } else { dark_colour };
        [
            ("hex-white", pick("#f4ead5", "#a59d8c")),
            ("hex-coloured", pick("#d7ad6a", "#8f6d3e")),
            ("hex-black", pick("#8e6a4b", "#4f3b2a")),
            ("hex-edge", pick("#5c4631", "#262019")),
            ("white-piece", "#ffffff"),
            ("white-piece-ink", "#1b1b1b"),
            ("black-piece", "#1b1b1b"),
            ("black-piece-ink", "#ffffff"),
            ("label", pick("#4a4a4a", "#c8c8c8")),
            ("move", pick("#f5e050", "#d8c23c")),
            ("check", "#e0362c"),
            ("special", pick("#1565c0", "#64b5f6")),
        ]
    }
}

/// How many colours a palette has.
pub const PALETTE_SIZE: usize = 12;
