//! An SVG document as a `data:` URI (base64), the one way to put an image into a Markdown
//! hover without a file or a server to fetch it from.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `data:image/svg+xml;base64,…` holding `svg`.
pub fn svg_data_uri(svg: &str) -> String {
    let prefix = "data:image/svg+xml;base64,";
    let mut out = String::with_capacity(prefix.len() + svg.len().div_ceil(3) * 4);
    out.push_str(prefix);
    for chunk in svg.as_bytes().chunks(3) {
        let bytes =
            [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let group = u32::from(bytes[0]) << 16 | u32::from(bytes[1]) << 8 | u32::from(bytes[2]);
        for index in 0..4 {
            if index <= chunk.len() {
                out.push(char::from(ALPHABET[(group >> (18 - 6 * index) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::svg_data_uri;

    #[test]
    fn base64_pads_the_last_group() {
        let encoded = |text: &str| svg_data_uri(text).replace("data:image/svg+xml;base64,", "");
        assert_eq!(encoded(""), "");
        assert_eq!(encoded("f"), "Zg==");
        assert_eq!(encoded("fo"), "Zm8=");
        assert_eq!(encoded("foo"), "Zm9v");
        assert_eq!(encoded("<svg/>?"), "PHN2Zy8+Pw==");
    }
}
