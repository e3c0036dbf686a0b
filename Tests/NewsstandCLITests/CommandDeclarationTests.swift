import Foundation
import NewsstandCLI
import NewsstandTestSupport
import Testing

/// Each command is declared once; parsing, `--help` and usage errors come from that declaration,
/// so nothing declared can be missing from the help, and the reference documents every option.
@Suite struct CommandDeclarationTests {
    @Test func everyOptionAndAliasIsInItsCommandsHelp() async throws {
        for command in NewsstandCommand.declarations {
            let help = await InProcess.newsstand([command.name, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("Usage: newsstand \(command.name)"), "\(help.stdout)")
            for option in command.options {
                #expect(help.stdout.contains(option.name), "\(command.name) --help lacks \(option.name)")
                if let alias = option.alias {
                    #expect(help.stdout.contains("\(alias), \(option.name)"), "\(command.name) --help lacks \(alias)")
                }
            }
            for operand in command.operands where command.forms == nil {
                #expect(help.stdout.contains("<\(operand.name)>"), "\(command.name) --help lacks <\(operand.name)>")
            }
        }
        let overall = await InProcess.newsstand(["--help"])
        for command in NewsstandCommand.declarations {
            #expect(overall.stdout.contains("  \(command.name) "), "\(command.name) is not listed")
        }
    }

    @Test func aliasesWorkLikeTheirOptions() async throws {
        let output = try Shell.temporaryFolder("alias").appendingPathComponent("out")
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        let result = await InProcess.newsstand(["build", sample, "-o", output.path, "-j", "1", "--issue", "a-1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("issues.plist").path))
    }

    @Test(arguments: [
        (
            ["build", "m", "--output", "o", "--jobs", "0"],
            "newsstand build: error: --jobs needs a whole number from 1 to 2147483647, got '0'"
        ),
        (["build", "m", "--output"], "newsstand build: error: option --output needs a value"),
        (["build", "m"], "newsstand build: error: missing --output <folder>"),
        (["build", "--output", "o"], "newsstand build: error: missing <magazine>"),
        (["build", "m", "n", "--output", "o"], "newsstand build: error: unexpected operand 'n'"),
        (["build", "m", "--ouput", "o"], "newsstand build: error: unknown option '--ouput'; did you mean '--output'?"),
        (["build", "m", "-o", "o", "--force=yes"], "newsstand build: error: option --force takes no value"),
        (["validate", "m", "--format", "xml"], "newsstand validate: error: unknown format 'xml'; expected text, json or github"),
        (
            ["validate", "m", "--ignore", "NS-3O6"],
            "newsstand validate: error: unknown diagnostic code 'NS-3O6' for --ignore; did you mean 'NS-306'?"
        ),
        (
            ["library", "f", "frobnicate"],
            "newsstand library: error: unknown action 'frobnicate'; expected refresh, list, download, update, resume, remove, cover or cancel"
        ),
        (["library", "f", "list", "--wait", "-1"], "newsstand library: error: --wait needs a number of seconds, got '-1'"),
        (
            ["publish", "b", "--to", "d", "--timeout", "86401"],
            "newsstand publish: error: --timeout needs a whole number of seconds from 1 to 86400, got '86401'"
        ),
        (
            ["publish", "b", "--to", "d", "--verify", "--no-verify"],
            "newsstand publish: error: --verify and --no-verify contradict each other"
        ),
        (["library", "f", "download"], "newsstand library: error: download needs exactly one of <name>, --latest or --all"),
        (
            ["library", "f", "download", "a-1", "--all"],
            "newsstand library: error: download needs exactly one of <name>, --latest or --all"
        ),
        (["library", "f", "update", "--latest"], "newsstand library: error: update needs exactly one of <name> or --all"),
        (["library", "f", "refresh"], "newsstand library: error: refresh needs one <catalog-url>"),
        (["library", "f", "list", "a-1"], "newsstand library: error: list takes no operands"),
        (["library", "f", "cover"], "newsstand library: error: cover needs one <name>"),
        (["frobnicate"], "newsstand: error: unknown command 'frobnicate'"),
        (["buidl"], "newsstand: error: unknown command 'buidl'; did you mean 'build'?"),
    ])
    func usageMistakesSayWhatIsWrongAndExitWithTwo(arguments: [String], message: String) async {
        let result = await InProcess.newsstand(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.hasPrefix(message + "\n"), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        if arguments.first != "frobnicate", arguments.first != "buidl" {
            #expect(result.stderr.contains("\nUsage: newsstand \(arguments[0]) "), "the usage follows: \(result.stderr)")
        }
    }

    /// Each command's reference page (generated, and checked against the generator by
    /// `ReferenceTests`) documents its synopsis and every option.
    @Test func theReferenceDocumentsEveryOption() throws {
        for command in NewsstandCommand.declarations {
            let file = Shell.repositoryRoot.appendingPathComponent("docs/reference/commands/\(command.name).md")
            let page = try String(contentsOf: file, encoding: .utf8)
            #expect(page.contains("\nnewsstand \(command.name) "), "the reference has no synopsis of \(command.name)")
            for option in command.options {
                #expect(page.contains("| `\(option.name)`"), "the reference does not document \(command.name) \(option.name)")
            }
        }
    }
}
