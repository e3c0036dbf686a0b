import Foundation

/// A small server written in Python for failures nginx cannot produce (a server that never
/// answers, a proxy that cuts connections). The script prints its port on its first line. A
/// `supervised` `TestChild`: it, and whatever it starts (the stand-in transfer service starts
/// the app), die with the test process.
public final class PythonServer: Sendable {
    private let child: TestChild
    /// The port the script printed.
    public let port: Int
    /// The process id of the server (the guard's child).
    public let processIdentifier: Int32

    /// Starts `python3 -u script arguments…` (with `environment` added to the test process's):
    /// `script` is a `.py` file's path (`Self.script(…)` finds one beside the tests) and reads
    /// the port it prints.
    public init(script: URL, arguments: [String] = [], environment: [String: String] = [:]) throws {
        child = try TestChild.start("python3", ["-u", script.path] + arguments, environment: environment, supervised: true)
        let deadline = Date().addingTimeInterval(30)
        var firstLine: Substring?
        while firstLine == nil {
            let output = Shell.text(child.output)
            if let end = output.firstIndex(of: "\n") {
                firstLine = output[..<end]
            } else if child.hasExited || Date() > deadline {
                let reason = Shell.text(child.errorOutput)
                child.stop(grace: 0)
                throw TestFailure("the python server \(script.lastPathComponent) did not start: \(reason)")
            } else {
                usleep(5_000)
            }
        }
        guard let port = firstLine.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            child.stop(grace: 0)
            throw TestFailure("the python server \(script.lastPathComponent) printed no port")
        }
        // It printed, so the guard has started it.
        guard let program = child.program else {
            child.stop(grace: 0)
            throw TestFailure("the python server \(script.lastPathComponent) ended after printing its port")
        }
        self.port = port
        processIdentifier = program
    }

    /// Kills the server (SIGKILL: python blocked in accept() does not reliably die of SIGTERM).
    public func stop() { child.stop(grace: 0) }

    /// Stops the server and returns the lines it printed after the port.
    public func stopAndReadOutput() -> [String] {
        let output = Shell.text(child.stop(grace: 0).output)
        return output.split(separator: "\n").dropFirst().map(String.init)
    }

    /// A Python script of the tests: `name` in the folder of the file that asks (`#filePath`),
    /// or in its `Scripts/` folder.
    public static func script(_ name: String, beside file: String = #filePath) -> URL {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        let beside = folder.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: beside.path) ? beside : folder.appendingPathComponent("Scripts/\(name)")
    }
}
