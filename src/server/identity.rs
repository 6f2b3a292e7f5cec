//! Guest identities: a player is a random id and a random token (128 bits from the OS). The
//! store keeps only the token's hash (BLAKE3), so a copy of the database signs nobody in, and
//! the token is never logged.

use crate::net::protocol::{MAX_NAME, PlayerInfo};

use crate::server::ratings::Rating;
use crate::server::settings::now_ms;
use crate::server::store::{Store, StoreError};

pub enum SignInError {
    Name(String),
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

/// A name as others will see it: trimmed, control characters dropped, at most `MAX_NAME`
/// characters; empty is refused.
pub fn clean_name(name: &str) -> Result<String, String> {
    let cleaned: String = name
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if cleaned.is_empty() {
        return Err("name: empty; choose a name others will see".into());
    }
    let count = cleaned.chars().count();
    if count > MAX_NAME {
        return Err(format!("name: {count} characters, at most {MAX_NAME}"));
    }
    Ok(cleaned)
}

/// The player a `hello` names: the one whose token it brings, or a new guest (also when the
/// token is not known, as after the server lost its data). Returns the token to keep.
pub async fn sign_in(
    store: &Store,
    name: &str,
    token: Option<&str>,
) -> Result<(PlayerInfo, String), SignInError> {
    let name = clean_name(name).map_err(SignInError::Name)?;
    if let Some(token) = token.filter(|t| t.len() <= 128)
        && let Some(mut row) = store.player_by_token(&hash_token(token)).await?
    {
        if row.info.name != name {
            store.rename_player(&row.info.id, &name).await?;
            row.info.name = name;
        }
        return Ok((row.info, token.to_owned()));
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
    fn tokens_are_random_and_hashed() {
        let (a, b) = (random_hex(16), random_hex(16));
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_ne!(hash_token(&a), a);
        assert_eq!(hash_token(&a), hash_token(&a));
    }
}
