import Foundation
import NewsstandCLI
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// The completions and the man page come from the command declarations: checked by the shells
/// and troff themselves, and for every option of every command.
@Suite(.tags(.needsTools)) struct CompletionAndManPageTests {
    /// The generated script for `shell`, written to a file.
    func script(_ shell: String, named name: String) async throws -> URL {
        let result = await InProcess.newsstand(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try Shell.temporaryFolder("completion").appendingPathComponent(name)
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// What the generated bash function offers for `words` (the last one being completed).
    private func bashCompletes(_ script: URL, _ words: [String], in folder: URL? = nil) async throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source '\(script.path)'
            complete -p newsstand >/dev/null || exit 9
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _newsstand
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await Shell.runOffPool("bash", ["--norc", "--noprofile", "-c", program], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsValuesAndIssueNames() async throws {
        let bash = try await script("bash", named: "newsstand.bash")
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        #expect(try await bashCompletes(bash, ["newsstand", "bu"]) == ["build"])
        #expect(try await bashCompletes(bash, ["newsstand", "build", "--fo"]) == ["--force", "--format"])
        #expect(try await bashCompletes(bash, ["newsstand", "validate", sample, "--format", ""]) == ["text", "json", "github"])
        // --format=js: bash splits the word at '='.
        #expect(try await bashCompletes(bash, ["newsstand", "validate", "--format", "=", "j"]) == ["json"])
        #expect(
            try await bashCompletes(bash, ["newsstand", "build", sample, "--feed", ""]) == ["shelf", "atom", "opds", "epub"])
        #expect(
            try await bashCompletes(bash, ["newsstand", "build", sample, "-o", "out", "--issue", ""]) == ["a-1", "a-2", "a-3"])
        #expect(try await bashCompletes(bash, ["newsstand", "preview", "--issue", ""]) == [], "no magazine named yet")
        #expect(try await bashCompletes(bash, ["newsstand", "validate", "--ignore", "NS-60"]) == ["NS-601", "NS-602"])
        #expect(try await bashCompletes(bash, ["newsstand", "library", "shelf", "re"]) == ["refresh", "resume", "remove"])
        #expect(try await bashCompletes(bash, ["newsstand", "completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try await bashCompletes(bash, ["newsstand", "init", "--ci", ""]) == ["github", "gitlab"])
        let folders = try Shell.temporaryFolder("folders")
        try FileManager.default.createDirectory(
            at: folders.appendingPathComponent("mag azine"), withIntermediateDirectories: true)
        try Data().write(to: folders.appendingPathComponent("magazine.txt"))
        #expect(
            try await bashCompletes(bash, ["newsstand", "build", "mag"], in: folders) == ["mag azine"], "folders only, whole")
    }

    @Test func issueNamesComeOnlyFromFoldersTheToolAccepts() async throws {
        let bash = try await script("bash", named: "newsstand.bash")
        let folder = try Shell.temporaryFolder("hostile-completion")
        let issues = folder.appendingPathComponent("mag/issues")
        // compgen -W expands its word list: a folder named like a command substitution must
        // never run, nor be offered.
        for name in ["a-1", "$(touch PWNED)", "`touch PWNED2`", "with space", ".hidden", "b_2.x"] {
            try FileManager.default.createDirectory(at: issues.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data().write(to: issues.appendingPathComponent("c-3"))  // a file, not an issue
        #expect(try await bashCompletes(bash, ["newsstand", "validate", "mag", "--issue", ""], in: folder) == ["a-1", "b_2.x"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED2").path))
        // A magazine that is not there offers nothing and fails nothing.
        #expect(try await bashCompletes(bash, ["newsstand", "validate", "/nonexistent", "--issue", ""], in: folder) == [])
        let fish = try await script("fish", named: "newsstand.fish")
        let fished = try await Shell.runOffPool(
            "fish", ["--no-config", "-c", "source \(fish.path); complete -C 'newsstand validate mag --issue '"], in: folder)
        let completed: [String] = fished.stdout.split(separator: "\n").map { line in String(line.split(separator: "\t")[0]) }
        #expect(completed == ["a-1", "b_2.x"], "\(fished)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED").path))
    }

    @Test func zshAndFishScriptsParseAndFishCompletesLikeBash() async throws {
        let zsh = try await script("zsh", named: "_newsstand")
        let parsed = try await Shell.runOffPool("zsh", ["-n", zsh.path])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "\(parsed.stderr)")
        #expect(try String(contentsOf: zsh, encoding: .utf8).hasPrefix("#compdef newsstand\n"))
        // (What zsh offers is checked through its completion system in zshCompletesThroughItsCompletionSystem.)
        let fish = try await script("fish", named: "newsstand.fish")
        let fishParsed = try await Shell.runOffPool("fish", ["--no-config", "-n", fish.path])
        #expect(fishParsed.status == 0 && fishParsed.stderr.isEmpty, "\(fishParsed.stderr)")
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        func fishCompletes(_ line: String) async throws -> [String] {
            let result = try await Shell.runOffPool("fish", ["--no-config", "-c", "source \(fish.path); complete -C '\(line)'"])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try await fishCompletes("newsstand bu") == ["build"])
        #expect(try await fishCompletes("newsstand build --fo") == ["--force", "--format"])
        #expect(try await fishCompletes("newsstand build \(sample) --issue ") == ["a-1", "a-2", "a-3"])
        #expect(
            try await fishCompletes("newsstand catalog out --magazine \(sample) --feed ") == ["atom", "opds", "shelf"])
    }

    @Test func zshCompletesThroughItsCompletionSystem() async throws {
        let zsh = try await script("zsh", named: "_newsstand")
        let probe = Shell.repositoryRoot.appendingPathComponent("Tests/NewsstandCLITests/zsh_completion_probe.zsh").path
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        func zshCompletes(_ line: String) async throws -> [String] {
            let out = try Shell.temporaryFolder("zsh-probe").appendingPathComponent("offered")
            try Data().write(to: out)
            // timeout: a probe that never sees its marker fails instead of hanging the suite.
            let result = try await Shell.runOffPool(
                "timeout", ["60", "zsh", "-f", probe, zsh.deletingLastPathComponent().path, line, out.path])
            #expect(result.status == 0, "\(result.stderr)")
            let offered = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map(String.init)
            return Array(Set(offered.filter { !$0.isEmpty })).sorted()
        }
        #expect(try await zshCompletes("newsstand bu") == ["build"])
        #expect(try await zshCompletes("newsstand build --fo") == ["--force", "--format"])
        #expect(try await zshCompletes("newsstand build \(sample) --issue ") == ["a-1", "a-2", "a-3"])
        #expect(try await zshCompletes("newsstand validate x --format ") == ["github", "json", "text"])
        #expect(
            try await zshCompletes("newsstand catalog out --magazine \(sample) --feed ") == ["atom", "opds", "shelf"])
        #expect(try await zshCompletes("newsstand init x --ci ") == ["github", "gitlab"])
    }

    @Test func theManPageRendersWithoutWarnings() async throws {
        let page = try Shell.temporaryFolder("man").appendingPathComponent("newsstand.1")
        try await InProcess.newsstand(["manpage"]).stdout.write(to: page, atomically: true, encoding: .utf8)
        let groff = try await Shell.runOffPool("groff", ["-ww", "-man", "-Tutf8", "-z", page.path])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "groff: \(groff.stderr)")
        let man = try await Shell.runOffPool(
            "man", ["--warnings", "-l", page.path], environment: ["MANWIDTH": "100", "MANPAGER": "cat", "LANG": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "man: \(man.stderr)")
        #expect(man.stdout.contains("newsstand build <magazine> --output <folder>"), "\(man.stdout.prefix(2000))")
        #expect(man.stdout.contains("--format text|json|github"))
    }
}
