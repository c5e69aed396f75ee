import Foundation
import Hummingbird
import TallyCore
import TallyLanguages

/// The fields of a submitted HTML form (application/x-www-form-urlencoded, or multipart/form-data
/// when it carries a small file such as a receipt's photo).
struct FormFields {
    private var values: [String: String] = [:]
    /// The files sent with a multipart form, by field; a file input left empty sends none.
    private(set) var files: [String: Data] = [:]

    init(fields: [String: String], files: [String: Data]) {
        values = fields
        self.files = files.filter { !$0.value.isEmpty }
    }

    init(_ body: String) {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            values[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
    }

    static func read(_ request: Request, _ context: some RequestContext, limit: Int? = nil) async throws -> FormFields {
        let body = try await request.collectBody(upTo: limit ?? context.maxUploadSize)
        if let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data") {
            return try FormFields(multipart: body, contentType: type)
        }
        return FormFields(String(buffer: body))
    }

    /// Every field as sent, to show a refused form again as it was typed.
    var all: [String: String] { values }

    subscript(_ name: String) -> String? {
        values[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    /// A required field, or an error that names it: `label` is what the field holds, as in
    /// "Fill in the amount." (`Phrase("the amount")`).
    func require(_ name: String, _ label: Phrase) throws -> String {
        guard let value = self[name] else { throw TallyError.invalid("Fill in \(label).") }
        return value
    }

    /// A field that holds a number, as the reader's locale writes it, in the plain digits and
    /// decimal point the parsers read: "1.234,50" typed on a German page is "1234.50", and a plain
    /// "12.50" stays as it is (`Written.plainNumber`).
    func numeral(_ name: String) -> String? {
        self[name].map(Written.current.plainNumber)
    }

    /// A required number field (`numeral`), or an error that names it.
    func requireNumeral(_ name: String, _ label: Phrase) throws -> String {
        Written.current.plainNumber(try require(name, label))
    }

    func number(_ name: String, _ label: Phrase) throws -> Double {
        let text = try requireNumeral(name, label)
        guard let value = Double(text), value.isFinite else {
            // The label, as the reader reads it, begins the sentence.
            let written = Written.current.say(label)
            throw TallyError.invalid("\(written.prefix(1).uppercased() + written.dropFirst()) must be a number; \"\(text)\" is not.")
        }
        return value
    }
}
