import Foundation
import NewsstandCLI
import NewsstandCore
import NewsstandTestSupport
import Testing

/// `build --optimize` on a terminal moves its bar with each image it makes, from the first
/// one, before the bundles' bar: it no longer shows nothing for its first seconds.
@Suite struct BuildProgressTests {
    @Test func theBarMovesWithEveryImageOptimizedBeforeTheBundles() async throws {
        let work = try Shell.temporaryFolder("build-progress")
        let magazine = work.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let captured = CapturedOutput()
        // A console whose standard error is a terminal, writing into `captured`.
        let capturing = captured.console
        let terminal = Console(errorIsTerminal: true) { stream, text in
            if stream == .output { capturing.out(String(text.dropLast())) } else { capturing.errRaw(text) }
        }
        let arguments = [
            "build", magazine.path, "--output", work.appendingPathComponent("out").path, "--optimize", "--issue", "a-1",
        ]
        let environment = ProcessInfo.processInfo.environment
        let status = await BlockingWork.run { NewsstandCommand.run(arguments, console: terminal, environment: environment) }
        #expect(status == 0, "\(captured.stdout)\(captured.stderr)")
        let draws = captured.stderr.components(separatedBy: "\r").filter { !$0.isEmpty }
        let images = draws.filter { $0.contains("optimizing images [") }
        // a-1 has 58 PNGs in both sizes: each made one moves the bar, from 0 to all of them.
        let counts = images.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(counts.first?.hasPrefix("0/") == true, "\(images.prefix(3))")
        let total = try #require(counts.first.flatMap { Int($0.dropFirst(2)) })
        #expect(total > 10)
        #expect(counts.contains("\(total)/\(total)"))
        #expect(images.count >= total, "one draw per image")
        let firstBundle = try #require(draws.firstIndex { $0.contains("building [") })
        #expect(draws.firstIndex { $0.contains("optimizing images [") }! < firstBundle)
    }
}
