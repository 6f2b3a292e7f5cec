//! A fault-injecting TCP proxy of the tests' own (this kernel has no `netem`): put between a
//! player and a server, or a server and Redis, it adds delay with jitter (never reordering),
//! limits bandwidth, holds every byte during a partition (as TCP does across a short outage:
//! nothing is lost, nothing arrives) and cuts every connection on demand. Bounded: its tasks
//! end with the test's runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rand::RngExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

#[derive(Default)]
struct Faults {
    delay_ms: AtomicU64,
    jitter_ms: AtomicU64,
    bytes_per_sec: AtomicU64,
}

pub struct Proxy {
    /// Where to connect instead of the upstream.
    pub addr: String,
    faults: Arc<Faults>,
    partition: watch::Sender<bool>,
    cuts: watch::Sender<u64>,
}

impl Proxy {
    /// A proxy on a free loopback port passing connections on to `upstream` (`host:port`).
    pub async fn start(upstream: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let faults = Arc::new(Faults::default());
        let (partition, _) = watch::channel(false);
        let (cuts, _) = watch::channel(0u64);
        let proxy = Proxy {
            addr,
            faults: faults.clone(),
            partition: partition.clone(),
            cuts: cuts.clone(),
        };
        let upstream = upstream.to_owned();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (faults, upstream) = (faults.clone(), upstream.clone());
                let (partition, cuts) = (partition.subscribe(), cuts.subscribe());
                tokio::spawn(connection(client, upstream, faults, partition, cuts));
            }
        });
        proxy
    }

    /// Every byte waits `delay_ms` plus up to `jitter_ms` more, each way.
    pub fn delay(&self, delay_ms: u64, jitter_ms: u64) {
        self.faults.delay_ms.store(delay_ms, Ordering::Relaxed);
        self.faults.jitter_ms.store(jitter_ms, Ordering::Relaxed);
    }

    /// At most `bytes_per_sec` each way (0: no limit).
    pub fn bandwidth(&self, bytes_per_sec: u64) {
        self.faults
            .bytes_per_sec
            .store(bytes_per_sec, Ordering::Relaxed);
    }

    /// Hold every byte (and every new connection) until the partition ends.
    pub fn partition(&self, on: bool) {
        self.partition.send_replace(on);
    }

    /// Close every connection open through the proxy now.
    pub fn cut(&self) {
        self.cuts.send_modify(|n| *n += 1);
    }
}

async fn connection(
    client: TcpStream,
    upstream: String,
    faults: Arc<Faults>,
    mut partition: watch::Receiver<bool>,
    mut cuts: watch::Receiver<u64>,
) {
    // A partitioned network answers no new connection either.
    let _ = partition.wait_for(|p| !p).await;
    let Ok(server) = TcpStream::connect(&upstream).await else {
        return;
    };
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (cr, cw) = client.into_split();
    let (sr, sw) = server.into_split();
    cuts.borrow_and_update();
    let both = async {
        tokio::join!(
            pump(cr, sw, faults.clone(), partition.clone()),
            pump(sr, cw, faults.clone(), partition.clone()),
        )
    };
    tokio::select! {
        _ = both => {}
        _ = cuts.changed() => {}
    }
}

/// One direction: read, stamp each chunk with when it may arrive, deliver in order.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    faults: Arc<Faults>,
    mut partition: watch::Receiver<bool>,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let f = faults.clone();
    let reader = async move {
        let mut buf = vec![0u8; 16 * 1024];
        let mut last = Instant::now();
        loop {
            let n = match from.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let jitter = f.jitter_ms.load(Ordering::Relaxed);
            let extra = if jitter > 0 {
                rand::rng().random_range(0..=jitter)
            } else {
                0
            };
            let due =
                Instant::now() + Duration::from_millis(f.delay_ms.load(Ordering::Relaxed) + extra);
            // Never reorder: a chunk arrives no sooner than the one before it.
            last = last.max(due);
            if tx.send((last, buf[..n].to_vec())).is_err() {
                break;
            }
        }
    };
    let writer = async move {
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            let _ = partition.wait_for(|p| !p).await;
            let rate = faults.bytes_per_sec.load(Ordering::Relaxed);
            if rate > 0 {
                let secs = bytes.len() as f64 / rate as f64;
                tokio::time::sleep(Duration::from_secs_f64(secs)).await;
            }
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    };
    tokio::join!(reader, writer);
}
