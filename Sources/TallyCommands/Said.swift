import Foundation
import TallyCore
import TallyLanguages

// The command line speaks the terminal's language: `Tally.main` sets `Written.current` from
// LC_ALL, LC_MESSAGES or LANG for the whole run (English for C, POSIX or none). `--json` stays
// English and ISO: only the text a person reads goes through here.

/// The phrase in the terminal's language: `t("Deleted \(what).")`.
package func t(_ phrase: Phrase) -> String { Said.inEnglish ? phrase.description : Written.current.say(phrase) }

/// The phrase's form for its count: `t(one: "\(n) day", other: "\(n) days")`.
package func t(one: Phrase, other: Phrase) -> String { t(Phrase(one: one, other: other)) }

/// Values in the terminal's locale. In English each is written exactly as the command line
/// always wrote it (scripts and the CLI tests read it); in another language, as `Written` writes it.
package enum Said {
    /// How the terminal writes (LC_ALL, else LC_MESSAGES, else LANG), or nil when it is English.
    /// An English `Written` reads no catalog.
    package static let terminal: Written? = {
        let environment = ProcessInfo.processInfo.environment
        return Written.language(environment: environment) == nil ? nil : Written(environment: environment)
    }()

    /// Whether the text is English: a terminal in English, or a command that chose it.
    package static var inEnglish: Bool { terminal == nil || Written.current.language == .english }

    /// Phrases one per line, each in the terminal's language.
    package static func lines(_ phrases: [Phrase]) -> String {
        phrases.map { t($0) }.joined(separator: "\n")
    }

    /// "250 ml", "8 oz": whole units, in the locale's digits.
    package static func volume(_ ml: Double, _ unit: VolumeUnit) -> String {
        guard !inEnglish else { return unit.format(ml) }
        return Written.current.volume(unit.toMilliliters(unit.fromMilliliters(ml).rounded()), unit)
    }

    /// "2026-12-01" in English (as it is typed back), else the locale's long date ("1. Dezember 2026").
    package static func day(_ date: LocalDate) -> String {
        inEnglish ? date.description : Written.current.longDay(date)
    }

    /// "07:00" in English, else the locale's time of day.
    package static func time(_ time: TimeOfDay) -> String {
        inEnglish ? time.description : Written.current.time(of: time)
    }

    /// An ISO 8601 instant in English, else the locale's date and time on this machine's clock.
    package static func moment(_ instant: Date) -> String {
        inEnglish ? instant.formatted(.iso8601) : Written.current.moment(instant, in: .current)
    }

    /// "Alex", "Alex and Sam", "Kim, Alex and Sam".
    package static func list(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return t("\(items.dropLast().joined(separator: ", ")) and \(last)")
    }
}
