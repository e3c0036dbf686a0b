import Foundation

/// Runs programs for tests: the built `newsstand` and the outside tools that check its output
/// (`unzip`, `bsdtar`, `python3`, `plutil`).
public enum Shell {
    /// What a program printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `executable` (a path, or a name looked up on PATH and in the usual folders) to its
    /// end (a `TestChild`); `status` is the exit status, or the signal that ended it.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) throws -> Result {
        let outcome = try TestChild.start(executable, arguments, environment: environment, in: directory).wait()
        return Result(
            status: TestChild.status(of: outcome), stdout: text(outcome.output), stderr: text(outcome.errorOutput))
    }

    /// A program's output as text: UTF-8 as it is; anything else (a bundle's bytes from
    /// `bsdtar -xOf`) with each byte that is not ASCII as "?". Repairing invalid UTF-8 with
    /// `String(decoding:as:)` throws and catches an error inside the standard library for each bad
    /// sequence, and Swift Testing records a backtrace for every error thrown in a test: a
    /// megabyte of binary output took 2 s of CPU.
    public static func text(_ bytes: Data) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Runs a Python 3 script with arguments (`sys.argv[1:]`), in a process of its own forked
    /// from the test process's Python runner (`PythonRunner`), or started for it when there is
    /// no runner.
    @discardableResult
    public static func python(_ script: String, _ arguments: [String] = []) throws -> Result {
        if let result = try PythonRunner.run(script, arguments) { return result }
        return try run("python3", ["-c", script] + arguments)
    }

    /// The full path of a program. `python3` is the interpreter itself (`pythonInterpreter`).
    public static func locate(_ name: String) throws -> String {
        if name.contains("/") { return name }
        if name == "python3", let interpreter = pythonInterpreter { return interpreter }
        return try search(name)
    }

    /// The interpreter `python3` on PATH starts, found once: a version manager's `python3` is a
    /// shim (pyenv's runs bash and pyenv before Python, about 0.1 s of CPU), and the suite starts
    /// Python well over a thousand times. The same interpreter, with the same packages, started
    /// directly; nil when there is none.
    static let pythonInterpreter: String? = {
        guard let shim = try? search("python3"),
            let found = try? TestChild.start(shim, ["-c", "import sys; print(sys.executable)"]).wait(),
            TestChild.status(of: found) == 0
        else { return nil }
        let path = text(found.output).trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// Options for every JVM the tests start (EPUBCheck, `ZipInputStream`): a short run spends
    /// half its CPU in the C2 compiler's threads, which only pay off in a long one. C1 alone and
    /// the serial collector halve EPUBCheck's CPU time (8.6 s to 4.2 s on the sample's books).
    public static let javaOptions = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]

    /// `name` in PATH's folders, then in the usual ones.
    private static func search(_ name: String) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in path + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/opt/swift/usr/bin"] {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }

    /// The repository's root folder.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `newsstand` executable built beside the tests (`swift build` runs before `swift test`).
    public static var newsstand: String {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("newsstand"),
            Bundle.main.bundleURL.appendingPathComponent("newsstand"),
            repositoryRoot.appendingPathComponent(".build/debug/newsstand"),
        ]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!).path
    }

    /// A new empty temporary folder, inside one folder per test process (`newsstand-tests-<pid>`
    /// in the system's temporary folder) that is removed when the process exits, and at the next
    /// start when the process was killed instead (`TestRunFolders`).
    public static func temporaryFolder(_ label: String = "newsstand") throws -> URL {
        _ = preparesTestRoot
        let url = URL(fileURLWithPath: TestRunFolders.own.path).appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let preparesTestRoot: Bool = {
        TestRunFolders.removeDeadRuns()
        atexit { try? FileManager.default.removeItem(at: TestRunFolders.own) }
        return true
    }()
}
