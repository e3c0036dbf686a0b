import Foundation
import NewsstandTestSupport
import Testing

/// The tools version Package.swift declares is the one `PlatformTests`' language checks assume,
/// read from the manifest in this process.
@Suite("Declared tools version") struct ToolsVersionTests {
    /// The language checks of `PlatformTests` are for the tools version Package.swift declares: the oldest
    /// Swift that will try the package (Xcode 16's 6.0). Raising it is a decision to make here too.
    @Test func theDeclaredToolsVersionIsTheOneTheLanguageChecksAssume() throws {
        let manifest = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.hasPrefix("// swift-tools-version:6.0\n"))
    }
}
