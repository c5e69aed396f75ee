import Foundation
import TallyCore
import TallyLanguages

/// Settings → Language: the languages Tally speaks, each in its own name, or the browser's.
/// The choice is kept with the account, so every device of the person shows it.
struct LanguageSection {
    /// The person's choice; nil for their browser's language.
    var chosen: Language?

    func render(_ context: PageContext) -> HTML {
        let options = [option(value: "", label: HTML("\(t("Your browser's language"))"), checked: chosen == nil)]
            + Language.all.map { language in
                option(value: language.tag, label: HTML("<span lang=\"\(language.tag)\" dir=\"\(language.direction)\">\(language.name)</span>"),
                       checked: chosen == language)
            }
        return """
        <section id="\(SettingsSection.language.rawValue)" aria-labelledby="language-title">
        <h1 id="language-title">\(t("Language"))</h1>
        <form method="post" action="\(SitePath.language.link)" class="stack">
        \(Layout.csrfField(context))
        <fieldset class="choices"><legend>\(t("The language of Tally's pages, on all your devices"))</legend>
        \(options)
        </fieldset>
        <button type="submit" class="primary">\(t("Save language"))</button>
        </form>
        </section>
        """
    }

    private func option(value: String, label: HTML, checked: Bool) -> HTML {
        let id = "language-" + (value.isEmpty ? "browser" : value)
        return """
        <p><input type="radio" name="language" id="\(id)" value="\(value)"\(HTML.flag("checked", checked))> <label for="\(id)">\(label)</label></p>
        """
    }

    /// What the form chose: a language Tally speaks, or nil for the browser's.
    static func chosen(_ value: String?) throws -> Language? {
        guard let value, !value.isEmpty else { return nil }
        guard let language = Language.all.first(where: { $0.tag == value }) else {
            throw TallyError.invalid("Tally does not speak \(value): choose one of the languages listed.", field: "language")
        }
        return language
    }

    /// The settings index's summary: the chosen language in its own name, or the browser's.
    static func summary(_ chosen: Language?) -> String {
        chosen?.name ?? t("Your browser's language")
    }
}
