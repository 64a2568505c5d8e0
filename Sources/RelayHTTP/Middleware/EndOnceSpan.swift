import Synchronization
import Tracing

/// A request's span, ended once: after the response body is written, or when the response is
/// dropped unwritten (a connection closed before the body went out), whichever comes first.
final class EndOnceSpan: Sendable {
    private let span: Mutex<(any Span)?>

    init(_ span: any Span) {
        self.span = Mutex(span)
    }

    func end() {
        span.withLock { span in
            span?.end()
            span = nil
        }
    }

    deinit {
        end()
    }
}
