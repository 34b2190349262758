import CGtk4

/// A failed GIO call: the `GError`'s message, and whether it was cancelled.
struct GIOFailure: Error, CustomStringConvertible {
    var message: String
    var cancelled: Bool
    var description: String { message }

    /// Takes (and frees) a `GError`.
    init(_ error: UnsafeMutablePointer<GError>?, fallback: String) {
        if let error {
            message = error.pointee.message.map { String(cString: $0) } ?? fallback
            cancelled = g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0
            g_error_free(error)
        } else {
            message = fallback
            cancelled = false
        }
    }

    init(message: String, cancelled: Bool = false) {
        self.message = message
        self.cancelled = cancelled
    }
}

/// GIO's `*_async` / `*_finish` pairs as Swift `async` calls on the main actor (GTK's thread).
///
/// Some GDK streams ignore their `GCancellable` (X11 selection streams wait for the other app
/// forever), so a call can be abandoned: the caller resumes at once with a failure, and the
/// late result, if it ever comes, is passed to `discard`.
///
/// ```swift
/// let call = GAsync.Call(finish: { source, result in … }, discard: { bits in … })
/// let bits = try await call.run { callback, data in
///     g_input_stream_read_bytes_async(stream, 65536, 0, cancellable, callback, data)
/// }
/// ```
@MainActor
enum GAsync {
    /// What `finish` returns: a pointer or a count as bits, or a failure.
    typealias Finish =
        @MainActor (_ source: UnsafeMutableRawPointer?, _ result: OpaquePointer?) -> Result<UInt, GIOFailure>

    /// One call in flight.
    @MainActor
    final class Call {
        private let finish: Finish
        private let discard: @MainActor (UInt) -> Void
        private var continuation: CheckedContinuation<UInt, any Error>?

        /// `finish` reads the result (always called when GIO answers); `discard` releases a
        /// successful result nobody waits for any more.
        init(finish: @escaping Finish, discard: @escaping @MainActor (UInt) -> Void = { _ in }) {
            self.finish = finish
            self.discard = discard
        }

        /// Starts the call with a callback and its `user_data` and waits for its result.
        func run(start: (GAsyncReadyCallback, gpointer) -> Void) async throws -> UInt {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UInt, any Error>) in
                self.continuation = continuation
                let callback: GAsyncReadyCallback = { source, result, data in
                    guard let data else { return }
                    let call = Unmanaged<Call>.fromOpaque(data).takeRetainedValue()
                    let source = PointerBits(source.map { UnsafeMutableRawPointer($0) })
                    let result = PointerBits(result.map { UnsafeMutableRawPointer($0) })
                    MainActor.assumeIsolated {
                        call.completed(source: source.pointer, result: OpaquePointer(result.pointer))
                    }
                }
                start(callback, Unmanaged.passRetained(self).toOpaque())
            }
        }

        /// Resumes the waiting caller with `failure` now; a later result is discarded.
        func abandon(_ failure: GIOFailure) {
            guard let continuation else { return }
            self.continuation = nil
            continuation.resume(throwing: failure)
        }

        private func completed(source: UnsafeMutableRawPointer?, result: OpaquePointer?) {
            let outcome = finish(source, result)
            guard let continuation else {
                if case .success(let value) = outcome { discard(value) }
                return
            }
            self.continuation = nil
            switch outcome {
            case .success(let value): continuation.resume(returning: value)
            case .failure(let failure): continuation.resume(throwing: failure)
            }
        }
    }

    /// A call that cannot be abandoned.
    static func call(start: (GAsyncReadyCallback, gpointer) -> Void, finish: @escaping Finish) async throws -> UInt {
        try await Call(finish: finish).run(start: start)
    }
}
