/// How `import` and `library` print what they did: lines for people, or one JSON document.
enum OutputFormat: String, ChoiceArgument {
    case text, json
}
