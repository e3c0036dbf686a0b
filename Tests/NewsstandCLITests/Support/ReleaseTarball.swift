import Foundation
import NewsstandTestSupport

/// The release tarball `make dist` wrote (`make test` names it in `NEWSSTAND_DIST`), unpacked
/// once per test process into an empty folder with GNU tar.
enum ReleaseTarball {
    /// The tarball's path.
    static func path() throws -> String {
        guard let path = ProcessInfo.processInfo.environment["NEWSSTAND_DIST"], !path.isEmpty else {
            throw TestFailure("NEWSSTAND_DIST is not set: run 'make test' (it runs 'make dist' first), or 'make dist' and set it")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw TestFailure("no release tarball at \(path)") }
        return path
    }

    /// The folder the tarball unpacked into (`newsstand-<version>-linux-<arch>/`).
    static func unpacked() async throws -> URL {
        // Unpacked once, on a BlockingWork thread (the first caller waits there, not on the pool).
        try await offPool { try unpacking.get() }
    }

    private static let unpacking: Result<URL, any Error> = Result {
        let tarball = try path()
        let folder = try Shell.temporaryFolder("dist")
        let untar = try Shell.run("tar", ["-xzf", tarball, "-C", folder.path])
        guard untar.status == 0 else { throw TestFailure("tar: \(untar.stderr)") }
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        guard entries.count == 1, let top = entries.first else {
            throw TestFailure("the tarball holds \(entries), not one folder")
        }
        return folder.appendingPathComponent(top)
    }

    /// Runs `program` with only `environment` (`env -i`): no Swift on PATH, no library path.
    static func runIsolated(_ program: String, _ arguments: [String], environment: [String: String] = [:], in folder: URL)
        async throws -> Shell.Result
    {
        var variables = ["PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "", "HOME": folder.path, "LANG": "C.UTF-8"]
        variables.merge(environment) { _, new in new }
        return try await Shell.runOffPool(
            "env", ["-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [program] + arguments,
            in: folder)
    }
}
