import Foundation
import NewsstandCLI
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// Every option of every command is in the completions and the man page, read in process. The
/// scripts run by bash, zsh and fish and the page rendered by troff are in
/// `CompletionAndManPageTests`.
@Suite struct CompletionCoverageTests {
    let completions = CompletionAndManPageTests()

    @Test func everyOptionOfEveryCommandIsInTheCompletionsAndTheManPage() async throws {
        let bash = try String(contentsOf: try await completions.script("bash", named: "b"), encoding: .utf8)
        let zsh = try String(contentsOf: try await completions.script("zsh", named: "z"), encoding: .utf8)
        let fish = try String(contentsOf: try await completions.script("fish", named: "f"), encoding: .utf8)
        let man = await InProcess.newsstand(["manpage"]).stdout
        func troff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }
        for command in NewsstandCommand.declarations {
            #expect(bash.contains("    \(command.name))"), "bash lacks \(command.name)")
            #expect(
                zsh.contains("_newsstand_\(command.name.replacingOccurrences(of: "-", with: "_"))()"), "zsh lacks \(command.name)"
            )
            #expect(fish.contains("-a \(command.name) -d"), "fish lacks \(command.name)")
            #expect(man.contains(".SS \(troff(command.name))\n"), "the man page lacks \(command.name)")
            for option in command.options {
                #expect(
                    bash.contains(" \(option.name) ") || bash.contains("\"\(option.name) ") || bash.contains("\(option.name)|")
                        || bash.contains("\(option.name))"), "bash lacks \(command.name) \(option.name)")
                #expect(
                    zsh.contains("\(option.name)[") || zsh.contains(",\(option.name)}"),
                    "zsh lacks \(command.name) \(option.name)")
                #expect(
                    fish.contains("-n '__fish_seen_subcommand_from \(command.name)' -l \(option.name.dropFirst(2)) "),
                    "fish lacks \(command.name) \(option.name)")
                #expect(man.contains("\\fB\(troff(option.name))\\fR"), "the man page lacks \(command.name) \(option.name)")
                if let alias = option.alias {
                    #expect(bash.contains("\(alias)"), "bash lacks \(alias)")
                    #expect(man.contains("\\fB\(troff(alias))\\fR, \\fB\(troff(option.name))\\fR"), "the man page lacks \(alias)")
                    #expect(fish.contains("-s \(alias.dropFirst())"), "fish lacks \(alias)")
                }
            }
            for variable in command.environment {
                #expect(man.contains(".B \(variable.name)\n"), "the man page lacks \(variable.name)")
            }
            for status in command.exitStatuses {
                #expect(
                    man.contains(troff("\(status.status) \(status.meaning)")),
                    "the man page lacks \(command.name)'s exit status \(status.status)")
            }
        }
        for code in DiagnosticCode.allCases {
            #expect(
                man.contains(".B \(troff(code.rawValue))\n\(code.defaultSeverity.rawValue):"),
                "the man page lacks \(code.rawValue)")
        }
    }
}
