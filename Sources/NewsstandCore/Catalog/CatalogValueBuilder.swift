import Foundation

/// Builds property-list values (`PlistValue`) from the elements `CatalogStreamParser` reads,
/// and hands each item of the root array to `CatalogEntry` as soon as it is complete, then
/// forgets it: only the entry being read is held as a value.
struct CatalogValueBuilder {
    /// Why the elements do not make a property list.
    struct Problem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private(set) var entries: [CatalogEntry] = []
    private(set) var problems: [CatalogError] = []
    /// Character data of the open key, string, number, date or data element.
    var text: [UInt8] = []
    /// The root value is something else than an array (reported once the document is complete).
    private(set) var rootIsNotArray = false
    /// Whether an element has been seen.
    private(set) var hasStarted = false
    private var isFinished = false

    private enum Leaf: String {
        case key, string, integer, real, date, data, `true`, `false`
    }

    private enum Frame {
        case plist(hasRoot: Bool)
        /// The root array: its items are catalog entries, each handled when complete.
        case entries
        case array([PlistValue])
        case dict([String: PlistValue], key: String?)
        case leaf(Leaf)
    }

    private var stack: [Frame] = []
    private static let maxDepth = 64

    /// Whether character data belongs to a value now (elsewhere only white space may appear).
    var collectsText: Bool {
        if case .leaf = stack.last { true } else { false }
    }

    mutating func start(_ name: String) throws(Problem) {
        guard !isFinished else { throw Problem("an element after the root value") }
        hasStarted = true
        guard stack.count < Self.maxDepth else { throw Problem("values nested more than \(Self.maxDepth) deep") }
        switch stack.last {
        case .leaf(let leaf)?: throw Problem("an element inside <\(leaf.rawValue)>")
        case .plist(hasRoot: true)?: throw Problem("a second root value")
        case .dict(_, key: nil)? where name != "key": throw Problem("a value without a key in a dictionary")
        case .dict(_, key: _?)? where name == "key": throw Problem("a key without a value in a dictionary")
        default: break
        }
        let isRoot: Bool
        switch stack.last {
        case nil: isRoot = true
        case .plist?: isRoot = true
        default: isRoot = false
        }
        switch name {
        case "plist":
            guard stack.isEmpty else { throw Problem("a <plist> inside a value") }
            stack.append(.plist(hasRoot: false))
        case "array":
            if isRoot { markRoot(isArray: true) }
            stack.append(isRoot ? .entries : .array([]))
        case "dict":
            if isRoot { markRoot(isArray: false) }
            stack.append(.dict([:], key: nil))
        default:
            guard let leaf = Leaf(rawValue: name) else { throw Problem("an unknown element <\(name)>") }
            if leaf == .key, !isDictionary { throw Problem("a key outside a dictionary") }
            if isRoot { markRoot(isArray: false) }
            text.removeAll(keepingCapacity: true)
            stack.append(.leaf(leaf))
        }
    }

    mutating func end(_ name: String) throws(Problem) {
        guard let frame = stack.popLast() else { throw Problem("an unexpected </\(name)>") }
        switch frame {
        case .plist(let hasRoot):
            try expect(name, "plist")
            guard hasRoot else { throw Problem("an empty <plist>") }
            isFinished = true
        case .entries:
            try expect(name, "array")
            if stack.isEmpty { isFinished = true }
        case .array(let items):
            try expect(name, "array")
            try deliver(.array(items))
        case .dict(let dictionary, let key):
            try expect(name, "dict")
            guard key == nil else { throw Problem("a key without a value in a dictionary") }
            try deliver(.dictionary(dictionary))
        case .leaf(let leaf):
            try expect(name, leaf.rawValue)
            let value = try convert(leaf)
            text.removeAll(keepingCapacity: text.count <= 1 << 16)
            if leaf == .key, case .dict(let dictionary, nil)? = stack.popLast(), let key = value.string {
                stack.append(.dict(dictionary, key: key))
            } else {
                try deliver(value)
            }
        }
    }

    /// Checks that the document is complete.
    func finish() throws(Problem) {
        guard hasStarted else { throw Problem("no root value") }
        guard isFinished else { throw Problem("the catalog ends before its root value does") }
    }

    private var isDictionary: Bool {
        if case .dict? = stack.last { true } else { false }
    }

    private mutating func markRoot(isArray: Bool) {
        rootIsNotArray = !isArray
        if case .plist? = stack.last {
            stack[stack.count - 1] = .plist(hasRoot: true)
        }
    }

    private func expect(_ name: String, _ open: String) throws(Problem) {
        guard name == open else { throw Problem("</\(name)> closes <\(open)>") }
    }

    /// A complete value, to the container it belongs to.
    private mutating func deliver(_ value: PlistValue) throws(Problem) {
        switch stack.last {
        case nil:
            isFinished = true  // a root that is not an array: judged in finish()
        case .plist?:
            break
        case .entries?:
            guard let dictionary = value.dictionary else {
                problems.append(.badEntry(name: nil, reason: "an entry is not a dictionary"))
                return
            }
            do {
                entries.append(try CatalogEntry(plist: dictionary))
            } catch {
                problems.append(error)
            }
        case .array?:
            guard !rootIsNotArray, case .array(var items) = stack.removeLast() else { return }
            items.append(value)
            stack.append(.array(items))
        case .dict(_, let key?)?:
            guard !rootIsNotArray, case .dict(var dictionary, _) = stack.removeLast() else {
                stack[stack.count - 1] = .dict([:], key: nil)
                return
            }
            dictionary[key] = value
            stack.append(.dict(dictionary, key: nil))
        case .dict(_, nil)?, .leaf?:
            throw Problem("a value in the wrong place")
        }
    }

    /// The value of a leaf element from its text, by Foundation's rules.
    private func convert(_ leaf: Leaf) throws(Problem) -> PlistValue {
        switch leaf {
        case .key, .string:
            guard let string = String(bytes: text, encoding: .utf8) else { throw Problem("text that is not UTF-8") }
            return .string(string)
        case .integer:
            let string = String(decoding: text, as: UTF8.self)
            guard let number = Self.integer(string) else { throw Problem("an invalid integer '\(string.prefix(40))'") }
            return number
        case .real:
            let string = String(decoding: text, as: UTF8.self)
            guard let number = Double(string) else { throw Problem("an invalid real '\(string.prefix(40))'") }
            return .real(number)
        case .date:
            let string = String(decoding: text, as: UTF8.self)
            guard let date = PlistDate.parse(string) else { throw Problem("an invalid date '\(string.prefix(40))'") }
            return .date(date)
        case .data:
            let base64 = String(decoding: text.filter { !Ascii.isSpace($0) }, as: UTF8.self)
            guard let data = Data(base64Encoded: base64) else { throw Problem("invalid base64 data") }
            return .data(data)
        case .true, .false:
            guard text.allSatisfy(Ascii.isSpace) else { throw Problem("text inside <\(leaf.rawValue)/>") }
            return .boolean(leaf == .true)
        }
    }

    /// Decimal or `0x` hexadecimal with an optional sign, as Foundation reads `<integer>`: an
    /// integer, or above `Int.max` a number no size or count accepts (as `PlistNumber` turns
    /// Foundation's unsigned ones).
    private static func integer(_ string: String) -> PlistValue? {
        var digits = Substring(string)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative {
            return magnitude <= UInt64(Int.max) + 1 ? .integer(Int(truncatingIfNeeded: 0 &- magnitude)) : nil
        }
        return magnitude <= UInt64(Int.max) ? .integer(Int(magnitude)) : .real(Double(magnitude))
    }
}
