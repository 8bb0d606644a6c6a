import Findings
import Foundation
import Scan
import ScanCore
import Testing

/// `application-errors-confidence`: a finding inside an `except` clause catching only exceptions
/// the project defines and raises with its own literal messages takes the rule's confidence
/// there (issue 55: the application's own text, written for the user), decided over the project.
@Suite struct ApplicationErrorsScanTests {
    static let rule = """
        id: python.t-error-details
        message: an exception's text is sent to the client
        severity: medium
        confidence: medium
        languages: [python]
        cwe: [209]
        application-errors-confidence: low
        pattern: str($E)

        """

    /// `file:line:confidence` of each finding of a scan of `files` with the test rule.
    static func scan(_ files: [String: String]) throws -> [String] {
        try NativeRuleScan.placements(files, rule: rule, named: "t-error-details")
    }

    @Test func clausesCatchingOnlyTheProjectsLiteralMessageExceptionsTakeTheRulesConfidence() throws {
        let errors = """
            from django.utils.translation import gettext_lazy as _


            class AppError(Exception):
                pass


            class SeatsError(AppError):
                pass


            class ProviderError(Exception):
                pass


            def book(session):
                if session.full:
                    raise SeatsError(_("This session is full."))
                if session.closed:
                    raise AppError("Bookings are closed.", code=409)
                raise AppError


            def speak(response):
                if not response.ok:
                    raise ProviderError(f"provider failed: {response.text}")
                raise ProviderError("no voice configured")

            """
        let views = """
            from app.errors import AppError, ProviderError, book, speak


            def booking(request):
                try:
                    book(request.session)
                except AppError as e:
                    return {"detail": str(e)}
                except (AppError, KeyError) as e:
                    return {"detail": str(e)}


            def voice(request):
                try:
                    speak(request.response)
                except ProviderError as e:
                    return {"detail": str(e)}
                except Exception as e:
                    return {"detail": str(e)}

            """
        let found = try Self.scan(["app/errors.py": errors, "app/views.py": views])
        // Line 8: the project's own messages only (its subclass's too). Line 10: a KeyError's text
        // is not the project's. Lines 17 and 19: a provider's response text, or anything.
        #expect(found == ["views.py:8:low", "views.py:10:medium", "views.py:17:medium", "views.py:19:medium"], "\(found)")
    }
}
