//! The daily e-mail: once a day, to each player who asked for it (and gave an address), the
//! games by days waiting for their move, each with its link, in their language. Sent over SMTP
//! (`--smtp-url`, TLS as the URL says) with a bounded wait; a mail server that is down delays
//! nobody's game and the e-mail is tried again the next day.

use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::net::correspondence::{MyGame, time_words};
use crate::server::conn::correspondence::games_of;
use crate::server::settings::now_ms;
use crate::server::shared::Server;
use crate::session::Lang;

/// How long one e-mail may take to hand over.
const WAIT: Duration = Duration::from_secs(15);
/// Digests written in one pass.
const BATCH: i64 = 200;

pub struct Mail {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    base_url: String,
}

impl Mail {
    /// `url`: `smtp://host:port` (plain, or STARTTLS when offered), `smtps://…` (TLS), with
    /// `user:password@` if the server wants them; `from`: the sender's address.
    pub fn new(url: &str, from: &str, base_url: String) -> Result<Mail, String> {
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
        })
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
        let to: Mailbox = to.parse().map_err(|e| format!("{to:?}: {e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .header(lettre::message::header::ContentType::TEXT_PLAIN)
            .body(body)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    pub async fn send(&self, message: Message) -> Result<(), String> {
        match tokio::time::timeout(WAIT, self.transport.send(message)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("the mail server did not answer in {WAIT:?}")),
        }
    }
}

/// Write the digests that are due, every so often (a twentieth of a day, at most every ten
/// minutes), until the server stops.
pub async fn run(server: Arc<Server>, mail: Arc<Mail>) {
    let day = server.settings.day;
    let every = (day / 20).clamp(Duration::from_millis(100), Duration::from_secs(600));
    let mut tick = tokio::time::interval(every);
    let mut stopping = server.stopping.clone();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.changed() => return,
        }
        let now = now_ms();
        let due = match server
            .store
            .digests_due(now, day.as_millis() as i64, BATCH)
            .await
        {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!("daily e-mails: {e}");
                continue;
            }
        };
        for (player, address, lang) in due {
            // Marked first: a failure waits for tomorrow rather than repeating every tick.
            if let Err(e) = server.store.digest_done(&player, now).await {
                tracing::warn!("daily e-mails: {e}");
                continue;
            }
            let games = match games_of(&server, &player).await {
                Ok(g) => g,
                Err(e) => {
                    tracing::warn!("daily e-mails: {e}");
                    continue;
                }
            };
            let message = match mail.digest(&address, lang, &games) {
                Ok(Some(m)) => m,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!("a daily e-mail: {e}");
                    continue;
                }
            };
            let outcome = mail.send(message).await;
            server.metrics.mail_sent(outcome.is_ok());
            if let Err(e) = outcome {
                tracing::warn!("sending a daily e-mail: {e}");
            }
        }
    }
}
