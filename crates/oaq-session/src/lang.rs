//! The game's languages and their string tables: every text a player sees is looked up here by
//! key, so that switching the language changes all of it at once.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use oaq_rules::presets::Text;

/// A language the game speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    Vi,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Vi];

    /// The language's own name, as the menu shows it whatever the current language.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// The language for a locale tag such as `vi-VN`, `vi_VN.UTF-8` or `en-GB`: Vietnamese for
    /// any `vi` locale, English otherwise.
    ///
    /// ```
    /// use oaq_session::Lang;
    /// assert_eq!(Lang::from_locale("vi_VN.UTF-8"), Lang::Vi);
    /// assert_eq!(Lang::from_locale("en-US"), Lang::En);
    /// ```
    pub fn from_locale(tag: &str) -> Lang {
        let language = tag.split(['-', '_', '.', '@']).next().unwrap_or("");
        if language.eq_ignore_ascii_case("vi") {
            Lang::Vi
        } else {
            Lang::En
        }
    }

    /// The language of the system (the browser on the web), for the first start.
    pub fn from_system() -> Lang {
        sys_locale::get_locale()
            .map(|tag| Lang::from_locale(&tag))
            .unwrap_or_default()
    }

    /// This language's part of a text given in both, such as a rule set's name.
    pub fn pick(self, text: &Text) -> &str {
        match self {
            Lang::En => &text.en,
            Lang::Vi => &text.vi,
        }
    }

    /// This language's strings: the game's, and with the `server-strings` feature what the
    /// server sends (pushes, e-mails), which the game's build leaves out.
    pub fn strings(self) -> &'static Strings {
        static TABLES: OnceLock<[Strings; 2]> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            [
                Strings::parse("en", include_str!("../../../assets/lang/en.ron"))
                    .with_server(Lang::En),
                Strings::parse("vi", include_str!("../../../assets/lang/vi.ron"))
                    .with_server(Lang::Vi),
            ]
        });
        &tables[self as usize]
    }

    /// The server's own table in `lang` (pushes, e-mails).
    #[cfg(any(test, feature = "server-strings"))]
    fn server_table(lang: Lang) -> Strings {
        match lang {
            Lang::En => Strings::parse(
                "en.server",
                include_str!("../../../assets/lang/en.server.ron"),
            ),
            Lang::Vi => Strings::parse(
                "vi.server",
                include_str!("../../../assets/lang/vi.server.ron"),
            ),
        }
    }

    /// The text for `key`. A key missing from the table shows as itself (a test keeps the
    /// tables complete).
    pub fn tr(self, key: &'static str) -> &'static str {
        self.strings().get(key)
    }

    /// The text for `key` with each `{name}` replaced by its value.
    ///
    /// ```
    /// use oaq_session::Lang;
    /// let args: [(&str, &dyn std::fmt::Display); 2] = [("who", &"Lan"), ("n", &4)];
    /// assert_eq!(Lang::En.trf("capture.many", &args), "Lan captured 4 stones");
    /// assert_eq!(Lang::Vi.trf("capture.many", &args), "Lan ăn 4 viên dân");
    /// ```
    pub fn trf(self, key: &'static str, args: &[(&str, &dyn fmt::Display)]) -> String {
        let mut text = self.tr(key).to_owned();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), &value.to_string());
        }
        text
    }
}

/// One language's table: key → text.
#[derive(Debug)]
pub struct Strings {
    table: BTreeMap<String, String>,
}

impl Strings {
    fn parse(name: &str, source: &str) -> Strings {
        match Strings::from_ron(source) {
            Ok(strings) => strings,
            // The tables are part of the program, and a test parses them.
            Err(e) => panic!("assets/lang/{name}.ron is broken: {e}"),
        }
    }

    /// Parse a string table (a RON map from key to text).
    pub fn from_ron(source: &str) -> Result<Strings, ron::error::SpannedError> {
        Ok(Strings {
            table: ron::from_str(source)?,
        })
    }

    /// This table and the server's texts in the same language.
    #[cfg(feature = "server-strings")]
    fn with_server(mut self, lang: Lang) -> Strings {
        self.table.extend(Lang::server_table(lang).table);
        self
    }

    #[cfg(not(feature = "server-strings"))]
    fn with_server(self, _: Lang) -> Strings {
        self
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.table.keys().map(String::as_str)
    }

    /// The text for `key`, or the key itself when the table lacks it.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.table.get(key).map_or(key, String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_the_game_shows_has_its_glyphs_in_every_face() {
        use skrifa::MetadataProvider;
        // The symbols the screens draw themselves: steppers, the caret, separators, quarters.
        let drawn = "‹›+-»—|·×¼½¾…0123456789:.";
        for face in [
            "NotoSans-Regular.ttf",
            "NotoSans-Bold.ttf",
            "BeVietnamPro-Bold.ttf",
        ] {
            let path = format!("{}/../../assets/fonts/{face}", env!("CARGO_MANIFEST_DIR"));
            let data = std::fs::read(&path).unwrap();
            let font = skrifa::FontRef::new(&data).unwrap();
            let charmap = font.charmap();
            for lang in Lang::ALL {
                let strings = lang.strings();
                for key in strings.keys() {
                    let text = strings.get(key);
                    let missing: String = text
                        .chars()
                        .filter(|&c| !c.is_whitespace() && charmap.map(c).is_none())
                        .collect();
                    assert!(
                        missing.is_empty(),
                        "{face} lacks {missing:?} of {key} ({lang:?})"
                    );
                }
            }
            let missing: String = drawn
                .chars()
                .filter(|&c| charmap.map(c).is_none())
                .collect();
            assert!(missing.is_empty(), "{face} lacks {missing:?}");
            // The shipped fonts are subsets (`.ci/subset-fonts`): players' names still need
            // every Vietnamese letter (precomposed, or a letter and its tone's combining mark)
            // and the rest of Western European Latin.
            let names = ('\u{20}'..='\u{7e}')
                .chain('\u{c0}'..='\u{ff}')
                .chain("ĂăĐđĨĩŨũƠơƯư\u{300}\u{301}\u{303}\u{309}\u{323}".chars())
                .chain('\u{1ea0}'..='\u{1ef9}');
            let missing: String = names.filter(|&c| charmap.map(c).is_none()).collect();
            assert!(missing.is_empty(), "{face} lacks {missing:?} for names");
        }
    }

    /// `{name}` placeholders in a text.
    fn placeholders(text: &str) -> Vec<&str> {
        let mut names: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .collect();
        names.sort_unstable();
        names
    }

    #[test]
    fn both_tables_have_the_same_keys_and_placeholders() {
        let (en_server, vi_server) = (Lang::server_table(Lang::En), Lang::server_table(Lang::Vi));
        for (en, vi) in [
            (Lang::En.strings(), Lang::Vi.strings()),
            (&en_server, &vi_server),
        ] {
            same_keys_and_placeholders(en, vi);
        }
    }

    fn same_keys_and_placeholders(en: &Strings, vi: &Strings) {
        let en_keys: Vec<&str> = en.keys().collect();
        let vi_keys: Vec<&str> = vi.keys().collect();
        assert_eq!(en_keys, vi_keys);
        for key in en_keys {
            assert_eq!(
                placeholders(en.get(key)),
                placeholders(vi.get(key)),
                "placeholders of {key}"
            );
            assert!(!en.get(key).trim().is_empty(), "{key} is empty in en");
            assert!(!vi.get(key).trim().is_empty(), "{key} is empty in vi");
        }
    }

    #[test]
    fn every_key_the_game_looks_up_is_in_the_tables() {
        let mut used = Vec::new();
        // The game's sources and every crate's: the workspace's root is two folders up.
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for dir in ["src", "crates"] {
            collect_keys(&std::path::Path::new(root).join(dir), &mut used);
        }
        assert!(used.len() > 20, "the scan found only {used:?}");
        let server = Lang::server_table(Lang::En);
        for key in used {
            assert!(
                Lang::En.strings().table.contains_key(&key) || server.table.contains_key(&key),
                "{key} is looked up but not in the tables"
            );
        }
    }

    /// Keys in `.tr("key"` and `.trf("key"` calls of every source file under `dir`.
    fn collect_keys(dir: &std::path::Path, keys: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                collect_keys(&path, keys);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                let code = source.lines().filter(|l| !l.trim_start().starts_with("//"));
                for line in code {
                    for call in [".tr(\"", ".trf(\""] {
                        for (at, _) in line.match_indices(call) {
                            let rest = &line[at + call.len()..];
                            if let Some(end) = rest.find('"') {
                                keys.push(rest[..end].to_owned());
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn vietnamese_keeps_its_diacritics() {
        let vi = Lang::Vi.strings();
        assert_eq!(vi.get("swap.yes"), "Lật bàn");
        assert!(vi.get("help.refill.borrow").contains("bù dân"));
    }

    #[test]
    fn locales_pick_the_language() {
        assert_eq!(Lang::from_locale("vi"), Lang::Vi);
        assert_eq!(Lang::from_locale("VI-vn"), Lang::Vi);
        assert_eq!(Lang::from_locale("fr_FR"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
    }
}
