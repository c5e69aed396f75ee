import TallyCore
import Testing

/// The user name a first sign-in through an OpenID provider takes, from what the provider
/// offers: always one a sign-up would take, and never the name of someone else.
@Suite("Names from a provider")
struct ProviderNameTests {
    @Test("The provider's user name first, written as user names are; then the person's name, the e-mail's local part")
    func order() throws {
        let names = AccountRules.providerNames(from: ["ada.lovelace", "Ada Lovelace", "ada"])
        #expect(Array(names.prefix(4)) == ["ada.lovelace", "Ada-Lovelace", "ada", "ada.lovelace-2"])
        for name in names { #expect(try AccountRules.validateName(name) == name) }
    }

    @Test("Accents, other scripts, hostile characters and lengths become a name sign-up takes",
          arguments: [
              ("José Müller", "Jose-Muller"),
              ("Ἀλέξανδρος", "Alexandros"),
              ("\u{202E}evil\u{202C}\u{0000}", "evil"),
              ("a\u{0301}\u{0301}\u{0301}b", "user"),
              (String(repeating: "x", count: 80), String(repeating: "x", count: 32)),
              ("  -.-  ", "user"),
          ])
    func written(_ offered: String, _ first: String) throws {
        let names = AccountRules.providerNames(from: [offered])
        #expect(names.first == first, "\(names.prefix(3))")
        #expect(names.count >= 99)
        for name in names { #expect(try AccountRules.validateName(name) == name, "\(name)") }
    }
}
