//! What the screens keep between runs beside the settings (the puzzle progress, the practice):
//! a RON file of the config folder, read at start and written on change. One that does not
//! read is set aside and the thing starts again; one that cannot be written is said.

use bevy::prelude::*;

use crate::game::state::{Files, Message, Note};

/// The file `key` read with `parse`: `None` when there is none, or when it does not read (it
/// is then set aside, under another name, for a person to look at).
pub fn read<T>(files: &Files, key: &str, parse: impl Fn(&str) -> Result<T, String>) -> Option<T> {
    let text = files.config.read(key).ok()??;
    match parse(&text) {
        Ok(kept) => Some(kept),
        Err(_) => {
            let _ = files.config.set_aside(key);
            None
        }
    }
}

/// `text` written to the file `key`; a failure is said on the message line.
pub fn write(files: Option<Res<Files>>, key: &str, text: &str, mut message: ResMut<Message>) {
    let Some(files) = files else { return };
    if let Err(e) = files.config.write(key, text) {
        message.set(Note::text("error.storage", &[("why", &e.to_string())]));
    }
}
