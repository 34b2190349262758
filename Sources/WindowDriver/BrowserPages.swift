import Foundation
import Synchronization

/// The web pages a real browser shows in the tests and the tour, served by a
/// ``LoopbackServer`` so their addresses are `http`, as on the web:
///
/// - `/source.html` (title `SOURCE {…}`): a photo (`/photo.png`), a slowly served photo
///   (`/slow.png`), a photo served once (`/gone.png`, top right), a link (`/article.html`), a paragraph with a bold word and one of Korean,
///   Japanese and Russian words (``wordsText``); its title gives
///   their frames in the page (`[x, y, width, height]`), the page's offset in its window and
///   its size (`inner`).
/// - `/drop.html` (title `ZONE` until something is dropped): one drop zone filling the window;
///   each drop sets the title to `DROP n {…}` with what the page received: `types`, `files`
///   (`name`, `type`, `size`, `fnv`: the FNV-1a hash of the bytes, ``fnv1a(_:)``), and the
///   first 400 characters of `text/plain`, `text/html` and `text/uri-list`.
public enum BrowserPages {
    /// The photo at `/photo.png`: a 160×110 PNG.
    public static let photo = TestImage.png(width: 160, height: 110, seed: 7)
    /// The photo at `/slow.png` (served in 16 KiB chunks `slowDelay` apart, about 2.6 s): 320×220.
    public static let slowPhoto = TestImage.png(width: 320, height: 220, seed: 3)
    /// The link's text and the bold word of the styled paragraph.
    public static let linkText = "Harbour article"
    public static let boldWord = "Bake"
    /// The last paragraph: words in Korean, Japanese and Russian (`#words`).
    public static let wordsText = "한국어 日本語 Русский"

    /// The photo at `/gone.png` (80×55), served once: asked for again (a destination
    /// downloading a dropped address), the server answers 404, as when a page's server has gone.
    public static let gonePhoto = TestImage.png(width: 80, height: 55, seed: 11)

    /// A server for the pages; `slowDelay` is the pause between chunks of `/slow.png`.
    public static func server(slowDelay: Double = 0.2) throws -> LoopbackServer {
        let goneServed = Mutex(false)
        return try LoopbackServer { path in
            switch path.split(separator: "?").first.map(String.init) ?? path {
            case "/gone.png":
                goneServed.withLock { served in
                    defer { served = true }
                    return served ? .status(404) : .ok(gonePhoto, type: "image/png")
                }
            case "/source.html": .html(source)
            case "/drop.html": .html(drop)
            case "/article.html": .html("<!doctype html><title>ARTICLE</title><p>The harbour at dawn.</p>")
            case "/photo.png": .ok(photo, type: "image/png")
            case "/slow.png":
                LoopbackServer.Response(type: "image/png", body: slowPhoto, chunkDelay: slowDelay, chunkSize: 16 * 1024)
            default: .status(404)
            }
        }
    }

    /// The FNV-1a 32-bit hash the drop page computes for each file it receives.
    public static func fnv1a(_ data: Data) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in data {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    static let source = """
        <!doctype html><html><head><meta charset="utf-8"><title>SOURCE</title>
        <style>body{margin:0;font:18px sans-serif} img{display:block;margin:12px} a,p{display:block;margin:12px}</style>
        </head><body>
        <img id="photo" src="/photo.png" width="160" height="110" alt="Harbour">
        <a id="link" href="/article.html">\(linkText)</a>
        <p id="styled"><b>\(boldWord)</b> at 250 degrees</p>
        <img id="slow" src="/slow.png" width="160" height="110" alt="Harbour, large">
        <img id="gone" src="/gone.png" width="80" height="55" alt="Lighthouse" style="position:absolute;right:12px;top:12px">
        <p id="words">\(wordsText)</p>
        <script>
        function frame(id) {
          const b = document.getElementById(id).getBoundingClientRect();
          return [Math.round(b.left), Math.round(b.top), Math.round(b.width), Math.round(b.height)];
        }
        function report() {
          document.title = 'SOURCE ' + JSON.stringify({
            photo: frame('photo'), link: frame('link'), styled: frame('styled'), slow: frame('slow'),
            words: frame('words'), gone: frame('gone'),
            loaded: document.getElementById('slow').complete,
            offset: [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight],
            inner: [window.innerWidth, window.innerHeight]});
        }
        document.addEventListener('DOMContentLoaded', report);
        window.addEventListener('load', report);
        window.addEventListener('resize', report);
        </script></body></html>
        """

    static let drop = """
        <!doctype html><html><head><meta charset="utf-8"><title>ZONE</title>
        <style>html,body{margin:0;height:100%} #zone{height:100%;background:#cfc;font:18px sans-serif}</style>
        </head><body><div id="zone">Drop here</div>
        <script>
        let drops = 0;
        const zone = document.getElementById('zone');
        zone.addEventListener('dragover', e => { e.preventDefault(); });
        zone.addEventListener('drop', async e => {
          e.preventDefault();
          const dt = e.dataTransfer;
          const seen = {types: [...dt.types], files: []};
          for (const t of ['text/plain', 'text/html', 'text/uri-list']) {
            if (dt.types.includes(t)) seen[t] = dt.getData(t).slice(0, 400);
          }
          const files = [...dt.files];
          drops += 1;
          for (const f of files) {
            const bytes = new Uint8Array(await f.arrayBuffer());
            let h = 0x811c9dc5;
            for (const b of bytes) { h ^= b; h = Math.imul(h, 0x01000193) >>> 0; }
            seen.files.push({name: f.name, type: f.type, size: f.size, fnv: h >>> 0});
          }
          document.title = 'DROP ' + drops + ' ' + JSON.stringify(seen);
        });
        </script></body></html>
        """
}

/// Small, real PNG images made without any library: stored (uncompressed) deflate blocks, as
/// every PNG decoder reads them.
public enum TestImage {
    /// A `width`×`height` RGB image of colour bands that depend on `seed`.
    public static func png(width: Int, height: Int, seed: Int) -> Data {
        var raw = Data()
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                raw.append(UInt8((x * 255 / max(1, width - 1) + seed * 40) & 0xFF))
                raw.append(UInt8((y * 255 / max(1, height - 1) + seed * 70) & 0xFF))
                raw.append(UInt8(((x / 20 + y / 20) % 2 == 0 ? 200 : 60) ^ (seed & 0x1F)))
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
        png.append(chunk: "IHDR", header)
        png.append(chunk: "IDAT", zlibStored(raw))
        png.append(chunk: "IEND", Data())
        return png
    }

    /// `data` as a zlib stream of stored blocks.
    static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let last = offset + length >= data.count
            out.append(last ? 1 : 0)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out.append(data.subdata(in: offset..<offset + length))
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        out.append(bigEndian: b << 16 | a)
        return out
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension Data {
    fileprivate mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }

    fileprivate mutating func append(chunk type: String, _ body: Data) {
        append(bigEndian: UInt32(body.count))
        let typed = Data(type.utf8) + body
        append(typed)
        append(bigEndian: TestImage.crc32(typed))
    }
}
