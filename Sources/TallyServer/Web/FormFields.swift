import Foundation
import Hummingbird
import TallyCore

/// The fields of a submitted HTML form (application/x-www-form-urlencoded).
struct FormFields {
    private var values: [String: String] = [:]

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
        let body = try await request.body.collect(upTo: limit ?? context.maxUploadSize)
        return FormFields(String(buffer: body))
    }

    /// Every field as sent, to show a refused form again as it was typed.
    var all: [String: String] { values }

    subscript(_ name: String) -> String? {
        values[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    /// A required field, or an error that names it.
    func require(_ name: String, _ label: String) throws -> String {
        guard let value = self[name] else { throw TallyError.invalid("Fill in \(label).") }
        return value
    }

    func number(_ name: String, _ label: String) throws -> Double {
        let text = try require(name, label)
        guard let value = Double(text), value.isFinite else {
            throw TallyError.invalid("\(label.prefix(1).uppercased() + label.dropFirst()) must be a number; \"\(text)\" is not.")
        }
        return value
    }
}
