//! Limits: a token bucket per connection for its messages; buckets per address for looking
//! up room codes that do not exist (so codes cannot be guessed in bulk, and reconnecting does
//! not reset it), for opening rooms and for new guests; and a count of open connections per
//! address. An IPv6 address counts by its /64, the block one home or phone gets.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The part of an address that stands for one client: the whole IPv4 address, or an IPv6
/// address's /64 (an IPv4 address mapped into IPv6 is the IPv4 address).
pub fn client_key(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut seg = v6.segments();
                seg[4..].iter_mut().for_each(|s| *s = 0);
                IpAddr::V6(std::net::Ipv6Addr::from(seg))
            }
        },
    }
}

/// Tokens refill at `rate` a second up to `burst`; each message takes one.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            rate,
            burst,
            last: Instant::now(),
        }
    }

    /// Whether a token is there now (refilled, none taken).
    pub fn has_token(&mut self) -> bool {
        self.refill(Instant::now());
        self.tokens >= 1.0
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
    }

    /// Give a token back (never beyond the burst).
    pub fn give_back(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.burst);
    }

    /// Take a token if there is one.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Something counted per key (an address, a sign-in name): `per_minute` allowed, with a burst
/// of as many.
pub struct KeyedBuckets<K> {
    per_minute: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

/// Something counted per address (an IPv6 address by its /64).
pub type AddressBuckets = KeyedBuckets<IpAddr>;

impl<K: std::hash::Hash + Eq> KeyedBuckets<K> {
    pub fn new(per_minute: f64) -> KeyedBuckets<K> {
        KeyedBuckets {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, key: K, f: impl FnOnce(&mut Bucket) -> T) -> T {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        // Forget keys whose bucket has refilled, so the map stays small.
        if buckets.len() > 10_000 {
            let now = Instant::now();
            buckets.retain(|_, b| {
                b.refill(now);
                b.tokens < b.burst
            });
        }
        let bucket = buckets
            .entry(key)
            .or_insert_with(|| Bucket::new(self.per_minute / 60.0, self.per_minute));
        f(bucket)
    }

    /// Whether `key` may do one more (nothing is counted).
    pub fn allow_key(&self, key: K) -> bool {
        self.with(key, Bucket::has_token)
    }

    /// Count one against `key`; whether it was allowed.
    pub fn take_key(&self, key: K) -> bool {
        self.with(key, Bucket::take)
    }

    /// Give back one taken from `key` (what it was taken for went well): a limit that is
    /// charged before the work it guards, so concurrent attempts cannot all pass its check,
    /// and refunded after it where only failures should count.
    pub fn give_back_key(&self, key: K) {
        self.with(key, Bucket::give_back)
    }
}

impl KeyedBuckets<IpAddr> {
    /// Whether `addr` may do one more (nothing is counted).
    pub fn allow(&self, addr: IpAddr) -> bool {
        self.allow_key(client_key(addr))
    }

    /// Count one against `addr`; whether it was allowed.
    pub fn take(&self, addr: IpAddr) -> bool {
        self.take_key(client_key(addr))
    }

    /// Give back one taken from `addr`.
    pub fn give_back(&self, addr: IpAddr) {
        self.give_back_key(client_key(addr))
    }
}

/// Secrets (their hashes: bot tokens) found right lately. A request that repeats one is not
/// a guess, so many sent at once with a right token are not refused as wrong ones would be;
/// nobody can put a hash here without knowing its secret, and one that stops being right (a
/// token revoked) is forgotten at its next use.
pub struct RecentlyRight {
    keep: std::time::Duration,
    seen: Mutex<HashMap<String, Instant>>,
}

impl RecentlyRight {
    pub fn new(keep: std::time::Duration) -> RecentlyRight {
        RecentlyRight {
            keep,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `hash` was right within the time kept.
    pub fn contains(&self, hash: &str) -> bool {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(hash).is_some_and(|at| at.elapsed() < self.keep)
    }

    /// `hash` was right now.
    pub fn insert(&self, hash: &str) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() > 10_000 {
            seen.retain(|_, at| at.elapsed() < self.keep);
        }
        if seen.len() <= 10_000 {
            seen.insert(hash.to_owned(), Instant::now());
        }
    }

    /// `hash` is not right (any more).
    pub fn forget(&self, hash: &str) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.remove(hash);
    }
}

/// One lock per key (a player), held while a cap is checked and what it counts is written,
/// so two rooms opened at once for one player cannot both pass a check that counted neither.
/// Locks are taken in the keys' order, so two holders of overlapping sets cannot deadlock.
#[derive(Default)]
pub struct KeyedLocks {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// Held locks; dropping them lets the next holder in.
pub struct KeyedGuards(#[allow(dead_code)] Vec<tokio::sync::OwnedMutexGuard<()>>);

impl KeyedLocks {
    /// Lock every key of `keys` (duplicates once), in order.
    pub async fn lock<S: AsRef<str>>(&self, keys: &[S]) -> KeyedGuards {
        let mut keys: Vec<&str> = keys.iter().map(AsRef::as_ref).collect();
        keys.sort_unstable();
        keys.dedup();
        let mutexes: Vec<_> = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            // Forget locks nobody holds or waits for, so the map stays small.
            if locks.len() > 10_000 {
                locks.retain(|_, m| Arc::strong_count(m) > 1);
            }
            keys.iter()
                .map(|k| locks.entry((*k).to_owned()).or_default().clone())
                .collect()
        };
        let mut guards = Vec::with_capacity(mutexes.len());
        for m in mutexes {
            guards.push(m.lock_owned().await);
        }
        KeyedGuards(guards)
    }
}

/// A bounded queue for slow work (password hashing): `running` at once, and at most `waiting`
/// more queued; past that a request is refused at once instead of waiting without end.
pub struct BoundedQueue {
    running: tokio::sync::Semaphore,
    queued: tokio::sync::Semaphore,
}

/// The queue is full: refused, nothing done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueFull;

impl BoundedQueue {
    pub const fn new(running: usize, waiting: usize) -> BoundedQueue {
        BoundedQueue {
            running: tokio::sync::Semaphore::const_new(running),
            queued: tokio::sync::Semaphore::const_new(running + waiting),
        }
    }

    /// Run `work` off the async threads when its turn comes, or refuse when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, QueueFull> {
        // A place in the queue is taken at once or not at all.
        let _place = self.queued.try_acquire().map_err(|_| QueueFull)?;
        let _turn = self.running.acquire().await.map_err(|_| QueueFull)?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| QueueFull)
    }
}

/// Open connections, per address and in all.
pub struct Connections {
    per_address: usize,
    total: usize,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// Why a connection was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionRefused {
    /// This address has `per_address` connections open.
    Address,
    /// The server has `total` connections open.
    Full,
}

/// One open connection; dropping it counts it out.
pub struct ConnectionSlot {
    owner: Arc<Connections>,
    key: IpAddr,
}

impl Connections {
    pub fn new(per_address: usize, total: usize) -> Arc<Connections> {
        Arc::new(Connections {
            per_address,
            total,
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// Count a new connection from `addr` in, if both limits allow it; one from a trusted
    /// proxy (`capped` false) carries many clients and is held to the total only.
    pub fn open(
        self: &Arc<Self>,
        addr: IpAddr,
        capped: bool,
    ) -> Result<ConnectionSlot, ConnectionRefused> {
        let key = client_key(addr);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.0 >= self.total {
            return Err(ConnectionRefused::Full);
        }
        let here = open.1.entry(key).or_insert(0);
        if capped && *here >= self.per_address {
            return Err(ConnectionRefused::Address);
        }
        *here += 1;
        open.0 += 1;
        Ok(ConnectionSlot {
            owner: self.clone(),
            key,
        })
    }

    /// Connections open now.
    pub fn count(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut open = self.owner.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let start = Instant::now();
        let mut b = Bucket::new(10.0, 5.0);
        b.last = start;
        assert_eq!((0..8).filter(|_| b.take_at(start)).count(), 5);
        assert!(!b.take_at(start + Duration::from_millis(50)));
        assert!(b.take_at(start + Duration::from_millis(160)));
    }

    #[test]
    fn misses_are_counted_per_address() {
        let limiter = AddressBuckets::new(3.0);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "::1".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.allow(a));
            assert!(limiter.take(a));
        }
        assert!(!limiter.allow(a));
        assert!(!limiter.take(a));
        assert!(limiter.allow(b));
    }

    #[test]
    fn a_token_given_back_is_there_again_and_never_beyond_the_burst() {
        let limiter = AddressBuckets::new(2.0);
        let a: IpAddr = "127.0.0.9".parse().unwrap();
        assert!(limiter.take(a) && limiter.take(a));
        assert!(!limiter.take(a));
        limiter.give_back(a);
        assert!(limiter.take(a), "the token given back");
        limiter.give_back(a);
        limiter.give_back(a);
        limiter.give_back(a);
        assert_eq!(
            (0..5).filter(|_| limiter.take(a)).count(),
            2,
            "at most the burst"
        );
    }

    #[tokio::test]
    async fn keyed_locks_serialise_holders_of_a_shared_key_only() {
        let locks = std::sync::Arc::new(KeyedLocks::default());
        let held = locks.lock(&["b", "a", "a"]).await;
        // Another key is free at once.
        let other = tokio::time::timeout(Duration::from_millis(100), locks.lock(&["c"])).await;
        assert!(other.is_ok());
        // A shared key waits until the first holder lets go.
        let waiting = {
            let locks = locks.clone();
            tokio::spawn(async move { drop(locks.lock(&["a", "z"]).await) })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        drop(held);
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("let in once the key is free")
            .unwrap();
    }

    #[tokio::test]
    async fn a_full_queue_refuses_at_once() {
        let queue = std::sync::Arc::new(BoundedQueue::new(1, 1));
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let first = {
            let queue = queue.clone();
            tokio::spawn(async move { queue.run(move || wait.recv().is_ok()).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let second = {
            let queue = queue.clone();
            tokio::spawn(async move { queue.run(|| 2).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(
            queue.run(|| 3).await,
            Err(QueueFull),
            "one running, one waiting"
        );
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(true));
        assert_eq!(second.await.unwrap(), Ok(2));
        assert_eq!(queue.run(|| 4).await, Ok(4), "room again");
    }

    #[test]
    fn an_ipv6_home_is_one_client() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::7".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:127.0.0.2".parse().unwrap();
        assert_eq!(client_key(mapped), "127.0.0.2".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn connections_are_capped_per_address_and_in_all() {
        let conns = Connections::new(2, 3);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let b: IpAddr = "127.0.0.3".parse().unwrap();
        let a1 = conns.open(a, true).unwrap();
        let _a2 = conns.open(a, true).unwrap();
        assert_eq!(conns.open(a, true).err(), Some(ConnectionRefused::Address));
        let _b1 = conns.open(b, true).unwrap();
        assert_eq!(conns.open(b, true).err(), Some(ConnectionRefused::Full));
        drop(a1);
        assert_eq!(conns.count(), 2);
        assert!(
            conns.open(a, true).is_ok(),
            "a slot given back is free again"
        );
    }

    #[test]
    fn a_trusted_proxy_is_held_to_the_total_only() {
        let conns = Connections::new(1, 3);
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..3).map(|_| conns.open(proxy, false).unwrap()).collect();
        assert_eq!(held.len(), 3);
        assert_eq!(
            conns.open(proxy, false).err(),
            Some(ConnectionRefused::Full)
        );
        drop(held);
        assert_eq!(conns.count(), 0, "every slot given back");
    }
}

/// Things open per key (a bot's streams), each at most `cap`: one is taken and counted in the
/// same step, and given back when its guard is dropped.
#[derive(Default)]
pub struct KeyedCounts {
    open: Mutex<HashMap<String, usize>>,
}

/// One thing open under a key; dropping it counts it out.
pub struct CountGuard {
    owner: Arc<KeyedCounts>,
    key: String,
}

impl KeyedCounts {
    /// One more open under `key`, unless `cap` are.
    pub fn open(self: &Arc<Self>, key: &str, cap: usize) -> Option<CountGuard> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(key.to_owned()).or_default();
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(CountGuard {
            owner: self.clone(),
            key: key.to_owned(),
        })
    }
}

impl Drop for CountGuard {
    fn drop(&mut self) {
        let mut open = self.owner.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod counts_tests {
    use super::*;

    #[test]
    fn a_key_holds_at_most_its_cap_and_gets_them_back() {
        let counts = Arc::new(KeyedCounts::default());
        let a = counts.open("bot", 2).unwrap();
        let _b = counts.open("bot", 2).unwrap();
        assert!(counts.open("bot", 2).is_none());
        assert!(counts.open("other", 2).is_some());
        drop(a);
        assert!(counts.open("bot", 2).is_some());
    }
}
