//! The daily e-mail: once a day, to each player who asked for it (and gave an address that
//! its owner confirmed), the games by days waiting for their move, each with its link, in
//! their language. Sent over SMTP (`--smtp-url`, TLS as the URL says) with a bounded wait; a
//! mail server that is down delays nobody's game and the e-mail is tried again the next day.
//!
//! **Nothing goes to an address its owner did not confirm** (double opt-in): a new address
//! gets one e-mail, a link with a random one-time nonce kept for that player, and the digest
//! starts only once it is followed. Confirmations are counted per address and day
//! (`--mails-per-address`) and per player, in the statement that counts them. **Every e-mail
//! can stop all mail to its address in one click**: the link, and the `List-Unsubscribe` and
//! `List-Unsubscribe-Post: List-Unsubscribe=One-Click` headers of RFC 8058, carry the address
//! signed with the server's key (BLAKE3 keyed), so it works for someone who never played; the
//! address is then kept only as a keyed hash, and nothing more is sent to it by anyone.

use std::time::Duration;

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use oaq_net::correspondence::{MyGame, time_words};
use oaq_session::Lang;

/// How long one e-mail may take to hand over.
const WAIT: Duration = Duration::from_secs(15);
/// Digests written in one pass.
pub(crate) const BATCH: i64 = 200;

pub struct Mail {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    base_url: String,
    /// The server's key for signing addresses (the unsubscribe links) and hashing them.
    key: [u8; 32],
}

/// `List-Unsubscribe: <URL>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct OneClick;

type HeaderError = Box<dyn std::error::Error + Send + Sync>;

impl lettre::message::header::Header for ListUnsubscribe {
    fn name() -> lettre::message::header::HeaderName {
        lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, HeaderError> {
        Ok(ListUnsubscribe(s.trim_matches(['<', '>']).to_owned()))
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

impl lettre::message::header::Header for OneClick {
    fn name() -> lettre::message::header::HeaderName {
        lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, HeaderError> {
        Ok(OneClick)
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

impl Mail {
    /// `url`: `smtp://host:port` (plain, or STARTTLS when offered), `smtps://…` (TLS), with
    /// `user:password@` if the server wants them; `from`: the sender's address.
    pub fn new(url: &str, from: &str, base_url: String, key: [u8; 32]) -> Result<Mail, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("--smtp-url: {e}"))?
            .timeout(Some(WAIT))
            .build();
        let from = from
            .parse()
            .map_err(|e| format!("--mail-from {from:?}: {e}"))?;
        Ok(Mail {
            transport,
            from,
            base_url,
            key,
        })
    }

    /// The address as it is compared: trimmed, lowercase.
    fn canonical(address: &str) -> String {
        address.trim().to_lowercase()
    }

    /// The keyed hash an address is kept as (the refused list, the daily counts).
    pub fn address_hash(&self, address: &str) -> String {
        blake3::keyed_hash(&self.key, Self::canonical(address).as_bytes())
            .to_hex()
            .to_string()
    }

    /// The signature of an address in its unsubscribe link.
    fn signature(&self, address: &str) -> String {
        let mut hasher = blake3::Hasher::new_keyed(&self.key);
        hasher.update(b"unsubscribe\0");
        hasher.update(Self::canonical(address).as_bytes());
        hasher.finalize().to_hex().to_string()
    }

    /// The address an unsubscribe link's parameters name, if its signature is the server's.
    pub fn signed_address(&self, encoded: &str, signature: &str) -> Option<String> {
        use base64::Engine;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(encoded)
            .ok()?;
        let address = String::from_utf8(bytes).ok()?;
        let expected = self.signature(&address);
        // Compared in constant time: the signature is a MAC.
        let same = expected.len() == signature.len()
            && expected
                .bytes()
                .zip(signature.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        same.then_some(address)
    }

    /// The one-click link that stops all mail to `address`.
    pub fn stop_url(&self, address: &str) -> String {
        use base64::Engine;
        let encoded =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Self::canonical(address));
        format!(
            "{}/mail/stop?a={encoded}&s={}",
            self.base_url.trim_end_matches('/'),
            self.signature(address)
        )
    }

    /// A message to `to` with the unsubscribe headers every e-mail of ours carries.
    fn message(&self, to: &str, subject: String, body: String) -> Result<Message, String> {
        let mailbox: Mailbox = to.parse().map_err(|e| format!("{to:?}: {e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(mailbox)
            .subject(subject)
            .header(lettre::message::header::ContentType::TEXT_PLAIN)
            .header(ListUnsubscribe(self.stop_url(to)))
            .header(OneClick)
            .body(body)
            .map_err(|e| e.to_string())
    }

    /// The e-mail asking the owner of `to` to confirm it for `player`'s daily e-mail.
    pub fn confirmation(
        &self,
        to: &str,
        lang: Lang,
        player: &str,
        nonce: &str,
    ) -> Result<Message, String> {
        let base = self.base_url.trim_end_matches('/');
        let confirm = format!("{base}/mail/confirm?p={player}&n={nonce}");
        let body = lang.trf(
            "mail.confirm.body",
            &[("confirm", &confirm), ("stop", &self.stop_url(to))],
        );
        self.message(to, lang.tr("mail.confirm.subject").to_owned(), body)
    }

    /// The digest of `games` (those ours to move), or `None` when none waits.
    pub fn digest(
        &self,
        to: &str,
        lang: Lang,
        games: &[MyGame],
    ) -> Result<Option<Message>, String> {
        let waiting: Vec<&MyGame> = games.iter().filter(|g| g.your_turn).collect();
        if waiting.is_empty() {
            return Ok(None);
        }
        let subject = match waiting.len() {
            1 => lang.tr("mail.subject.one").to_owned(),
            n => lang.trf("mail.subject", &[("n", &n)]),
        };
        let base = self.base_url.trim_end_matches('/');
        let mut body = format!("{}\n\n", lang.tr("mail.hello"));
        for g in &waiting {
            let left = time_words(g.left_ms.unwrap_or(0), lang);
            let url = format!("{base}/?room={}", g.code);
            body.push_str(&lang.trf(
                "mail.line",
                &[("who", &g.opponent), ("left", &left), ("url", &url)],
            ));
            body.push('\n');
        }
        body.push_str(&format!("\n{}\n", lang.tr("mail.stop")));
        body.push_str(&format!("{}\n", self.stop_url(to)));
        self.message(to, subject, body).map(Some)
    }

    pub async fn send(&self, message: Message) -> Result<(), String> {
        match tokio::time::timeout(WAIT, self.transport.send(message)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("the mail server did not answer in {WAIT:?}")),
        }
    }
}
