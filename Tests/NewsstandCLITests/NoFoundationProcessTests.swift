import Foundation
import NewsstandTestSupport
import Testing

/// No source under `Sources/`, `Tests/` or `bench/` uses Foundation's `Process`. On Swift 6.3.1
/// its `run()` reads past `dirent.d_name` while it counts the open descriptors
/// (`findMaximumOpenFromProcSelfFD`, swift-corelibs-foundation#5472) and crashes with SIGSEGV
/// about one run in five of a suite that starts many children: it killed a whole CI run. Every
/// child starts through NewsstandProcess's `ChildProcess` (in tests, `TestChild`).
@Suite(.tags(.needsTools)) struct NoFoundationProcessTests {
    /// The lines of `text` (1-based) whose code names the type `Process`: comments and the
    /// contents of string literals are left out, and so are names that only contain the word
    /// (`ChildProcess`, `ProcessInfo`, `inProcess`).
    static func usesOfProcess(in text: String) -> [Int] {
        var uses: [Int] = []
        var inMultilineString = false
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                inMultilineString.toggle()
                continue
            }
            guard !inMultilineString else { continue }
            if Self.namesProcess(Self.code(of: line)) { uses.append(number + 1) }
        }
        return uses
    }

    /// Whether `code` has `Process` as a word of its own (`Foundation.Process`, `Process()`,
    /// `: Process`, `[Process]`).
    private static func namesProcess(_ code: String) -> Bool {
        let characters = Array(code)
        let word = Array("Process")
        func isIdentifier(_ index: Int) -> Bool {
            characters.indices.contains(index)
                && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_")
        }
        guard characters.count >= word.count else { return false }
        for start in 0...(characters.count - word.count) where Array(characters[start..<start + word.count]) == word {
            if !isIdentifier(start - 1), !isIdentifier(start + word.count) { return true }
        }
        return false
    }

    /// A line without its string literals' contents and its comment.
    private static func code(of line: String) -> String {
        var code = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    code.append(character)
                }
                continue
            }
            if character == "/", previous == "/" { return String(code.dropLast()) }
            if character == "\"" { inString = true }
            code.append(character)
            previous = character
        }
        return code
    }

    @Test func theCheckFindsEveryWayOfNamingTheType() {
        let text = """
            let a = Process()
            let b: Foundation.Process
            var running: [Process] = []
            func f(_ p: Process?) {}
            let fine = ChildProcess.run("x", [])  // Process() in a comment
            let id = ProcessInfo.processInfo.processIdentifier
            print("Process() in a string")
            let c = InProcess.newsstand([])
            """
        #expect(Self.usesOfProcess(in: text) == [1, 2, 3, 4])
    }

    @Test func noSourceUsesFoundationsProcess() throws {
        let root = Shell.repositoryRoot
        var found: [String] = []
        for folder in ["Sources", "Tests", "bench"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                let relative = String(file.path.dropFirst(root.path.count + 1))
                found += Self.usesOfProcess(in: text).map { "\(relative):\($0)" }
            }
        }
        #expect(
            found.isEmpty,
            "Foundation's Process crashes on Swift 6.3.1 (swift-corelibs-foundation#5472): use ChildProcess (TestChild in tests) at \(found)"
        )
    }
}
