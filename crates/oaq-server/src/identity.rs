//! Identities: a player is a random id; each device signed in as the player has a random
//! token of its own (128 bits from the OS). Another device becomes the same player with a
//! one-time link code, a recovery code or a sign-in name and password. The store keeps tokens
//! and codes only as hashes (BLAKE3: they are random, so a fast hash is enough) and passwords
//! only as argon2id strings (slow by design: people choose them), so a copy of the database
//! signs nobody in. None of them is ever logged.

use oaq_net::protocol::{CODE_ALPHABET, MAX_NAME, PlayerInfo};
use oaq_net::social::MAX_DEVICE_LABEL;

use crate::ratings::Rating;
use crate::settings::now_ms;
use crate::store::{Store, StoreError};

pub enum SignInError {
    Name(String),
    /// A new guest was needed and `may_create` said no (too many from one address).
    TooManyGuests,
    /// The token's player is banned.
    Banned,
    Store(StoreError),
}

impl From<StoreError> for SignInError {
    fn from(e: StoreError) -> Self {
        SignInError::Store(e)
    }
}

/// Who a connection is, once signed in.
#[derive(Clone, Debug)]
pub struct SignedIn {
    pub player: PlayerInfo,
    /// The device's token, to keep.
    pub token: String,
    /// The device's id in the player's list.
    pub device: String,
    pub child: bool,
}

/// `n` random bytes from the OS, as lowercase hex.
pub fn random_hex(n: usize) -> String {
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

/// `text` as others will see it: control and invisible format characters dropped, runs of
/// white space made one space, trimmed; `None` when nothing in it shows.
fn shown(text: &str) -> Option<String> {
    let kept = text
        .chars()
        .filter(|&c| kept_in_name(c))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    kept.chars().any(visible).then_some(kept)
}

/// A name as others will see it (`shown`), at most `MAX_NAME` characters; else refused.
pub fn clean_name(name: &str) -> Result<String, String> {
    let cleaned = shown(name).ok_or("name: nothing in it shows; choose a name others will see")?;
    let count = cleaned.chars().count();
    if count > MAX_NAME {
        return Err(format!("name: {count} characters, at most {MAX_NAME}"));
    }
    Ok(cleaned)
}

/// A tournament's name as players will see it: the same characters as a player's name
/// (`shown`), at most `MAX_TOURNAMENT_NAME` characters; else refused, naming the field.
pub fn clean_tournament_name(name: &str) -> Result<String, String> {
    let cleaned = shown(name).ok_or("name: nothing in it shows; give the tournament a name")?;
    let count = cleaned.chars().count();
    let max = oaq_net::tournament::MAX_TOURNAMENT_NAME;
    if count > max {
        return Err(format!("name: {count} characters, at most {max}"));
    }
    Ok(cleaned)
}

/// A device's label as the list shows it (`shown`), cut to `MAX_DEVICE_LABEL` characters;
/// empty when it shows nothing.
pub fn clean_label(label: &str) -> String {
    shown(label).map_or_else(String::new, |l| l.chars().take(MAX_DEVICE_LABEL).collect())
}

/// The player a `hello` names: the one whose device token it brings, or a new guest (also when
/// the token is not known, as after the device was signed out), if `may_create` allows one.
pub async fn sign_in(
    store: &Store,
    name: &str,
    token: Option<&str>,
    label: Option<&str>,
    child: bool,
    may_create: impl FnOnce() -> bool,
) -> Result<SignedIn, SignInError> {
    let name = clean_name(name).map_err(SignInError::Name)?;
    let label = label.map(clean_label);
    if let Some(token) = token.filter(|t| t.len() <= oaq_net::protocol::MAX_TOKEN)
        && let Some(mut account) = store.account_by_token(&hash_token(token)).await?
    {
        if account.banned {
            return Err(SignInError::Banned);
        }
        // A name an operator set stays: the player's own game cannot set it back.
        if account.row.info.name != name && !account.name_locked {
            store.rename_player(&account.row.info.id, &name).await?;
            account.row.info.name = name;
        }
        store
            .touch_device(&account.device, label.as_deref(), now_ms())
            .await?;
        return Ok(SignedIn {
            player: account.row.info,
            token: token.to_owned(),
            device: account.device,
            child: account.child,
        });
    }
    if !may_create() {
        return Err(SignInError::TooManyGuests);
    }
    let id = random_hex(8);
    let token = random_hex(16);
    let device = random_hex(8);
    let rating = Rating::new();
    store
        .create_player(
            &id,
            &name,
            &hash_token(&token),
            &device,
            label.as_deref().unwrap_or(""),
            child,
            rating,
            now_ms(),
        )
        .await?;
    let info = PlayerInfo {
        id,
        name,
        rating: crate::ratings::shown(rating.rating),
        deviation: crate::ratings::shown(rating.deviation),
        games: 0,
        bot: false,
    };
    Ok(SignedIn {
        player: info,
        token,
        device,
        child,
    })
}

/// A new device signed in as `player` (after a link code, a recovery code or a password):
/// its token and id.
pub async fn new_device(
    store: &Store,
    player: &str,
    label: &str,
) -> Result<(String, String), StoreError> {
    let token = random_hex(16);
    let device = random_hex(8);
    store
        .add_device(
            player,
            &device,
            &hash_token(&token),
            &clean_label(label),
            now_ms(),
        )
        .await?;
    Ok((token, device))
}

/// A code of `len` characters from the room codes' alphabet, from the OS's randomness.
pub fn new_code(len: usize) -> String {
    let mut out = String::with_capacity(len);
    while out.len() < len {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the OS's random numbers: {e}"));
        // 248 is the largest multiple of 31 in a byte: bytes beyond it are drawn again, so
        // every character is equally likely.
        for b in bytes.into_iter().filter(|&b| b < 248).take(len - out.len()) {
            out.push(CODE_ALPHABET[usize::from(b) % CODE_ALPHABET.len()] as char);
        }
    }
    out
}

/// A random id for a row (a challenge, a report, an operator's action).
pub fn new_id() -> String {
    random_hex(8)
}

/// `password` as an argon2id string (its own random salt; RFC 9106's second recommended
/// parameters, argon2's defaults). Slow on purpose: call it off the async threads.
pub fn hash_password(password: &str) -> Result<String, String> {
    use argon2::password_hash::{PasswordHasher, SaltString, rand_core::OsRng};
    let salt = SaltString::generate(&mut OsRng);
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("hashing the password: {e}"))
}

/// An argon2id string of no password anyone has, checked when a name does not exist (the
/// answer takes as long as for one that does).
pub fn dummy_hash() -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| hash_password("no one's password").unwrap_or_default())
        .clone()
}

/// A new bot API token: 192 random bits, told apart from a device's by its prefix.
pub fn new_bot_token() -> String {
    format!("oaqbot_{}", random_hex(24))
}

/// Whether `password` is the one `phc` was made from.
pub fn verify_password(password: &str, phc: &str) -> bool {
    use argon2::password_hash::{PasswordHash, PasswordVerifier};
    PasswordHash::new(phc).is_ok_and(|hash| {
        argon2::Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
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
    fn codes_are_random_and_of_the_alphabet() {
        let a = new_code(16);
        assert!(oaq_net::social::is_code(&a, 16), "{a}");
        assert_ne!(a, new_code(16));
    }

    #[test]
    fn passwords_are_kept_as_argon2id_and_checked() {
        let phc = hash_password("bà nội 1942").unwrap();
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert!(!phc.contains("1942"));
        assert!(verify_password("bà nội 1942", &phc));
        assert!(!verify_password("bà nội 1943", &phc));
        assert!(!verify_password("bà nội 1942", "not a hash"));
        assert_ne!(
            phc,
            hash_password("bà nội 1942").unwrap(),
            "a salt of its own"
        );
    }

    #[test]
    fn device_labels_are_cleaned_and_short() {
        assert_eq!(clean_label("Firefox on Android"), "Firefox on Android");
        assert_eq!(clean_label("\u{202E}x"), "x");
        assert_eq!(
            clean_label(&"a".repeat(100)).chars().count(),
            MAX_DEVICE_LABEL
        );
        assert_eq!(clean_label("\u{200B}"), "");
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
