import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests and the tour: pages for a real browser to show
/// (so their addresses are `http`, as on the web) and answers a download client must cope with
/// (redirects, errors, lies about sizes, slow bodies). One thread accepts, one thread serves each
/// connection; every response closes its connection. Stopped by ``stop()``.
public final class LoopbackServer: @unchecked Sendable {
    /// One answer.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: Data
        /// The `Content-Length` sent (nil: the body's length; negative: none, the body ends when
        /// the connection closes; a lie tests the client).
        public var declaredLength: Int?
        /// Seconds to wait before each chunk of `chunkSize` bytes of the body (a slow server).
        public var chunkDelay: Double
        public var chunkSize: Int

        public init(
            status: Int = 200, type: String? = nil, body: Data = Data(), headers: [(String, String)] = [],
            declaredLength: Int? = nil, chunkDelay: Double = 0, chunkSize: Int = 16 * 1024
        ) {
            self.status = status
            self.headers = (type.map { [("Content-Type", $0)] } ?? []) + headers
            self.body = body
            self.declaredLength = declaredLength
            self.chunkDelay = chunkDelay
            self.chunkSize = chunkSize
        }

        /// A page or a file.
        public static func ok(_ body: Data, type: String) -> Response { Response(type: type, body: body) }
        /// An HTML page.
        public static func html(_ text: String) -> Response { ok(Data(text.utf8), type: "text/html; charset=utf-8") }
        /// A redirect to `location`.
        public static func redirect(_ location: String) -> Response {
            Response(status: 302, headers: [("Location", location)])
        }
        /// A bare status.
        public static func status(_ code: Int) -> Response {
            Response(status: code, type: "text/plain", body: Data("\(code)\n".utf8))
        }
    }

    /// The server's port on 127.0.0.1.
    public let port: Int
    private let socket: Int32
    private let handler: @Sendable (String) -> Response
    private let lock = NSLock()
    private var stopped = false
    private var requests: [String] = []

    /// Starts serving: `handler` answers each request's path (`/photo.png`, query included).
    public init(handler: @escaping @Sendable (_ path: String) -> Response) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DriverError("socket failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw DriverError("Could not listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        socket = fd
        self.handler = handler
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The paths requested so far, in order.
    public var requestedPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    /// Stops accepting connections.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if !already {
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
        }
    }

    deinit { stop() }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        while !isStopped {
            let client = accept(socket, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.range(of: Data("\r\n\r\n".utf8)) == nil, head.count < 65536 {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return }
            head.append(contentsOf: buffer[0..<count])
        }
        let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2 else { return }
        let path = String(parts[1])
        lock.lock()
        requests.append(path)
        lock.unlock()
        let response = handler(path)
        var text = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        let length = response.declaredLength ?? response.body.count
        if length >= 0 { text += "Content-Length: \(length)\r\n" }
        text += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        guard send(client, Data(text.utf8)) else { return }
        if parts[0] == "HEAD" { return }
        var offset = 0
        while offset < response.body.count {
            if response.chunkDelay > 0 { usleep(useconds_t(response.chunkDelay * 1_000_000)) }
            if isStopped { return }
            let end = min(response.body.count, offset + max(1, response.chunkSize))
            guard send(client, response.body.subdata(in: offset..<end)) else { return }
            offset = end
        }
    }

    private func send(_ socket: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = Glibc.send(socket, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }
}
