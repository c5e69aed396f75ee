import Foundation
import Hummingbird
import TallyCore
import TallyLanguages

/// Every address of the web app, written once: the route is registered under its pattern, and
/// pages link and redirect to it through the same value, with typed values for its parameters.
enum SitePath {
    /// An address pattern as the router writes it ("spending/:ledger/settings"); `Values` is the
    /// type of its parameters, in order, which a link to it fills in.
    struct Pattern<Values>: Sendable {
        let template: String

        init(_ template: String) { self.template = template }

        var routerPath: RouterPath { RouterPath(template) }

        /// The address with `values` in place of the parameters, in order: "/spending/ID/settings".
        fileprivate func filled(_ values: [String]) -> String {
            var values = values[...]
            let parts = template.split(separator: "/").map { part in
                part.hasPrefix(":") ? values.popFirst() ?? "" : String(part)
            }
            return "/" + parts.joined(separator: "/")
        }

        /// Whether `path` is an address of this pattern.
        func matches(_ path: String) -> Bool {
            let pattern = template.split(separator: "/"), parts = path.split(separator: "/")
            return pattern.count == parts.count && zip(pattern, parts).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
        }
    }

    // MARK: - The installable app (A3)

    static let manifest = Pattern<Void>("manifest.webmanifest")
    /// Served from the root, so that the worker may look after every page.
    static let serviceWorker = Pattern<Void>("sw.js")

    // MARK: - Hydration

    static let today = Pattern<Void>("/")
    static let day = Pattern<LocalDate>("day/:date")
    static let drinks = Pattern<Void>("drinks")
    static let removals = Pattern<Void>("removals")
    static let entries = Pattern<Void>("entries")
    static let deleteEntry = Pattern<UUID>("entries/:id/delete")
    static let editEntry = Pattern<UUID>("entries/:id/edit")
    static let history = Pattern<Void>("history")
    static let bottle = Pattern<Void>("bottle")
    static let bottleSip = Pattern<Void>("bottle/sip")
    static let bottleLevel = Pattern<Void>("bottle/level")
    static let bottleSettings = Pattern<Void>("bottle/settings")
    /// A quick-add button by its place (1–4), as the manifest's home-screen shortcuts open it.
    static let quickAdd = Pattern<Int>("quick/:button")

    // MARK: - Settings

    static let settings = Pattern<Void>("settings")
    /// A section of the settings on its own page (`/settings/goal`); its forms post to the paths below.
    static let settingsSection = Pattern<SettingsSection>("settings/:section")
    static let profile = Pattern<Void>("settings/profile")
    static let goal = Pattern<Void>("settings/goal")
    static let general = Pattern<Void>("settings/general")
    static let language = Pattern<Void>("settings/language")
    static let presets = Pattern<Void>("settings/presets")
    static let kinds = Pattern<Void>("settings/kinds")
    static let kind = Pattern<UUID>("settings/kinds/:id")
    static let factors = Pattern<Void>("settings/factors")
    static let reminders = Pattern<Void>("settings/reminders")
    static let calendar = Pattern<Void>("settings/calendar")
    static let appleHealth = Pattern<Void>("settings/apple-health")
    static let forgetDeletedImports = Pattern<Void>("settings/apple-health/forget-deleted")
    static let drinksCSV = Pattern<Void>("settings/drinks.csv")
    static let importCSV = Pattern<Void>("settings/import-csv")
    static let backupJSON = Pattern<Void>("settings/backup.json")
    static let restoreBackup = Pattern<Void>("settings/restore")

    // MARK: - Signing in

    static let signIn = Pattern<Void>("signin")
    static let signUp = Pattern<Void>("signup")
    /// Signing in through the household's OpenID provider: the way there, and its answer.
    static let providerSignIn = Pattern<Void>("signin/oidc")
    static let providerAnswer = Pattern<Void>("signin/oidc/callback")
    static let signOut = Pattern<Void>("signout")
    static let onboarding = Pattern<Void>("onboarding")

    // MARK: - Your account, and the admin's page

    static let account = Pattern<Void>("account")
    static let changePassword = Pattern<Void>("account/password")
    static let linkProvider = Pattern<Void>("account/oidc")
    static let unlinkProvider = Pattern<Void>("account/oidc/unlink")
    static let signOutElsewhere = Pattern<Void>("account/sessions")
    static let tokens = Pattern<Void>("account/tokens")
    static let revokeToken = Pattern<UUID>("account/tokens/:id/revoke")
    static let revokeAllTokens = Pattern<Void>("account/tokens/revoke-all")
    static let admin = Pattern<Void>("admin")
    static let signUpMode = Pattern<Void>("admin/signup")
    static let invites = Pattern<Void>("admin/invites")
    static let deleteInvite = Pattern<String>("admin/invites/:id/delete")
    static let disableAccount = Pattern<String>("admin/accounts/:name/disable")
    static let enableAccount = Pattern<String>("admin/accounts/:name/enable")
    static let resetPassword = Pattern<String>("admin/accounts/:name/password")
    static let clearSignInLock = Pattern<String>("admin/accounts/:name/unlock")

    // MARK: - Spending

    static let spending = Pattern<Void>("spending")
    static let joinLedger = Pattern<Void>("spending/join")
    static let importLedger = Pattern<Void>("spending/import")
    /// An invite link: the code, as typed or sent.
    static let invitation = Pattern<String>("join/:code")
    static let ledger = Pattern<UUID>("spending/:ledger")
    static let expenses = Pattern<UUID>("spending/:ledger/expenses")
    static let payments = Pattern<UUID>("spending/:ledger/payments")
    static let editLedgerEntry = Pattern<(UUID, UUID)>("spending/:ledger/entries/:id/edit")
    static let deleteLedgerEntry = Pattern<(UUID, UUID)>("spending/:ledger/entries/:id/delete")
    static let restoreLedgerEntry = Pattern<(UUID, UUID)>("spending/:ledger/entries/:id/restore")
    /// An entry's receipt: the file (`?size=thumbnail` its small copy), and the form that attaches one.
    static let entryReceipt = Pattern<(UUID, UUID)>("spending/:ledger/entries/:id/receipt")
    static let removeEntryReceipt = Pattern<(UUID, UUID)>("spending/:ledger/entries/:id/receipt/remove")
    static let recurringExpenses = Pattern<UUID>("spending/:ledger/recurring")
    static let recurringExpense = Pattern<(UUID, UUID)>("spending/:ledger/recurring/:id")
    static let ledgerSettings = Pattern<UUID>("spending/:ledger/settings")
    static let ledgerActivity = Pattern<UUID>("spending/:ledger/activity")
    static let members = Pattern<UUID>("spending/:ledger/members")
    static let member = Pattern<(UUID, MemberID)>("spending/:ledger/members/:member")
    static let owner = Pattern<UUID>("spending/:ledger/owner")
    static let invite = Pattern<UUID>("spending/:ledger/invite")
    static let ledgerNotifications = Pattern<UUID>("spending/:ledger/notifications")
    static let exportCSV = Pattern<UUID>("spending/:ledger/export.csv")
    static let exportJSON = Pattern<UUID>("spending/:ledger/export.json")
}

extension SitePath {
    /// `text` as one part of an address or a query's value: every character but ASCII letters,
    /// digits and "-._~" percent-encoded (an invite code typed with stray characters, a drink
    /// kind's name in any script).
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension SitePath.Pattern where Values == Void {
    /// The address, which has no parameters.
    var link: String { filled([]) }
}

extension SitePath.Pattern where Values: CustomStringConvertible {
    /// The address with `value` for its parameter, as it is (a value that needs it is encoded
    /// by the caller).
    func link(_ value: Values) -> String { filled([value.description]) }
}

extension SitePath.Pattern {
    func link<A: CustomStringConvertible, B: CustomStringConvertible>(_ a: A, _ b: B) -> String where Values == (A, B) {
        filled([a.description, b.description])
    }
}

extension RouterMethods {
    /// Registers `handler` for GET at `path`'s pattern.
    @discardableResult
    func get<Values>(_ path: SitePath.Pattern<Values>, use handler: @Sendable @escaping (Request, Context) async throws -> Response) -> Self {
        get(path.routerPath, use: handler)
    }

    /// Registers `handler` for GET at each address of `path` whose one parameter takes a fixed set
    /// of values (`settings/:section`): one route per value, since a form's POST may have the same
    /// address, and the router matches an address before a pattern. The handler is given the value.
    @discardableResult
    func get<Value: CaseIterable & CustomStringConvertible & Sendable>(
        _ path: SitePath.Pattern<Value>, use handler: @Sendable @escaping (Request, Context, Value) async throws -> Response) -> Self {
        for value in Value.allCases {
            get(RouterPath(path.link(value)), use: { request, context in try await handler(request, context, value) })
        }
        return self
    }

    /// Registers `handler` for POST at `path`'s pattern.
    @discardableResult
    func post<Values>(_ path: SitePath.Pattern<Values>, use handler: @Sendable @escaping (Request, Context) async throws -> Response) -> Self {
        post(path.routerPath, use: handler)
    }
}
