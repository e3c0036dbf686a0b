import Foundation
import NewsstandCore

/// A property-list value that remembers the line it was read from, so that every
/// diagnostic can point at the offending node.
public struct PlistNode: Sendable, Equatable {
    /// The value, with children as nodes of their own.
    public var value: Value
    /// The 1-based line of the element in its file (0 when not read from XML).
    public var line: Int

    /// What a node holds: a plain value, or children that keep lines of their own.
    public indirect enum Value: Sendable, Equatable {
        /// A string, integer, real, boolean, date or data, as the one plist value model
        /// (`PlistValue`) has it. The readers build arrays and dictionaries as the cases below,
        /// so that every child keeps its line.
        case scalar(PlistValue)
        case array([PlistNode])
        /// Entries in file order; a key repeated in a file keeps its last value (as Foundation does).
        case dictionary([Entry])

        public static func string(_ value: String) -> Value { .scalar(.string(value)) }
        public static func integer(_ value: Int) -> Value { .scalar(.integer(value)) }
        public static func real(_ value: Double) -> Value { .scalar(.real(value)) }
        public static func boolean(_ value: Bool) -> Value { .scalar(.boolean(value)) }
        public static func date(_ value: Date) -> Value { .scalar(.date(value)) }
        public static func data(_ value: Data) -> Value { .scalar(.data(value)) }
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
        if case .scalar(.string(let s)) = value { return s }
        return nil
    }

    /// The date, if this is a date.
    public var date: Date? {
        if case .scalar(.date(let d)) = value { return d }
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
        case .scalar(let scalar): scalar.kindName
        case .array: "array"
        case .dictionary: "dict"
        }
    }

    /// The node as a plain value, without its lines.
    public var plistValue: PlistValue {
        switch value {
        case .scalar(let scalar): scalar
        case .array(let items): .array(items.map(\.plistValue))
        case .dictionary(let entries): .dictionary(Dictionary(entries.map { ($0.key, $0.node.plistValue) }) { _, last in last })
        }
    }
}
