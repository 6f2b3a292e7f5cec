//! The online screen's text fields, one kind for every form: what each field takes (a room
//! code, a friend code, a name, a password...), how it shows (a caret while typing, dots for a
//! secret), and the component a field's button carries. A press on such a button focuses it
//! (`typing`), and in the browser a real text input lies over it (`web_field`), so that a
//! phone's own keyboard opens for every field.

use bevy::prelude::*;

use crate::game::board::art::Art;
use crate::game::theme::widget::button;
use crate::net::notify::MAX_EMAIL;
use crate::net::protocol::{CODE_ALPHABET, CODE_LEN, MAX_NAME};
use crate::net::social::{FRIEND_CODE_LEN, LOGIN_LEN, PASSWORD_LEN, RECOVERY_CODE_LEN};
use crate::net::tournament::{MAX_TOURNAMENT_NAME, MAX_TOURNAMENT_PASSWORD, TOURNAMENT_ID_LEN};

/// A text field of the online screen, named for what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The player's name (kept in the settings).
    Name,
    /// A room's code, to join or watch it.
    RoomCode,
    /// A friend's code, to add them.
    FriendCode,
    /// Another device's link code, or the account's recovery code.
    AccountCode,
    /// A sign-in name.
    Login,
    Password,
    /// The account's current password or recovery code, which changes to it need.
    Current,
    /// A grown-up's answer to the child mode's question.
    Answer,
    /// The daily e-mail's address.
    Email,
    /// A tournament's code, to open it.
    TournamentCode,
    /// A new tournament's name.
    TournamentName,
    /// The password to join a tournament with.
    TournamentPassword,
    /// A new tournament's password, shown as typed: its organiser gives it to the players.
    NewTournamentPassword,
}

/// On a field's button: a press focuses the field, and in the browser an input lies over it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextField(pub Field);

/// The online screen's field being typed in: one at a time, the lobby's or a page's. Changed
/// only when the focus moves (its owner redraws its caret).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Typing(pub Option<Field>);

/// Enter pressed in a field: the lobby joins a room by its code, the pages send what the field
/// is for.
#[derive(Event, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entered(pub Field);

/// What a field's input element says of itself to the phone: its type, the keyboard's
/// capitals, what its Enter key reads, what a password manager may fill in.
pub struct InputHints {
    pub kind: &'static str,
    pub capitals: &'static str,
    pub enter: &'static str,
    pub autocomplete: &'static str,
    pub numeric: bool,
}

impl Field {
    /// `text` with `typed` added, as the field takes it: codes in capitals from the codes'
    /// alphabet (look-alikes and separators dropped), a name or a password as typed without
    /// control characters, a login in its own characters, the answer in digits; each no longer
    /// than the server accepts.
    #[must_use]
    pub fn take(self, text: &str, typed: &str) -> String {
        let chars = text.chars().chain(typed.chars());
        let most = self.longest();
        match self {
            Field::RoomCode | Field::FriendCode | Field::AccountCode | Field::TournamentCode => {
                chars
                    .flat_map(char::to_uppercase)
                    .filter(|&c| c.is_ascii() && CODE_ALPHABET.contains(&(c as u8)))
                    .take(most)
                    .collect()
            }
            Field::Login => chars
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
                .take(most)
                .collect(),
            Field::Answer => chars.filter(char::is_ascii_digit).take(most).collect(),
            Field::Email => chars
                .filter(|c| !c.is_control() && !c.is_whitespace())
                .take(most)
                .collect(),
            Field::Name
            | Field::Password
            | Field::Current
            | Field::TournamentName
            | Field::TournamentPassword
            | Field::NewTournamentPassword => {
                chars.filter(|c| !c.is_control()).take(most).collect()
            }
        }
    }

    /// The most characters the field takes.
    #[must_use]
    pub fn longest(self) -> usize {
        match self {
            Field::Name => MAX_NAME,
            Field::RoomCode => CODE_LEN,
            Field::FriendCode => FRIEND_CODE_LEN,
            Field::AccountCode => RECOVERY_CODE_LEN,
            Field::Login => LOGIN_LEN.1,
            Field::Password | Field::Current => PASSWORD_LEN.1,
            Field::Answer => 3,
            Field::Email => MAX_EMAIL,
            Field::TournamentCode => TOURNAMENT_ID_LEN,
            Field::TournamentName => MAX_TOURNAMENT_NAME,
            Field::TournamentPassword | Field::NewTournamentPassword => MAX_TOURNAMENT_PASSWORD,
        }
    }

    /// Whether what is typed shows as dots.
    #[must_use]
    pub fn secret(self) -> bool {
        matches!(
            self,
            Field::Password | Field::Current | Field::TournamentPassword
        )
    }

    /// The field's text on its button: a caret while typing, dots for a secret, `empty` when
    /// there is nothing yet.
    #[must_use]
    pub fn shown(self, value: &str, editing: bool, empty: &str) -> String {
        let shown = if self.secret() {
            "•".repeat(value.chars().count())
        } else {
            value.to_owned()
        };
        match (shown.is_empty(), editing) {
            (_, true) => format!("{shown}|"),
            (true, false) => empty.to_owned(),
            (false, false) => shown,
        }
    }

    /// The key of the field's name in the language tables (a screen reader reads it).
    #[must_use]
    pub fn label_key(self) -> &'static str {
        match self {
            Field::Name => "field.name",
            Field::RoomCode => "field.room_code",
            Field::FriendCode => "field.friend_code",
            Field::AccountCode => "field.account_code",
            Field::Login => "field.login",
            Field::Password => "field.password",
            Field::Current => "field.current",
            Field::Answer => "field.answer",
            Field::Email => "field.email",
            Field::TournamentCode => "field.tournament_code",
            Field::TournamentName => "field.tournament_name",
            Field::TournamentPassword => "field.tournament_password",
            Field::NewTournamentPassword => "field.new_tournament_password",
        }
    }

    /// How the field's input element presents itself to a phone's keyboard.
    #[must_use]
    pub fn hints(self) -> InputHints {
        let code = matches!(
            self,
            Field::RoomCode | Field::FriendCode | Field::AccountCode | Field::TournamentCode
        );
        InputHints {
            kind: match self {
                _ if self.secret() => "password",
                Field::Email => "email",
                _ => "text",
            },
            capitals: match self {
                _ if code => "characters",
                Field::Name | Field::TournamentName => "words",
                _ => "none",
            },
            enter: match self {
                Field::RoomCode | Field::TournamentCode => "go",
                Field::FriendCode | Field::AccountCode | Field::Answer | Field::Email => "send",
                _ => "done",
            },
            autocomplete: match self {
                Field::Login => "username",
                Field::Password | Field::Current => "current-password",
                Field::Email => "email",
                _ => "off",
            },
            numeric: self == Field::Answer,
        }
    }
}

/// A field's button: `value` as the field shows it (grouped, for a code), with a caret while
/// `typing` is in it.
pub fn text_field(
    art: &Art,
    field: Field,
    value: &str,
    typing: Option<Field>,
    empty: &str,
) -> impl Bundle {
    button(
        art,
        TextField(field),
        field.shown(value, typing == Some(field), empty),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_take_capitals_of_their_alphabet_up_to_their_length() {
        assert_eq!(Field::FriendCode.take("K7Q2", "-mx3p9"), "K7Q2MX3P");
        assert_eq!(
            Field::FriendCode.take("", "0O1I"),
            "",
            "look-alikes are refused"
        );
        assert_eq!(Field::RoomCode.take("K7", "q2-mx9z"), "K7Q2MX");
        assert_eq!(
            Field::AccountCode.take("ABCD", " efgh-jkmn-pqrs-tu"),
            "ABCDEFGHJKMNPQRS"
        );
        assert_eq!(Field::TournamentCode.take("7kq2", "-mxab9z"), "7KQ2MXAB");
    }

    #[test]
    fn words_take_what_a_person_types_without_control_characters() {
        assert_eq!(Field::Login.take("bà", "_an!"), "b_an");
        assert_eq!(Field::Answer.take("5", "6x7"), "567");
        assert_eq!(Field::Answer.take("567", "8"), "567");
        assert_eq!(Field::Password.take("mật", " khẩu\n"), "mật khẩu");
        assert_eq!(Field::Name.take("Bà ", "Năm\t"), "Bà Năm");
        assert_eq!(Field::Email.take("a b", "@c.vn\n"), "ab@c.vn");
        assert_eq!(Field::TournamentName.take("Lớp ", "4A\n"), "Lớp 4A");
        let long = "x".repeat(100);
        assert_eq!(Field::TournamentName.take("", &long).chars().count(), 40);
        assert_eq!(Field::Name.take("", &long).chars().count(), 24);
    }

    #[test]
    fn a_field_shows_a_caret_while_typed_in_and_dots_for_a_secret() {
        assert_eq!(Field::Password.shown("abc", false, "password"), "•••");
        assert_eq!(Field::Password.shown("", false, "password"), "password");
        assert_eq!(Field::Login.shown("an", true, "login"), "an|");
        assert_eq!(Field::RoomCode.shown("", true, "______"), "|");
    }
}
