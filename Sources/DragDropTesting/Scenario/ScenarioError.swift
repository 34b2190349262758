/// A problem with a scenario file, naming the place: the JSON path (`events[3]`,
/// `scene[0].children[2]`) and, where known, the line and column.
///
/// ```text
/// events[3]: unknown action "jump"; expected one of down, move, up, … (line 42, column 5)
/// ```
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of problem, for tests and tools.
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be read.
        case unreadable
        /// The text is not valid JSON.
        case malformedJSON
        /// A required field is missing.
        case missingField
        /// A field the format does not know (often a typo).
        case unknownField
        /// A value of the wrong JSON type (a string where a number belongs).
        case wrongType
        /// A value of the right type that is not allowed (a negative width, an unknown role).
        case invalidValue
        /// An event whose action is not one of the known actions.
        case unknownAction
        /// An event with no action or more than one.
        case actionCount
        /// Two nodes with the same id.
        case duplicateID
        /// An event earlier than the one before it.
        case timeOrder
        /// An id that names no node.
        case unknownReference
        /// A scene that cannot be built (an item outside a container, a missing frame).
        case sceneStructure
        /// An event that cannot be replayed (picking up an item that cannot be dragged).
        case replay
    }

    /// The broad kind of problem.
    public var kind: Kind
    /// The JSON path of the offending value; empty for the whole document.
    public var path: String
    /// What is wrong, for a person.
    public var message: String
    /// Where the offending value starts in the file, when known.
    public var location: JSONLocation?

    /// Creates an error.
    public init(_ kind: Kind, path: String, _ message: String, at location: JSONLocation? = nil) {
        self.kind = kind
        self.path = path
        self.message = message
        self.location = location
    }

    /// `path: message (line L, column C)`; the document itself is called "scenario".
    public var description: String {
        let place = path.isEmpty ? "scenario" : path
        let suffix = location.map { " (\($0))" } ?? ""
        return "\(place): \(message)\(suffix)"
    }

    /// The error for the command line, compiler style: `FILE:LINE:COLUMN: path: message`.
    /// The path is left out when the error concerns the whole file.
    public func formatted(file: String) -> String {
        let place = path.isEmpty ? "" : "\(path): "
        if let location { return "\(file):\(location.line):\(location.column): \(place)\(message)" }
        return "\(file): \(place)\(message)"
    }
}
