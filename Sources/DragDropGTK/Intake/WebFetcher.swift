import DragDrop
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads dropped web addresses (`ImageIntake`'s `http`/`https` form) with Foundation's
/// URLSession, bounded every way a page from the web could abuse: only `http` and `https`,
/// also after a redirect; at most ``maxRedirects`` redirects; at most `limit` bytes (refused at
/// once when the server announces more, stopped as soon as more arrive); ``idleTimeout``
/// seconds without data and ``totalTimeout`` seconds in all; no cookies or credentials kept
/// (an ephemeral session). Cancelling the calling task cancels the request.
public struct WebFetcher: WebFetching {
    /// The most redirects followed.
    public var maxRedirects: Int
    /// Seconds a request may wait for its next bytes.
    public var idleTimeout: Double
    /// Seconds a whole download may take.
    public var totalTimeout: Double

    /// Creates a fetcher (5 redirects, 15 s idle, 120 s in all).
    public init(maxRedirects: Int = 5, idleTimeout: Double = 15, totalTimeout: Double = 120) {
        self.maxRedirects = maxRedirects
        self.idleTimeout = idleTimeout
        self.totalTimeout = totalTimeout
    }

    /// Downloads `url` (following redirects) up to `limit` bytes, calling `progress` with the
    /// bytes so far and the total when the server declared one; throws a `TransferError` for a
    /// refused address, a bad answer, a timeout or a body over the limit.
    public func fetch(_ url: URL, limit: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Void)
        async throws(TransferError) -> WebResource
    {
        guard Self.isWeb(url) else {
            throw .malformed(
                type: ContentType.uriList.mimeType,
                reason: Localization.format(.notWebAddress, ["address": .name(url.absoluteString)]))
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = totalTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let download = Download(url: url, limit: limit, maxRedirects: maxRedirects, progress: progress)
        // A watchdog ends the download after `totalTimeout` whatever URLSession does (its own
        // resource timeout is not always honoured on Linux).
        let total = totalTimeout
        DispatchQueue.global().asyncAfter(deadline: .now() + total) {
            download.cancel(
                .sourceUnavailable(
                    Localization.format(
                        .webTookLonger,
                        [
                            "address": .name(url.absoluteString),
                            "duration": .text(Localization.duration(seconds: total)),
                        ])
                ))
        }
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("image/*, */*;q=0.5", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let result: Result<WebResource, TransferError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                download.start(task, continuation)
            }
        } onCancel: {
            download.cancel(.cancelled)
        }
        return try result.get()
    }

    static func isWeb(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// One download's state, shared by URLSession's delegate queue and the canceller.
    private final class Download: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var task: URLSessionDataTask?
            var continuation: CheckedContinuation<Result<WebResource, TransferError>, Never>?
            var data = Data()
            var expected: Int64?
            var declaredType: ContentType?
            var redirects = 0
            /// Why the task was cancelled by us (it then completes with a cancellation error).
            var failure: TransferError?
            var finished = false
        }

        let url: URL
        let limit: Int64
        let maxRedirects: Int
        let progress: @Sendable (Int64, Int64?) -> Void
        private let state = Mutex(State())

        init(url: URL, limit: Int64, maxRedirects: Int, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
            self.url = url
            self.limit = limit
            self.maxRedirects = maxRedirects
            self.progress = progress
        }

        func start(
            _ task: URLSessionDataTask, _ continuation: CheckedContinuation<Result<WebResource, TransferError>, Never>
        ) {
            let cancelled = state.withLock { state -> Bool in
                if state.failure != nil {
                    state.finished = true
                    return true
                }
                state.task = task
                state.continuation = continuation
                return false
            }
            if cancelled { continuation.resume(returning: .failure(.cancelled)) } else { task.resume() }
        }

        /// Stops the download; it fails with `failure`, at the latest half a second later even if
        /// URLSession never reports the task's end.
        func cancel(_ failure: TransferError) {
            let (task, finished) = state.withLock { state -> (URLSessionDataTask?, Bool) in
                if state.failure == nil { state.failure = failure }
                return (state.task, state.finished)
            }
            guard !finished else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { [self] in
                let reason = state.withLock { $0.failure } ?? failure
                finish(.failure(reason))
            }
            // Not on this thread: called from a URLSession delegate method (a redirect refused),
            // the task's cancel waits for that very callback to return, for ever.
            if let task { DispatchQueue.global().async { task.cancel() } }
        }

        /// Records `failure` for the task's completion to report, without cancelling the task (a
        /// refused redirect completes it), and finishes with it anyway after 0.5 s if it does not.
        func refuse(_ failure: TransferError) {
            let finished = state.withLock { state -> Bool in
                if state.failure == nil { state.failure = failure }
                return state.finished
            }
            guard !finished else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { [self] in
                let reason = state.withLock { $0.failure } ?? failure
                finish(.failure(reason))
            }
        }

        private func finish(_ result: Result<WebResource, TransferError>) {
            let continuation = state.withLock { state in
                defer { state.continuation = nil }
                state.finished = true
                return state.continuation
            }
            continuation?.resume(returning: result)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse else {
                cancel(.sourceUnavailable(Localization.format(.webNoAnswer, ["address": .name(url.absoluteString)])))
                completionHandler(.cancel)
                return
            }
            guard (200..<300).contains(http.statusCode) else {
                let reason = HTTPURLResponse.localizedString(forStatusCode: http.statusCode)
                cancel(
                    .sourceUnavailable(
                        Localization.format(
                            .webServerAnswered, ["status": .text(String(http.statusCode)), "reason": .name(reason)])))
                completionHandler(.cancel)
                return
            }
            let expected = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
            if let expected, expected > limit {
                cancel(.tooLarge(type: http.mimeType ?? "image", limit: limit, size: expected))
                completionHandler(.cancel)
                return
            }
            state.withLock { state in
                state.expected = expected
                state.declaredType = http.mimeType.map { ContentType($0) }
            }
            progress(0, expected)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let (count, expected, over) = state.withLock { state -> (Int64, Int64?, Bool) in
                state.data.append(data)
                let count = Int64(state.data.count)
                return (count, state.expected, count > limit)
            }
            if over {
                cancel(.tooLarge(type: "image", limit: limit, size: count))
                return
            }
            progress(count, expected)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            let redirects = state.withLock { state -> Int in
                state.redirects += 1
                return state.redirects
            }
            // A refused redirect ends the task by itself (completionHandler(nil): the redirect's
            // own response completes it); cancelling it as well raced with that answer, which
            // URLSession handles on its queue later, and crashed the process in Foundation
            // ("Received callback for HTTP redirection, but we're not waiting for it").
            if redirects > maxRedirects {
                refuse(
                    .sourceUnavailable(
                        Localization.format(
                            .webRedirectedTooOften, count: maxRedirects, ["address": .name(url.absoluteString)])))
                completionHandler(nil)
            } else if let next = request.url, !WebFetcher.isWeb(next) {
                refuse(
                    .sourceUnavailable(
                        Localization.format(
                            .webRedirectedAway,
                            ["address": .name(url.absoluteString), "target": .name(next.absoluteString)])))
                completionHandler(nil)
            } else {
                completionHandler(request)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (failure, data, type, finalURL) = state.withLock { state in
                (state.failure, state.data, state.declaredType, task.currentRequest?.url ?? url)
            }
            if let failure {
                finish(.failure(failure))
            } else if let error {
                let nsError = error as NSError
                if nsError.code == NSURLErrorTimedOut {
                    finish(
                        .failure(
                            .sourceUnavailable(Localization.format(.webSilent, ["address": .name(url.absoluteString)])))
                    )
                } else if nsError.code == NSURLErrorCancelled {
                    finish(.failure(.cancelled))
                } else {
                    finish(
                        .failure(
                            .sourceUnavailable(
                                Localization.format(
                                    .couldNotDownload,
                                    [
                                        "address": .name(url.absoluteString),
                                        "reason": .text(Sentence.clause(nsError.localizedDescription)),
                                    ]))))
                }
            } else {
                finish(.success(WebResource(data: data, declaredType: type, url: finalURL)))
            }
        }
    }
}
