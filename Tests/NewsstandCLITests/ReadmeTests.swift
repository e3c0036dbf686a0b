import Foundation
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// The README is the user's manual: it must document every diagnostic code with its severity.
@Suite struct ReadmeTests {
    @Test func everyDiagnosticCodeIsDocumented() throws {
        let readme = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for code in DiagnosticCode.allCases {
            #expect(
                readme.contains("| `\(code.rawValue)` | \(code.defaultSeverity.rawValue) |"),
                "\(code.rawValue) is not in the README")
        }
    }
}
