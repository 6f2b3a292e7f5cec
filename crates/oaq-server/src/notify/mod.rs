//! Telling players what happened while they were away: Web Push to the devices they subscribed
//! ([`push`]) and a daily e-mail of the games waiting for their move ([`mail`]). Each is sent
//! only when the player wants it and is not connected (a connected player hears it in the
//! game), off the task that caused it, with every wait bounded: a push service or mail server
//! that is slow or down costs a log line, never a room's time.
//!
//! **Notifications**: `set_notifications` chooses which news a player hears of when away (their
//! move in a game by days, a challenge, a game by days ended on time; all on by default, all off
//! with one switch) and the daily e-mail (opt-in, with an address checked as one). **Web Push**:
//! the server's VAPID key pair is made at its first start and kept in the store (`server_keys`),
//! so every node and restart signs with the key browsers subscribed with; `push_subscribe` takes
//! a browser's subscription (an HTTPS endpoint of a known push service only, so no client makes
//! the server call an address of its choosing; a P-256 key and a 16-byte secret; 10 devices a
//! player) with the game's language; each message is JSON (`title`, `body` in that language,
//! `tag` the game, `url` the game's link) encrypted per RFC 8291 and signed per RFC 8292 by
//! `web-push-native`, POSTed over HTTPS (hyper with rustls) with `Topic` = the game (a push
//! service keeps the last per game for a device that is off) and a TTL of a day; a push
//! service's `404`/`410` forgets the subscription; 32 in flight at most, each answer awaited
//! 10 s at most. Sent only to players connected nowhere (a connected player hears it in the
//! game). The page's service worker shows it (one per game, `tag`) and opens the game when
//! tapped. **E-mail**: once a day (of `--day-secs`) each player who asked gets the games by days
//! waiting for their move, with links (`--public-url`), in their language, through
//! `--smtp-url` (lettre); a mail server down costs that day's e-mail, nothing else. For phones
//! whose browser has no push (iPhones unless the game is on the home screen). **Desktop**: news
//! while the game's window is in the background makes it ask for attention (winit's request:
//! a blinking task bar entry, a bouncing dock icon).

pub mod mail;
pub mod push;
