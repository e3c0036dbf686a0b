import Foundation

/// A property-list value: the one model of plist values the reader and the build share (page
/// properties, catalog entries), and the one conversion from Foundation's objects into it.
public indirect enum PlistValue: Sendable, Equatable {
    /// A `<string>`.
    case string(String)
    /// An `<integer>`.
    case integer(Int)
    /// A `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// A `<date>`.
    case date(Date)
    /// A `<data>` block.
    case data(Data)
    /// An `<array>`.
    case array([PlistValue])
    /// A `<dict>`, by key.
    case dictionary([String: PlistValue])

    /// Converts a Foundation property-list object (`PropertyListSerialization`'s output); nil
    /// for anything a plist cannot hold. Numbers are told apart by their real kind
    /// (`PlistNumber`): bridging cannot on Linux.
    public init?(foundationObject object: Any) {
        switch object {
        case let s as String: self = .string(s)
        case let d as Date: self = .date(d)
        case let d as Data: self = .data(d)
        case let a as [Any]:
            var values: [PlistValue] = []
            for element in a {
                guard let value = PlistValue(foundationObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let d as [String: Any]:
            var values: [String: PlistValue] = [:]
            for (key, element) in d {
                guard let value = PlistValue(foundationObject: element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        case let n as NSNumber: self = PlistNumber(n).value
        case let b as Bool: self = .boolean(b)
        default: return nil
        }
    }

    /// The value as a Foundation property-list object (for `PropertyListSerialization`).
    public var foundationObject: Any {
        switch self {
        case .string(let s): s
        case .integer(let i): i
        case .real(let r): r
        case .boolean(let b): b
        case .date(let d): d
        case .data(let d): d
        case .array(let a): a.map(\.foundationObject)
        case .dictionary(let d): d.mapValues(\.foundationObject)
        }
    }

    /// The name of the value's kind as a user reads it in a plist (`string`, `dict`, …).
    public var kindName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        }
    }

    /// The string, when this is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, when this is one (a real is not: sizes and counts are whole).
    public var integer: Int? { if case .integer(let i) = self { i } else { nil } }
    /// The number as a Double, when this is an integer or a real.
    public var number: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .real(let r): r
        default: nil
        }
    }
    /// The Boolean, when this is one.
    public var boolean: Bool? { if case .boolean(let b) = self { b } else { nil } }
    /// The date, when this is one.
    public var date: Date? { if case .date(let d) = self { d } else { nil } }
    /// The elements, when this is an array.
    public var array: [PlistValue]? { if case .array(let a) = self { a } else { nil } }
    /// The entries, when this is a dictionary.
    public var dictionary: [String: PlistValue]? { if case .dictionary(let d) = self { d } else { nil } }
}
