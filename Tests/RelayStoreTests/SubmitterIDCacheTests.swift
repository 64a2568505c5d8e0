@testable import RelayStore
import Testing

/// The remembered SDK users mirror answers stay bounded, whatever the API answers.
@Suite("Remembered submitter IDs")
struct SubmitterIDCacheTests {
    @Test func answersNoneAndForgetsAndStaysBounded() {
        let cache = SubmitterIDCache()
        #expect(cache.answer(for: "ann") == nil, "never read: nothing remembered")
        cache.remember(nil, for: "ann")
        #expect(cache.answer(for: "ann") == .some(nil), "remembered as none")
        cache.remember("ann-001", for: "ann")
        #expect(cache.answer(for: "ann") == .some("ann-001"))
        cache.forget("ann")
        #expect(cache.answer(for: "ann") == nil)

        let long = String(repeating: "x", count: SubmitterIDCache.longestUsername + 1)
        cache.remember("x-001", for: long)
        #expect(cache.answer(for: long) == nil, "a name longer than 256 bytes is looked up every time")

        for n in 0..<SubmitterIDCache.capacity { cache.remember("id-\(n)", for: "user-\(n)") }
        #expect(cache.answer(for: "user-0") == .some("id-0"))
        cache.remember("one-more", for: "one-more")
        #expect(cache.answer(for: "user-0") == nil, "full: it starts again empty")
        #expect(cache.answer(for: "one-more") == .some("one-more"))
    }
}
