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

    @Test("Reading a key's seconds gives the instant Foundation's ISO 8601 formatter reads, and nil for text out of range")
    func readsWhatFoundationReads() {
        let reader = ISO8601DateFormatter()
        var random = SystemRandomNumberGenerator()
        var instants: [Int64] = [0, -1, 951_782_400, 1_735_689_599, 4_102_444_800, -2_208_988_800, 253_402_300_799]
        for _ in 0..<500 { instants.append(Int64.random(in: -2_208_988_800...4_102_444_800, using: &random)) }
        for seconds in instants {
            let text = UTCTimestamp.string(Date(timeIntervalSince1970: TimeInterval(seconds)), milliseconds: false)
            #expect(UTCTimestamp.date(secondsPrefixOf: text) == reader.date(from: text), "\(text)")
            #expect(UTCTimestamp.date(secondsPrefixOf: String(text.dropLast()) + ".123456789Z") == reader.date(from: text))
        }
        for text in [
            "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z",
            "2024-01-00T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01 00:00:00Z",
            "2024-1-01T00:00:00Z", "+024-01-01T00:00:00Z", "2024-01-01T00:00", "", "２０２４-01-01T00:00:00Z",
        ] {
            #expect(UTCTimestamp.date(secondsPrefixOf: text) == nil, "\(text)")
        }
        #expect(UTCTimestamp.date(secondsPrefixOf: "2024-02-29T12:00:00Z") == reader.date(from: "2024-02-29T12:00:00Z"))
        #expect(UTCTimestamp.date(secondsPrefixOf: "2000-02-29T00:00:00Z") != nil)
        #expect(UTCTimestamp.date(secondsPrefixOf: "1900-02-29T00:00:00Z") == nil)
    }
}
