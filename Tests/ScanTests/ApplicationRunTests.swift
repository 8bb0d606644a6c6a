import Foundation
import Support
import Testing

@testable import Scan

/// Issue 80 (red team of the proof's application): what an application that ended said comes
/// back in one line, redacted of the credentials its declaration gave it before it is cut.
@Suite struct ApplicationRunTests {
    @Test func theValuesItWasGivenAreRedactedFromItsLastWords() {
        let redactor = ApplicationRun.redactor(for: [
            "API_TOKEN": "s3cr3t-operator-value-42", "DATABASE_URL": "postgresql://app:Sup3rS3cretPw@127.0.0.1/app",
            "FLASK_ENV": "development",
        ])
        let said = Data("starting\ntoken is s3cr3t-operator-value-42 db postgresql://app:Sup3rS3cretPw@127.0.0.1/app\n".utf8)
        #expect(
            ApplicationRun.lastWords(said, redactor: redactor)
                == "token is <redacted> db postgresql://app:<redacted>@127.0.0.1/app")
        #expect(ApplicationRun.lastWords(Data("mode development\n".utf8), redactor: redactor) == "mode development")
        #expect(ApplicationRun.lastWords(Data(), redactor: redactor) == nil)
    }

    /// The proof's own credentials (its login, headers, cookies) too: an application may log
    /// what it receives. A line the 4 KiB window cut through is not shown.
    @Test func theProofsCredentialsAndACutLineAreNotShown() {
        let redactor = ApplicationRun.redactor(for: [:], credentials: ["seeded-pass-1", "Bearer abcdefgh12345"])
        #expect(
            ApplicationRun.lastWords(Data("POST /signin user=tester&password=seeded-pass-1\n".utf8), redactor: redactor)
                == "POST /signin user=tester&password=<redacted>")
        let long = String(repeating: "y", count: 5000) + "\n" + "ended\n"
        #expect(ApplicationRun.lastWords(Data(long.utf8), redactor: redactor) == "ended")
        let oneLine = "secret-tail-" + String(repeating: "z", count: 5000)
        #expect(ApplicationRun.lastWords(Data(oneLine.utf8), redactor: redactor) == nil)
    }

    /// Cut after redaction: a token across the cut is never shown in part.
    @Test func aLongLineIsRedactedWholeThenCut() {
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        let line = String(repeating: "x", count: 290) + " token " + token + " tail"
        let words = ApplicationRun.lastWords(Data(line.utf8), redactor: ApplicationRun.redactor(for: [:]))
        #expect(words?.contains("ghp_") == false, "\(words ?? "")")
        #expect(words?.hasSuffix(" token ...") == true, "\(words ?? "")")
        #expect(words.map { $0.count <= 303 } == true)
        #expect(words?.hasSuffix("...") == true)
    }
}
