//! Guest identities: a player is a random id and a random token (128 bits from the OS). The
//! store keeps only the token's hash (BLAKE3), so a copy of the database signs nobody in, and
//! the token is never logged.

use crate::net::protocol::{MAX_NAME, PlayerInfo};

use crate::server::ratings::Rating;
use crate::server::settings::now_ms;
use crate::server::store::{Store, StoreError};

pub enum SignInError {
    Name(String),
    /// A new guest was needed and `may_create` said no (too many from one address).
    TooManyGuests,
    Store(StoreError),
}

impl From<StoreError> for SignInError {
    fn from(e: StoreError) -> Self {
        SignInError::Store(e)
    }
}

/// `n` random bytes from the OS, as lowercase hex.
fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    // The OS's generator failing is the machine failing; nothing sensible goes on without it.
    getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the OS's random numbers: {e}"));
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hash_token(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

/// Whether `c` is kept in a name: not a control character, and not an invisible format
/// character (bidi controls such as U+202E, which turns what follows it around on other
/// players' screens, zero-width spaces and marks, tag characters); the zero-width joiners that
/// hold emoji and some scripts together stay.
fn kept_in_name(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    match c.general_category() {
        GeneralCategory::Control | GeneralCategory::Surrogate | GeneralCategory::Unassigned => {
            false
        }
        GeneralCategory::Format => matches!(c, '\u{200C}' | '\u{200D}'),
        _ => true,
    }
}

/// Whether `c` shows something: a letter, a digit, punctuation or a symbol (not a space, a
/// mark on its own, or a joiner).
fn visible(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    )
}

/// A name as others will see it: trimmed, control and invisible format characters dropped,
/// at most `MAX_NAME` characters, with at least one character that shows; else refused.
pub fn clean_name(name: &str) -> Result<String, String> {
    let cleaned: String = name
        .chars()
        .filter(|&c| kept_in_name(c))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if !cleaned.chars().any(visible) {
        return Err("name: nothing in it shows; choose a name others will see".into());
    }
    let count = cleaned.chars().count();
    if count > MAX_NAME {
        return Err(format!("name: {count} characters, at most {MAX_NAME}"));
    }
    Ok(cleaned)
}

/// The player a `hello` names: the one whose token it brings, or a new guest (also when the
/// token is not known, as after the server lost its data), if `may_create` allows one.
/// Returns the token to keep.
pub async fn sign_in(
    store: &Store,
    name: &str,
    token: Option<&str>,
    may_create: impl FnOnce() -> bool,
) -> Result<(PlayerInfo, String), SignInError> {
    let name = clean_name(name).map_err(SignInError::Name)?;
    if let Some(token) = token.filter(|t| t.len() <= crate::net::protocol::MAX_TOKEN)
        && let Some(mut row) = store.player_by_token(&hash_token(token)).await?
    {
        if row.info.name != name {
            store.rename_player(&row.info.id, &name).await?;
            row.info.name = name;
        }
        return Ok((row.info, token.to_owned()));
    }
    if !may_create() {
        return Err(SignInError::TooManyGuests);
    }
    let id = random_hex(8);
    let token = random_hex(16);
    let rating = Rating::new();
    store
        .create_player(&id, &name, &hash_token(&token), rating, now_ms())
        .await?;
    let info = PlayerInfo {
        id,
        name,
        rating: crate::server::ratings::shown(rating.rating),
        deviation: crate::server::ratings::shown(rating.deviation),
        games: 0,
    };
    Ok((info, token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_and_bounded() {
        assert_eq!(clean_name("  Bà \u{7}  Năm ").unwrap(), "Bà Năm");
        assert!(clean_name(" \n ").is_err());
        assert!(
            clean_name(&"a".repeat(25))
                .unwrap_err()
                .contains("25 characters")
        );
        assert_eq!(clean_name(&"ă".repeat(24)).unwrap().chars().count(), 24);
    }

    #[test]
    fn invisible_names_are_refused_and_bidi_controls_dropped() {
        for name in [
            "\u{200B}\u{200D}\u{FEFF}",
            "\u{202E}\u{202D}\u{2066}\u{200F}",
            "\u{E0041}\u{E0042}",
            "\u{300}\u{301}",
            "\u{3000}\u{200B}",
        ] {
            let error = clean_name(name).unwrap_err();
            assert!(error.contains("nothing in it shows"), "{name:?}: {error}");
        }
        assert_eq!(clean_name("Lan\u{202E}gnaH").unwrap(), "LangnaH");
        assert_eq!(clean_name("\u{2067}Minh\u{2069}").unwrap(), "Minh");
        assert_eq!(clean_name("👨\u{200D}👩").unwrap(), "👨\u{200D}👩");
        assert_eq!(clean_name("Bà Năm 🙂").unwrap(), "Bà Năm 🙂");
        assert_eq!(clean_name("An\u{200B}h").unwrap(), "Anh");
    }

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, b) = (random_hex(16), random_hex(16));
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_ne!(hash_token(&a), a);
        assert_eq!(hash_token(&a), hash_token(&a));
    }
}
