import Foundation
import _FoundationICU

/// CLDR's plural rules for a language, from the ICU that Foundation itself formats with: "one",
/// "few", "many"… for a count, as the catalogs name their forms. (Foundation's own plural
/// strings, `.stringsdict`, crash swift-corelibs-foundation's Bundle on Linux.)
final class PluralRules: @unchecked Sendable {
    // ICU's rules are immutable once opened: `select` may run on several threads at once.
    private let rules: OpaquePointer?

    init(locale: String) {
        var status = U_ZERO_ERROR
        let opened = swift_uplrules_open(locale, &status)
        rules = status.rawValue <= U_ZERO_ERROR.rawValue ? opened : nil
    }

    deinit { if let rules { swift_uplrules_close(rules) } }

    /// The category of `count`: "zero", "one", "two", "few", "many" or "other".
    func category(_ count: Int) -> String {
        guard let rules else { return "other" }
        var status = U_ZERO_ERROR
        var buffer = [UChar](repeating: 0, count: 16)
        let length = swift_uplrules_select(rules, Double(count), &buffer, Int32(buffer.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return "other" }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }

    /// Every category the language has: the forms its catalog must give for a plural phrase.
    var categories: Set<String> {
        guard let rules else { return ["other"] }
        var status = U_ZERO_ERROR
        guard let keywords = swift_uplrules_getKeywords(rules, &status), status.rawValue <= U_ZERO_ERROR.rawValue else { return ["other"] }
        defer { swift_uenum_close(keywords) }
        var found: Set<String> = []
        while let next = swift_uenum_next(keywords, nil, &status) { found.insert(String(cString: next)) }
        return found
    }
}
