import Foundation
import NewsstandCLI
import NewsstandCore
import NewsstandTestSupport

/// `newsstand` run in this process, as most CLI tests run it: `NewsstandCommand.run` on a thread
/// of its own (a command is synchronous and waits for its async work with `runBlocking`, which
/// must never hold one of the cooperative pool's threads: CI has two), with a console that
/// captures what it writes and the environment the test gives on top of this process's.
enum InProcess {
    static func newsstand(_ arguments: [String], environment: [String: String] = [:]) async -> Shell.Result {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let captured = CapturedOutput()
        let context = merged
        let status = await BlockingWork.run {
            NewsstandCommand.run(arguments, console: captured.console, environment: context)
        }
        return Shell.Result(status: status, stdout: captured.stdout, stderr: captured.stderr)
    }

    /// `newsstand` with exactly `environment`, nothing of this process's: what the programs it
    /// runs (rclone) are given, as a CI job's step gives them.
    static func newsstand(_ arguments: [String], exactEnvironment environment: [String: String]) async -> Shell.Result {
        let captured = CapturedOutput()
        let status = await BlockingWork.run {
            NewsstandCommand.run(arguments, console: captured.console, environment: environment)
        }
        return Shell.Result(status: status, stdout: captured.stdout, stderr: captured.stderr)
    }
}
