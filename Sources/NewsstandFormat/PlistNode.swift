import Foundation

/// A property-list value that remembers the line it was read from, so that every
/// diagnostic can point at the offending node.
public struct PlistNode: Sendable, Equatable {
    /// The value, with children as nodes of their own.
    public var value: Value
    /// The 1-based line of the element in its file (0 when not read from XML).
    public var line: Int

    /// The kinds of value a property list holds.
    public indirect enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case real(Double)
        case boolean(Bool)
        case date(Date)
        case data(Data)
        case array([PlistNode])
        /// Entries in file order; a key repeated in a file keeps its last value (as Foundation does).
        case dictionary([Entry])
    }

    /// One key of a dictionary and its value, each with its own line.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var keyLine: Int
        public var node: PlistNode

        public init(key: String, keyLine: Int, node: PlistNode) {
            self.key = key
            self.keyLine = keyLine
            self.node = node
        }
    }

    public init(_ value: Value, line: Int) {
        self.value = value
        self.line = line
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// The date, if this is a date.
    public var date: Date? {
        if case .date(let d) = value { return d }
        return nil
    }

    /// The elements, if this is an array.
    public var array: [PlistNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    /// The entries, if this is a dictionary.
    public var entries: [Entry]? {
        if case .dictionary(let e) = value { return e }
        return nil
    }

    /// The value for `key`, if this is a dictionary that has it.
    public subscript(key: String) -> PlistNode? {
        entries?.last(where: { $0.key == key })?.node
    }

    /// The entry for `key`, if this is a dictionary that has it.
    public func entry(_ key: String) -> Entry? {
        entries?.last(where: { $0.key == key })
    }

    /// The name of the value's kind as a user reads it in a plist (`string`, `dict`, …).
    public var kindName: String {
        switch value {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .boolean: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dict"
        }
    }
}
