//! The daily e-mail's task: every so often, the digests that are due, each with the player's
//! games by days as their rooms tell them, sent by the notifications' mailer.

use std::sync::Arc;
use std::time::Duration;

use crate::notify::mail::{BATCH, Mail};
use crate::room::correspondence::games_of;
use crate::settings::now_ms;
use crate::shared::Server;

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
