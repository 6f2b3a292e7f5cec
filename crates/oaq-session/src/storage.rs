//! Where settings and the saved game live: files in the platform's config and data directories,
//! each written atomically (a temporary file, then a rename), so that a crash or a kill at any
//! moment leaves either the old file or the new one, never half of one. In the browser they are
//! entries of the page's local storage, in the same format.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The settings file's name.
pub const SETTINGS: &str = "settings.ron";
/// The puzzles solved.
pub const PUZZLES: &str = "puzzles.ron";
/// The player's own puzzles to practise and when each is due.
pub const PRACTICE: &str = "practice.ron";
/// The game in progress.
pub const SAVED_GAME: &str = "game.ron";
/// The online identity's secret: the same player, back in the same seats, after a restart.
pub const ONLINE_TOKEN: &str = "online-token.txt";

/// A directory of named files (or, in the browser, local-storage entries named by a prefix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Storage {
    dir: PathBuf,
    browser: bool,
}

impl Storage {
    /// Files in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Storage {
        Storage {
            dir: dir.into(),
            browser: false,
        }
    }

    /// The settings' place: `$OAQ_HOME` when set (for tests and portable installs), else the
    /// platform's config directory; the page's local storage in a browser.
    pub fn config() -> Option<Storage> {
        #[cfg(target_arch = "wasm32")]
        return Some(Storage::browser());
        #[cfg(not(target_arch = "wasm32"))]
        Storage::from_env().or_else(|| Some(Storage::at(project_dirs()?.config_dir())))
    }

    /// The saved game's place: `$OAQ_HOME` when set, else the platform's data directory; the
    /// page's local storage in a browser.
    pub fn data() -> Option<Storage> {
        #[cfg(target_arch = "wasm32")]
        return Some(Storage::browser());
        #[cfg(not(target_arch = "wasm32"))]
        Storage::from_env().or_else(|| Some(Storage::at(project_dirs()?.data_dir())))
    }

    /// Local-storage entries `o-an-quan/NAME`.
    #[cfg(target_arch = "wasm32")]
    fn browser() -> Storage {
        Storage {
            dir: PathBuf::from("o-an-quan"),
            browser: true,
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn from_env() -> Option<Storage> {
        std::env::var_os("OAQ_HOME")
            .filter(|v| !v.is_empty())
            .map(Storage::at)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The file's text, or `None` when there is no such file.
    pub fn read(&self, name: &str) -> io::Result<Option<String>> {
        #[cfg(target_arch = "wasm32")]
        if self.browser {
            return web::read(&self.key(name));
        }
        match std::fs::read_to_string(self.path(name)) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Replace the file with `text` atomically.
    pub fn write(&self, name: &str, text: &str) -> io::Result<()> {
        #[cfg(target_arch = "wasm32")]
        if self.browser {
            // One local-storage write replaces the entry whole.
            return web::write(&self.key(name), text);
        }
        std::fs::create_dir_all(&self.dir)?;
        let temporary = self.path(&format!(".{name}.tmp"));
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        // Closed before the rename. (wasm32's `File` is a stub without `Drop`.)
        #[allow(clippy::drop_non_drop)]
        drop(file);
        std::fs::rename(&temporary, self.path(name))
    }

    /// Remove the file, if there is one.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        #[cfg(target_arch = "wasm32")]
        if self.browser {
            return web::remove(&self.key(name));
        }
        match std::fs::remove_file(self.path(name)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Move an unreadable file aside as `NAME.broken` so that writing a new one loses nothing.
    /// Returns the new name.
    pub fn set_aside(&self, name: &str) -> io::Result<String> {
        let aside = format!("{name}.broken");
        if cfg!(target_arch = "wasm32") && self.browser {
            let text = self.read(name)?.unwrap_or_default();
            self.write(&aside, &text)?;
            self.remove(name)?;
        } else {
            std::fs::rename(self.path(name), self.path(&aside))?;
        }
        Ok(aside)
    }

    /// The local-storage key of `name`.
    #[cfg(target_arch = "wasm32")]
    fn key(&self, name: &str) -> String {
        format!("{}/{name}", self.dir.display())
    }
}

/// The page's local storage.
#[cfg(target_arch = "wasm32")]
mod web {
    use std::io;

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| io::Error::other("this browser keeps no local storage"))
    }

    fn error(e: web_sys::wasm_bindgen::JsValue) -> io::Error {
        io::Error::other(format!("local storage: {e:?}"))
    }

    pub fn read(key: &str) -> io::Result<Option<String>> {
        storage()?.get_item(key).map_err(error)
    }

    pub fn write(key: &str, text: &str) -> io::Result<()> {
        storage()?.set_item(key, text).map_err(error)
    }

    pub fn remove(key: &str) -> io::Result<()> {
        storage()?.remove_item(key).map_err(error)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "o-an-quan")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> Storage {
        let dir = std::env::temp_dir().join(format!("oaq-storage-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Storage::at(dir)
    }

    #[test]
    fn files_are_written_read_replaced_and_removed() {
        let storage = scratch("rw");
        assert_eq!(storage.read(SAVED_GAME).unwrap(), None);
        storage.write(SAVED_GAME, "one").unwrap();
        storage.write(SAVED_GAME, "two").unwrap();
        assert_eq!(storage.read(SAVED_GAME).unwrap().as_deref(), Some("two"));
        let entries: Vec<_> = std::fs::read_dir(storage.dir()).unwrap().collect();
        assert_eq!(entries.len(), 1, "no temporary file is left behind");
        storage.remove(SAVED_GAME).unwrap();
        storage.remove(SAVED_GAME).unwrap();
        assert_eq!(storage.read(SAVED_GAME).unwrap(), None);
        let _ = std::fs::remove_dir_all(storage.dir());
    }

    #[test]
    fn a_broken_file_is_kept_aside() {
        let storage = scratch("aside");
        storage.write(SETTINGS, "(((").unwrap();
        assert_eq!(storage.set_aside(SETTINGS).unwrap(), "settings.ron.broken");
        assert_eq!(storage.read(SETTINGS).unwrap(), None);
        assert_eq!(
            storage.read("settings.ron.broken").unwrap().as_deref(),
            Some("(((")
        );
        let _ = std::fs::remove_dir_all(storage.dir());
    }
}
