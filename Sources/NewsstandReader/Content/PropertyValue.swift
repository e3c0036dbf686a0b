import Foundation
import NewsstandFormat

/// A value from a page's `properties`, as the property list holds it.
public indirect enum PropertyValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyValue])
    case dictionary([String: PropertyValue])

    /// Converts a Foundation property-list object; nil for anything a plist cannot hold.
    init?(plist object: Any) {
        switch object {
        case let s as String: self = .string(s)
        case let d as Date: self = .date(d)
        case let d as Data: self = .data(d)
        case let a as [Any]:
            var values: [PropertyValue] = []
            for element in a {
                guard let value = PropertyValue(plist: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let d as [String: Any]:
            var values: [String: PropertyValue] = [:]
            for (key, element) in d {
                guard let value = PropertyValue(plist: element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        case let n as NSNumber:
            switch PlistNumber(n) {
            case .boolean(let b): self = .boolean(b)
            case .integer(let i): self = .integer(i)
            case .real(let r): self = .real(r)
            }
        case let b as Bool: self = .boolean(b)
        default: return nil
        }
    }

    /// The string, when this is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
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
    /// The elements, when this is an array.
    public var array: [PropertyValue]? { if case .array(let a) = self { a } else { nil } }
    /// The entries, when this is a dictionary.
    public var dictionary: [String: PropertyValue]? { if case .dictionary(let d) = self { d } else { nil } }
}
