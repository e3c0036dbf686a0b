import Testing

@testable import NewsstandCLI

/// A command line becomes one typed value: each argument's text, checked against its kind,
/// written to its property, the defaults kept for what is not given.
@Suite struct CommandOptionsTests {
    struct Shared {
        var isStrict = false
        var issues: [String] = []
    }

    struct Options: CommandOptions {
        var folder = ""
        var rest: [String] = []
        var output = ""
        var jobs = 4
        var limit: Int64?
        var wait = 10.0
        var mode = OutputFormat.text
        var verify: Bool?
        var isForced = false
        var shared = Shared()

        static var arguments: [Argument<Self>] {
            [
                .operand(\.folder, "folder", .folder, help: "a folder"),
                .operand(\.rest, "more", help: "more words"),
                .required(\.output, "--output", alias: "-o", .folder, help: "where"),
                .value(\.jobs, "--jobs", alias: "-j", .wholeNumber(unit: nil, range: 1...64), help: "how many"),
                .value(\.limit, "--limit", .wholeNumber(unit: "bytes", range: 0...Int64.max), help: "how much"),
                .value(\.wait, "--wait", .seconds(allowsZero: true), help: "how long"),
                .value(\.mode, "--mode", help: "which"),
                .flag(\.verify, "--verify", setting: true, help: "check"),
                .flag(\.verify, "--no-verify", setting: false, help: "do not check"),
                .flag(\.isForced, "--force", help: "force"),
            ]
                + Argument.group(
                    \.shared, [.flag(\.isStrict, "--strict", help: "strict"), .value(\.issues, "--issue", help: "an issue")])
        }

        func validate() throws(UsageError) {
            if isForced && verify == false { throw UsageError("\(Self.name(\.isForced)) needs checking") }
        }
    }

    private func parse(_ words: [String]) throws(UsageError) -> Options? { try Options.parse(words) }

    @Test func everyArgumentIsWrittenToItsProperty() throws {
        let options = try #require(
            try parse([
                "f", "a", "b", "-o", "out", "--jobs=8", "--limit", "1024", "--wait", "0.5", "--mode", "json", "--verify",
                "--force",
                "--strict", "--issue", "a-1", "--issue", "a-2",
            ]))
        #expect(options.folder == "f")
        #expect(options.rest == ["a", "b"])
        #expect(options.output == "out")
        #expect(options.jobs == 8)
        #expect(options.limit == 1024)
        #expect(options.wait == 0.5)
        #expect(options.mode == .json)
        #expect(options.verify == true)
        #expect(options.isForced)
        #expect(options.shared.isStrict)
        #expect(options.shared.issues == ["a-1", "a-2"])
    }

    @Test func whatIsNotGivenKeepsItsDefault() throws {
        let options = try #require(try parse(["f", "--output", "out"]))
        #expect(options.rest == [])
        #expect(options.jobs == 4)
        #expect(options.limit == nil)
        #expect(options.wait == 10)
        #expect(options.mode == .text)
        #expect(options.verify == nil)
        #expect(!options.isForced && !options.shared.isStrict)
    }

    @Test func theLastValueOfAnOptionGivenTwiceWins() throws {
        #expect(try parse(["f", "-o", "a", "--output", "b", "-j", "2", "-j", "3"])?.output == "b")
        #expect(try parse(["f", "-o", "a", "-j", "2", "-j", "3"])?.jobs == 3)
    }

    @Test func wordsAfterADoubleDashAreOperands() throws {
        let options = try #require(try parse(["-o", "out", "--", "-f", "--force"]))
        #expect(options.folder == "-f")
        #expect(options.rest == ["--force"])
        #expect(!options.isForced)
    }

    @Test func helpNeedsNoRequiredArgument() throws {
        #expect(try parse(["--help"]) == nil)
        #expect(try parse(["--jobs", "2", "-h"]) == nil)
    }

    @Test(arguments: [
        (["f"], "missing --output <folder>"),
        (["-o", "out"], "missing <folder>"),
        (["f", "-o", "out", "--jobs", "65"], "--jobs needs a whole number from 1 to 64, got '65'"),
        (["f", "-o", "out", "--mode", "xml"], "unknown mode 'xml'; expected text or json"),
        (["f", "-o", "out", "--no-verify", "--verify"], "--no-verify and --verify contradict each other"),
        (["f", "-o", "out", "--verify", "--strict", "--no-verify"], "--verify and --no-verify contradict each other"),
        (["f", "-o", "out", "--force", "--no-verify"], "--force needs checking"),
        (["f", "-o", "out", "--forse"], "unknown option '--forse'; did you mean '--force'?"),
    ])
    func aWrongCommandLineIsOneUsageError(words: [String], message: String) {
        #expect(throws: UsageError(message)) { try Options.parse(words) }
    }

    @Test func theSameFlagTwiceIsNoContradiction() throws {
        #expect(try parse(["f", "-o", "out", "--verify", "--verify"])?.verify == true)
    }

    @Test func messagesNameArgumentsByTheirDeclaration() {
        #expect(Options.name(\.jobs) == "--jobs")
        #expect(Options.name(\.folder) == "<folder>")
        #expect(Options.name(\.shared.isStrict) == "--strict")
    }
}
