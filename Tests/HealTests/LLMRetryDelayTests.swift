import Foundation
import Testing

@testable import Heal
@testable import LLM

/// The wait between attempts: `Retry-After` (seconds or an HTTP date) or exponential backoff, capped.
@Suite struct LLMRetryDelayTests {
    @Test(arguments: [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 60.0)])
    func backoffDoublesUpToTheCap(attempt: Int, seconds: Double) {
        #expect(LLMRetryDelay.seconds(attempt: attempt, retryAfter: nil, base: 1, cap: 60) == seconds)
    }

    @Test func retryAfterSecondsAndDates() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2015-10-21T07:27:50Z"))
        let delay = { (value: String) in LLMRetryDelay.seconds(attempt: 3, retryAfter: value, base: 1, cap: 60, now: now) }
        #expect(delay("7") == 7)
        #expect(delay("Wed, 21 Oct 2015 07:28:00 GMT") == 10)
        #expect(delay("Wed, 21 Oct 2015 09:00:00 GMT") == 60)  // capped
        #expect(delay("-3") == 0)
        #expect(delay("soon") == 4)  // unreadable: backoff
    }
}
