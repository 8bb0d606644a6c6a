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
