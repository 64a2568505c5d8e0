import Testing
@testable import RelayModel

@Suite("Access: roles, tokens, failed attempts")
struct AccessTests {
    @Test func rolesAllowWhatTheIssueSays() {
        #expect(Permission.allCases.allSatisfy { Role.admin.allows($0) })
        #expect(Permission.allCases.filter { Role.support.allows($0) } == [.readItems, .readDeliveries, .retryDeliveries, .reconcileItems, .readPeople])
        #expect(Permission.allCases.filter { Role.consumer.allows($0) } == [.readItems, .authorizeSDKUsers])
    }

    @Test func tokensAreRandomAndOnlyTheirHashIsKept() {
        let a = APIToken.generate(), b = APIToken.generate()
        #expect(a != b && a.hasPrefix("ert_") && a.count == 47)
        #expect(APIToken.hash(a).count == 64 && APIToken.hash(a) == APIToken.hash(a) && APIToken.hash(a) != APIToken.hash(b))
        #expect(APIToken.hint(a) == String(a.prefix(8)) + "…")
        #expect(APIToken.isPlausible(a) && !APIToken.isPlausible("short") && !APIToken.isPlausible("ert_with space inside"))
    }

    @Test func failuresPerClientAreLimitedWithinAWindow() {
        let limiter = FailedAttemptLimiter(limit: 3, window: .seconds(60))
        let start = ContinuousClock.now
        #expect(limiter.recordFailure("a", at: start) == nil)
        #expect(limiter.recordFailure("a", at: start + .seconds(1)) == nil)
        #expect(limiter.retryAfter("a", at: start + .seconds(2)) == nil)
        #expect(limiter.recordFailure("a", at: start + .seconds(10)) == .seconds(50))
        #expect(limiter.retryAfter("a", at: start + .seconds(20)) == .seconds(40))
        #expect(limiter.retryAfter("b", at: start + .seconds(20)) == nil, "other clients are not affected")
        #expect(limiter.retryAfter("a", at: start + .seconds(60)) == nil, "a new window starts")
        #expect(limiter.recordFailure("a", at: start + .seconds(61)) == nil)
    }

    @Test func trackingStaysBounded() {
        let limiter = FailedAttemptLimiter(limit: 5, window: .seconds(60), maxTracked: 100)
        let start = ContinuousClock.now
        for n in 0..<1_000 { limiter.recordFailure("client-\(n)", at: start + .milliseconds(n)) }
        #expect(limiter.trackedCount <= 100)
        #expect(limiter.retryAfter("client-999", at: start + .seconds(1)) == nil)
    }
}
