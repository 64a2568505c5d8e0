import RelayModel
import Testing

/// Issue 46: a digest's Message-ID names exactly what it carries, so a client that drops a
/// Message-ID it has seen never drops a digest with other content.
@Suite struct DigestMessageKeyTests {
    @Test func theSameMembersAndAttemptsGiveTheSameKeyInAnyOrder() {
        let key = DigestMessageKey.make(members: [(id: 7, attempt: 1), (id: 3, attempt: 1)])
        #expect(key == DigestMessageKey.make(members: [(id: 3, attempt: 1), (id: 7, attempt: 1)]))
        #expect(key.hasPrefix("digest.") && key.count == "digest.".count + 32)
        #expect(key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }, "a Message-ID's local part: \(key)")
    }

    @Test func aGroupThatGainedAMemberOrIsRetriedGetsANewKey() {
        let first = DigestMessageKey.make(members: [(id: 3, attempt: 1), (id: 7, attempt: 1)])
        #expect(first != DigestMessageKey.make(members: [(id: 3, attempt: 2), (id: 7, attempt: 2), (id: 9, attempt: 1)]),
                "the retry carries another member")
        #expect(first != DigestMessageKey.make(members: [(id: 3, attempt: 2), (id: 7, attempt: 2)]), "the next attempt")
        #expect(first != DigestMessageKey.make(members: [(id: 3, attempt: 1)]), "a member fewer")
        #expect(DigestMessageKey.make(members: [(id: 12, attempt: 1)]) != DigestMessageKey.make(members: [(id: 1, attempt: 21)]))
    }
}
