//! Bad input quoted in an error message, cut short: a message names what is wrong without
//! echoing a megabyte of it back.

/// Characters of a bad value an error message quotes; the rest is counted, not shown.
const SHOWN: usize = 40;

/// `text` as a Rust string literal (quotes, escapes), cut to its first 40 characters.
///
/// ```
/// use oaq_rules::excerpt::quoted;
/// assert_eq!(quoted("7x"), r#""7x""#);
/// assert_eq!(quoted(&"a".repeat(100)), format!("{:?}… (100 characters)", "a".repeat(40)));
/// ```
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => format!("{text:?}"),
        Some((end, _)) => format!("{:?}… ({} characters)", &text[..end], text.chars().count()),
    }
}

/// `text` as it is, cut to its first 40 characters.
///
/// ```
/// use oaq_rules::excerpt::plain;
/// assert_eq!(plain("[1,2]"), "[1,2]");
/// assert!(plain(&"9".repeat(1000)).ends_with("… (1000 characters)"));
/// ```
pub fn plain(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
    }
}
