//! `oaq-server --web DIR` serves the web build as `.ci/web` writes it: the brotli or gzip copy
//! of a file when the browser accepts it, `Vary`, a year's caching for files named for their
//! content and revalidation for the rest, `304 Not Modified` when nothing changed.

use oaq_testkit::{ServerProcess, TempDir};
use std::io::{Read, Write};

const WASM: &str = "o-an-quan-0123456789abcdef.wasm";

/// A GET with extra header lines: (status, lower-cased headers, body).
fn get(addr: &str, path: &str, headers: &[&str]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for line in headers {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let end = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8(response[..end].to_vec()).unwrap();
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, response[end + 4..].to_vec())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A build folder: a page, the game's hashed .wasm with both compressed copies, a service
/// worker and a font with only a gzip copy. The copies' bytes are markers: the server sends
/// them as they are, it never compresses nor decompresses.
fn build() -> TempDir {
    let dir = TempDir::new("web-files");
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    write("index.html", b"<!doctype html><title>page</title>");
    write("index.html.br", b"page as brotli");
    write(WASM, b"\0asm plain");
    write(&format!("{WASM}.br"), b"wasm as brotli");
    write(&format!("{WASM}.gz"), b"wasm as gzip");
    write("sw.js", b"// worker");
    write("assets/fonts/Face.ttf", b"font plain");
    write("assets/fonts/Face.ttf.gz", b"font as gzip");
    dir
}

#[test]
fn each_browser_gets_the_copy_it_accepts_and_caches_each_file_as_its_name_allows() {
    let dir = build();
    let data = TempDir::new("web-files-db");
    let web = dir.path().to_str().unwrap().to_owned();
    let server = ServerProcess::sqlite(&data, &["--web", &web]);
    let addr = server.addr.as_str();
    let path = format!("/{WASM}");

    // A browser that takes both gets brotli; gzip alone gets gzip; neither, the file itself.
    for (accept, body, encoding) in [
        (
            "Accept-Encoding: gzip, deflate, br, zstd",
            &b"wasm as brotli"[..],
            Some("br"),
        ),
        ("Accept-Encoding: gzip", b"wasm as gzip", Some("gzip")),
        ("Accept-Encoding: identity", b"\0asm plain", None),
    ] {
        let (status, headers, got) = get(addr, &path, &[accept]);
        assert_eq!(status, 200, "{accept}");
        assert_eq!(got, body, "{accept}");
        assert_eq!(header(&headers, "content-encoding"), encoding, "{accept}");
        assert_eq!(header(&headers, "content-type"), Some("application/wasm"));
        assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
        assert_eq!(
            header(&headers, "cache-control"),
            Some("public, max-age=31536000, immutable"),
            "a file named for its content is kept for good"
        );
    }
    let (_, headers, body) = get(addr, &path, &[]);
    assert_eq!(body, b"\0asm plain", "no Accept-Encoding, no encoding");
    assert_eq!(header(&headers, "content-encoding"), None);

    // The page, the worker and the fonts are revalidated each time; a font with only a gzip
    // copy is sent as gzip to a browser that also takes brotli.
    for (path, accept, body, encoding) in [
        (
            "/",
            "Accept-Encoding: br",
            &b"page as brotli"[..],
            Some("br"),
        ),
        ("/sw.js", "Accept-Encoding: br", b"// worker", None),
        (
            "/assets/fonts/Face.ttf",
            "Accept-Encoding: br, gzip",
            b"font as gzip",
            Some("gzip"),
        ),
    ] {
        let (status, headers, got) = get(addr, path, &[accept]);
        assert_eq!((status, got.as_slice()), (200, body), "{path}");
        assert_eq!(header(&headers, "content-encoding"), encoding, "{path}");
        assert_eq!(
            header(&headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );
        assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    }

    // Revalidation: the same file again is "304 Not Modified", with no body.
    let (_, headers, _) = get(addr, "/sw.js", &[]);
    let etag = header(&headers, "etag").expect("an ETag").to_owned();
    let (status, headers, body) = get(addr, "/sw.js", &[&format!("If-None-Match: {etag}")]);
    assert_eq!(status, 304);
    assert!(body.is_empty());
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    let (_, headers, _) = get(addr, "/index.html", &["Accept-Encoding: br"]);
    let modified = header(&headers, "last-modified")
        .expect("Last-Modified")
        .to_owned();
    let (status, _, _) = get(
        addr,
        "/index.html",
        &[
            "Accept-Encoding: br",
            &format!("If-Modified-Since: {modified}"),
        ],
    );
    assert_eq!(status, 304);

    // Nothing outside the folder, and a missing file is a plain 404 without a caching policy.
    let (status, headers, _) = get(addr, "/missing-0123456789abcdef.wasm", &[]);
    assert_eq!(status, 404);
    assert_eq!(header(&headers, "cache-control"), None);
    let (status, _, _) = get(addr, "/../Cargo.toml", &[]);
    assert_ne!(status, 200);
    // The server's own routes are not the folder's.
    let (status, headers, _) = get(addr, "/health", &[]);
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), None);
}
