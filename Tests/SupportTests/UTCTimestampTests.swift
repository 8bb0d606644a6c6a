import Foundation
import Support
import Testing

@Suite("UTC timestamps")
struct UTCTimestampTests {
    @Test("RFC 3339 in UTC, as Foundation's ISO 8601 formatter writes it: before 1970, leap days, the last millisecond of a year")
    func matchesFoundation() {
        let withMilliseconds = ISO8601DateFormatter()
        withMilliseconds.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let instants: [Double] = [
            0, -0.001, -86_400.5, 951_782_400.25, 1_735_689_599.999, 1_764_326_400.042, 4_102_444_800, -2_208_988_800,
        ]
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCTimestamp.string(date) == withMilliseconds.string(from: date), "\(seconds)")
            #expect(UTCTimestamp.string(date, milliseconds: false) == plain.string(from: date), "\(seconds)")
        }
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 951_782_400.25)) == "2000-02-29T00:00:00.250Z")
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
    }
}
