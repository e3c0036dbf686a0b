import Testing

@testable import NewsstandCLI

/// The declaration validators: every command's declaration passes them, and each kind of
/// mistake a new option could bring is refused (what swift-argument-parser's validators do).
@Suite struct DeclarationProblemTests {
    /// Properties for arguments of every shape; each test binds some of them.
    struct Options: CommandOptions {
        var first = ""
        var second: String?
        var many: [String] = []
        var number: Int?
        var choice: String?
        var isOn = false
        var isOff = false
        static var arguments: [Argument<Self>] { [] }
    }

    private func problems(_ arguments: [Argument<Options>]) -> [DeclarationProblem] {
        DeclarationProblem.find(in: CommandDeclaration(name: "t", summary: "a test", arguments: arguments), arguments: arguments)
    }

    @Test func everyCommandsDeclarationIsRight() {
        #expect(NewsstandCommand.declarationProblems == [])
    }

    @Test func aNameOrAliasGivenTwiceIsRefused() {
        #expect(
            problems([.value(\.second, "--out", help: "a"), .value(\.choice, "--out", help: "b")])
                == [.duplicateName(command: "t", name: "--out")])
        #expect(
            problems([.value(\.second, "--out", alias: "-o", help: "a"), .flag(\.isOn, "--on", alias: "-o", help: "b")])
                == [.duplicateName(command: "t", name: "-o")])
        #expect(problems([.flag(\.isOn, "--help", help: "a")]) == [.duplicateName(command: "t", name: "--help")])
        #expect(problems([.flag(\.isOn, "--hide", alias: "-h", help: "a")]) == [.duplicateName(command: "t", name: "-h")])
        #expect(
            problems([.operand(\.first, "name", help: "a"), .operand(\.second, "name", help: "b")])
                == [.duplicateName(command: "t", name: "name")])
    }

    @Test(arguments: ["-out", "--Out", "--out-", "--out--file", "out", "--", "-oo", "-é"])
    func aNameThatIsNoOptionIsRefused(name: String) {
        #expect(problems([.flag(\.isOn, name, help: "a")]) == [.malformedName(command: "t", name: name)])
    }

    @Test func wellFormedNamesPass() {
        #expect(
            problems([.flag(\.isOn, "--dry-run", alias: "-n", help: "a"), .flag(\.isOff, "--max-2x", alias: "-2", help: "b")])
                == [])
    }

    @Test func operandsThatCannotBeToldApartAreRefused() {
        #expect(
            problems([.operand(\.second, "optional", help: "a"), .operand(\.first, "required", help: "b")])
                == [.misplacedOperand(command: "t", operand: "required")])
        #expect(
            problems([.operand(\.many, "all", help: "a"), .operand(\.second, "after", help: "b")])
                == [.misplacedOperand(command: "t", operand: "after")])
    }

    @Test func aKindItsPropertyCannotHoldIsRefused() {
        #expect(
            problems([.value(\.number, "--wait", .seconds(allowsZero: false), help: "a")])
                == [.unreadableValue(command: "t", argument: "--wait", text: "0.5")])
        #expect(
            problems([.value(\.number, "--mode", .choice(["fast"]), help: "a")])
                == [.unreadableValue(command: "t", argument: "--mode", text: "fast")])
        #expect(problems([.value(\.number, "--count", .wholeNumber(unit: nil, range: 0...Int64.max), help: "a")]) == [])
    }

    @Test func onlyFlagsMayShareAProperty() {
        #expect(
            problems([.value(\.second, "--a", help: "a"), .value(\.second, "--b", help: "b")])
                == [.sharedProperty(command: "t", arguments: ["--a", "--b"])])
        #expect(
            problems([.flag(\.isOn, "--on", help: "a"), .flag(\.isOn, "--off", setting: false, help: "b")]) == [])
    }

    @Test func aChoiceOfNothingOrOfAWordTwiceIsRefused() {
        #expect(problems([.value(\.choice, "--mode", .choice([]), help: "a")]) == [.badChoice(command: "t", argument: "--mode")])
        #expect(
            problems([.value(\.choice, "--mode", .choice(["a", "b", "a"]), help: "a")])
                == [.badChoice(command: "t", argument: "--mode")])
    }

    @Test func aDeclarationMadeFromOtherArgumentsIsRefused() {
        let declaration = CommandDeclaration(
            name: "t", summary: "a test", arguments: [Argument<Options>.flag(\.isOn, "--on", help: "a")])
        let arguments: [Argument<Options>] = [.flag(\.isOn, "--on", help: "a"), .flag(\.isOff, "--off", help: "b")]
        #expect(DeclarationProblem.find(in: declaration, arguments: arguments) == [.declarationDiffersFromOptions(command: "t")])
    }
}
