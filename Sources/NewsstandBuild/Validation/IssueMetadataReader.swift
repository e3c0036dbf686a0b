import Foundation
import NewsstandCore
import NewsstandFormat

/// Reads and checks `issue.plist`: Title, Date and Cover are required; Name (equal to the
/// folder name), Summary, ProductID (a store product identifier) and Access (`free`, the
/// default, or `paid`) and Language (a BCP 47 tag: `LanguageTag`) are optional strings; other
/// keys get a warning.
struct IssueMetadataReader: DiagnosticReporter {
    let issueName: String
    let file: String
    var problems: DiagnosticList
    /// The cover reference, for the asset checks.
    private(set) var coverReference: AssetReference?
    /// Where the Summary is (the dict's line when there is none), for the feed's rules.
    private(set) var summaryLine: Int?

    private static let knownKeys: Set<String> = ["Name", "Title", "Date", "Cover", "Summary", "ProductID", "Access", "Language"]

    init(issueName: String, file: String) {
        self.issueName = issueName
        self.file = file
        problems = DiagnosticList(file: file)
    }

    mutating func read(_ root: PlistNode) -> IssueMetadata? {
        guard let entries = root.entries else {
            problems.add(.issueNotDict, "issue.plist must be a dict, found \(root.kindName)", line: root.line)
            return nil
        }
        for entry in entries where !Self.knownKeys.contains(entry.key) {
            let hint = Suggestion.hint(for: entry.key, among: Self.knownKeys)
            problems.add(
                .issueUnknownKey, "issue.plist key \(SourceText.quoted(entry.key)) is not used by newsstand\(hint)",
                line: entry.keyLine)
        }
        let title = requiredString("Title", code: .issueTitle, root)
        let cover = requiredString("Cover", code: .issueCover, root)
        var date: Date?
        if let node = root["Date"], let value = node.date {
            date = value
        } else {
            let found = root["Date"].map { "found \($0.kindName)\($0.string.map { " '\($0)'" } ?? "")" } ?? "it is missing"
            problems.add(
                .issueDate, "Date must be a <date> such as 2013-11-28T08:00:00Z; \(found)", line: root["Date"]?.line ?? root.line)
        }
        if let node = root["Name"] {
            if let name = node.string {
                if name != issueName {
                    problems.add(
                        .issueNameMismatch, "Name '\(name)' differs from the issue's folder name '\(issueName)'", line: node.line)
                }
            } else {
                problems.add(.issueKeyWrongType, "Name must be a string, found \(node.kindName)", line: node.line)
            }
        }
        let summary = optionalString("Summary", root)
        summaryLine = root["Summary"]?.line ?? root.line
        let productID = optionalString("ProductID", root)
        if let productID, let node = root["ProductID"], !Self.isProductIdentifier(productID) {
            problems.add(
                .issueAccess,
                "ProductID \(SourceText.quoted(productID)) is not a store product identifier: 1 to \(Self.maxProductIDLength) "
                    + "letters, digits, '-', '.' and '_' (App Store Connect's rule)", line: node.line)
        }
        let access = readAccess(root)
        if access == .free, productID != nil, let node = root["ProductID"] {
            let given = root["Access"] == nil ? "Access is not given" : "Access is 'free'"
            problems.add(
                .freeIssueProductID,
                "the issue has a ProductID but is free (\(given)): its content is public, and shelf.json leaves product_id out "
                    + "(Baker would sell the issue); set Access to 'paid' to sell it, or remove ProductID", line: node.line)
        }
        let language = optionalString("Language", root)
        if let language, let node = root["Language"], !LanguageTag.isWellFormed(language) {
            problems.add(
                .issueLanguage,
                "Language \(SourceText.quoted(language)) is not a BCP 47 language tag such as 'en', 'ru' or 'pt-BR' "
                    + "(a language of 2-3 or 5-8 letters, then an optional script, region and variants, joined by '-')",
                line: node.line)
        }
        if let cover, let node = root["Cover"] {
            coverReference = AssetReference(name: cover, kind: .image, location: SourceLocation(file: file, line: node.line))
        }
        guard let title, let date, let cover else { return nil }
        return IssueMetadata(
            title: title, date: date, cover: cover, summary: summary, productID: productID, access: access ?? .free,
            language: language.flatMap { LanguageTag.isWellFormed($0) ? $0 : nil })
    }

    /// The longest product identifier App Store Connect accepts.
    static let maxProductIDLength = 100

    /// Letters, digits, `-`, `.` and `_`, 1 to 100 of them: what App Store Connect accepts (and
    /// a superset of Google Play's lowercase rule), so a typo such as a space or a slash is
    /// caught before the app asks the store for a product that cannot exist.
    static func isProductIdentifier(_ text: String) -> Bool {
        guard (1...maxProductIDLength).contains(text.utf8.count) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_": return true
            default: return false
            }
        }
    }

    /// `Access`: `free` or `paid`, exactly (a misspelt value must not publish a paid issue as
    /// free); nil when the value is wrong, which is an error, so nothing is built.
    private mutating func readAccess(_ root: PlistNode) -> IssueAccess? {
        guard let node = root["Access"] else { return .free }
        guard let text = node.string else {
            problems.add(
                .issueKeyWrongType, "Access must be a string ('free' or 'paid'), found \(node.kindName)", line: node.line)
            return nil
        }
        if let access = IssueAccess(rawValue: text) { return access }
        let hint = Suggestion.hint(for: text, among: Set(IssueAccess.allCases.map(\.rawValue)))
        problems.add(.issueAccess, "Access \(SourceText.quoted(text)) is not 'free' or 'paid'\(hint)", line: node.line)
        return nil
    }

    /// A required string, refused when it is missing, not a string, empty or blank (only
    /// whitespace: an EPUB's `dc:title`, `<title>` and `<h1>` would be empty, which EPUBCheck
    /// refuses), as a blank Publisher is (NS-105).
    private mutating func requiredString(_ key: String, code: DiagnosticCode, _ root: PlistNode) -> String? {
        if let value = root[key]?.string, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return value }
        let found =
            root[key].map { node in
                node.string.map { $0.isEmpty ? "it is empty" : "it is blank" } ?? "found \(node.kindName)"
            } ?? "it is missing"
        problems.add(code, "\(key) must be a non-empty string; \(found)", line: root[key]?.line ?? root.line)
        return nil
    }

    private mutating func optionalString(_ key: String, _ root: PlistNode) -> String? {
        guard let node = root[key] else { return nil }
        if let value = node.string { return value }
        problems.add(.issueKeyWrongType, "\(key) must be a string, found \(node.kindName)", line: node.line)
        return nil
    }
}
