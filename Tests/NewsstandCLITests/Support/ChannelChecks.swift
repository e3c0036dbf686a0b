import Foundation
import NewsstandTestSupport

/// The validators each channel's own world trusts, run on what a build wrote: EPUBCheck
/// (Debian's `epubcheck`, W3C's reference checker) for the EPUBs, and the OPDS 2.0 JSON Schema
/// (`Channels/opds_check.py`, with Readium's schemas vendored and Debian's python3-jsonschema)
/// for `opds.json`. Both run off the cooperative pool.
enum ChannelChecks {
    static let folder = Shell.repositoryRoot.appendingPathComponent("Tests/NewsstandCLITests/Channels")
    static let epubcheckJar = "/usr/share/java/epubcheck.jar"
    /// Debian's Python, which python3-jsonschema and python3-rfc3987 install for.
    static let python = "/usr/bin/python3"

    /// EPUBCheck on `books`, in one JVM: status 0 when none has a fatal error, an error or a
    /// warning; stdout has one line per book with its counts, stderr EPUBCheck's messages.
    static func epubcheck(_ books: [URL]) async throws -> Shell.Result {
        guard FileManager.default.fileExists(atPath: epubcheckJar) else {
            throw TestFailure("EPUBCheck is not installed at \(epubcheckJar) (make deps installs Debian's epubcheck)")
        }
        let program = folder.appendingPathComponent("EPUBCheckRun.java").path
        return try await Shell.runOffPool("java", Shell.javaOptions + ["-cp", epubcheckJar, program] + books.map(\.path))
    }

    /// The OPDS 2.0 schema's rules on `feeds`: status 0 when every one is valid; stdout has
    /// `<path>: valid` or one line per problem.
    static func opds(_ feeds: [URL]) async throws -> Shell.Result {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestFailure(
                "\(python) is missing: install Debian's python3, python3-jsonschema and python3-rfc3987 (make deps)")
        }
        let script = folder.appendingPathComponent("opds_check.py").path
        return try await Shell.runOffPool(python, [script] + feeds.map(\.path))
    }

    /// The one file in `folder` whose name ends in `suffix`.
    static func file(endingIn suffix: String, in folder: URL) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(suffix) }
        guard names.count == 1 else { throw TestFailure("\(folder.path) has \(names.count) files ending in \(suffix): \(names)") }
        return folder.appendingPathComponent(names[0])
    }
}
