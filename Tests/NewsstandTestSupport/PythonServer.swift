import Foundation

/// A small server written in Python for failures nginx cannot produce (a server that never
/// answers, a proxy that cuts connections). The script prints its port on its first line.
public final class PythonServer: @unchecked Sendable {  // safe: the Process starts in init, then is only killed
    private let process = Process()
    private let output = Pipe()
    private let exit: ExitWaiter
    /// The port the script printed.
    public let port: Int

    /// Starts `python3 -u -c script arguments…` and reads the port it prints.
    public convenience init(script: String, arguments: [String] = []) throws {
        try self.init(pythonArguments: ["-u", "-c", script] + arguments)
    }

    /// Starts `python3 -u file arguments…` and reads the port it prints.
    public convenience init(file: URL, arguments: [String] = []) throws {
        try self.init(pythonArguments: ["-u", file.path] + arguments)
    }

    private init(pythonArguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try Shell.locate("python3"))
        process.arguments = pythonArguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        exit = try process.runWaitable()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw TestFailure("the python server did not start") }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("the python server printed no port")
        }
        self.port = port
    }

    /// Kills the server (SIGKILL: python blocked in accept() does not reliably die of SIGTERM).
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            exit.wait()
        }
    }

    /// Stops the server and returns the lines it printed after the port.
    public func stopAndReadOutput() -> [String] {
        stop()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: rest, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
