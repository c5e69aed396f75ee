import Foundation
import TallyCore
import TallyImport
import TallyLanguages
import TallyRepositories
import TallyServices

/// The spending screen before a ledger is chosen: your ledgers, a new one, or one to join (S1).
struct SpendingStartPage {
    var ledgers: [LedgerDetails]
    /// An invite code from a link (/join/CODE), filled in for the person to confirm.
    var code: String?
    /// For a link: the ledger its code opens (nil inside when no ledger has it).
    var invitation: LedgerDetails??

    /// Your balance in each ledger (positive: the others owe you); none known, none shown.
    var standings: [UUID: Money]

    init(ledgers: [LedgerDetails], standings: [UUID: Money] = [:], code: String? = nil, invitation: LedgerDetails?? = nil) {
        self.ledgers = ledgers
        self.standings = standings
        self.code = code
        self.invitation = invitation
    }

    /// The members a new ledger starts with: you, then the others as typed (comma-separated);
    /// the placeholders for names left empty (`LedgerRules.defaultMemberNames`, in the reader's
    /// language), and at least one other person.
    static func memberNames(you: String, others: String) -> [String] {
        let yours = you.trimmingCharacters(in: .whitespacesAndNewlines)
        let theirs = others.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return [yours.isEmpty ? t("Person 1") : yours] + (theirs.isEmpty ? [t("Person 2")] : theirs)
    }

    /// A new ledger's currency: every ISO 4217 code people use, named in the reader's language,
    /// the reader's own first (their locale's, else the euro). A choice, never a typo.
    private static var currencySelect: HTML {
        let written = Written.current
        let own = written.locale.currency?.identifier ?? "EUR"
        let all = written.currencies
        let first = all.filter { $0.code == own }
        let options = (first + all.filter { $0.code != own }).map { currency -> HTML in
            "<option value=\"\(currency.code)\"\(HTML.flag("selected", currency.code == own))>\(currency.code) · \(currency.name)</option>"
        }
        return "<select id=\"currency\" name=\"currency\" required>\(options)</select>"
    }

    /// The class a standing is drawn with: owed, owes or settled.
    static func state(_ balance: Money) -> String {
        balance.minorUnits > 0 ? "owed" : balance.minorUnits < 0 ? "owes" : "settled"
    }

    /// "You are owed €12.00", "You owe $25.33", "Settled up".
    static func standing(_ balance: Money) -> String {
        balance.minorUnits > 0 ? t("You are owed \(Layout.money(balance))")
            : balance.minorUnits < 0 ? t("You owe \(Layout.money(Money(minorUnits: -balance.minorUnits, currency: balance.currency)))")
            : t("Settled up")
    }

    func render(_ context: PageContext, error: String? = nil) -> HTML {
        Layout.page(t("Spending"), context, spending: true, error: error, """
        <h1>\(t("Spending"))</h1>
        \(list)
        <section aria-labelledby="join-title">
        <h2 id="join-title">\(t("Join a ledger"))</h2>
        \(invited)
        \(joinForm(context))
        </section>
        <section aria-labelledby="create-title">
        <h2 id="create-title">\(t("New ledger"))</h2>
        <form method="post" action="\(SitePath.spending.link)" class="stack">
        \(Layout.csrfField(context))
        <label for="name">\(t("Name"))</label>
        <input id="name" name="name" required maxlength="100" placeholder="\(t("Home"))">
        <label for="currency">\(t("Currency"))</label>
        \(Self.currencySelect)
        <label for="you">\(t("Your name in it"))</label>
        <input id="you" name="you" maxlength="\(LedgerRules.memberNameLength.upperBound)" autocomplete="given-name" placeholder="\(t("Person 1"))"\
         value="\(context.user?.name ?? "")">
        <label for="others">\(HTML.sentence("Who shares it with you {0}", HTML("<span class=\"help\">\(t("(names, separated by commas)"))</span>")))</label>
        <input id="others" name="others" maxlength="500" autocomplete="off" placeholder="\(t("Person 2"))" aria-describedby="others-help">
        <p class="help" id="others-help">\(t("Then send them the ledger's invite link: each joins as themselves. Members can be added or renamed later in its settings."))</p>
        <button type="submit"\(HTML.flag(" class=\"primary\"", code == nil))>\(t("Create ledger"))</button>
        </form>
        </section>
        <section aria-labelledby="import-title">
        <h2 id="import-title">\(t("Import from IHateMoney or Splitwise"))</h2>
        \(Self.importForm(context, into: nil))
        </section>
        """)
    }

    /// IHateMoney's bills export or Splitwise's, pasted or (with JavaScript) picked as a file
    /// (S6): one form, the app chosen in it; a new ledger is named after the app unless named.
    static func importForm(_ context: PageContext, into ledger: UUID?) -> HTML {
        let target: HTML = ledger.map { "<input type=\"hidden\" name=\"ledger\" value=\"\($0)\">" } ?? """
            <label for="import-name">\(HTML.sentence("New ledger's name {0}", HTML("<span class=\"help\">\(t("(the app's if empty)"))</span>")))</label>
            <input id="import-name" name="name" maxlength="100">
            <label for="import-currency">\(HTML.sentence("Currency {0}", HTML("<span class=\"help\">\(t("(if empty, the export's)"))</span>")))</label>
            <input id="import-currency" name="currency" maxlength="3" autocapitalize="characters">
            """
        let apps = OtherAppExport.App.allCases.map { app -> HTML in
            let name = switch app {
            case .ihatemoney: t("IHateMoney")
            case .splitwise: t("Splitwise")
            }
            return "<option value=\"\(app.rawValue)\">\(name)</option>"
        }
        return """
        <form method="post" action="\(SitePath.importLedger.link)" class="stack import">
        \(Layout.csrfField(context))
        <label for="import-app">\(t("Exported from"))</label>
        <select id="import-app" name="app">\(apps)</select>
        \(target)
        <label for="import-rates">\(HTML.sentence("Rates {0}", HTML("<span class=\"help\">\(t("(for entries in other currencies, such as USD=0.92, GBP=1.17)"))</span>")))</label>
        <input id="import-rates" name="rates" maxlength="500" autocomplete="off" spellcheck="false" autocapitalize="characters">
        <label for="import-file" hidden>\(t("Export file (IHateMoney's bills.json or bills.csv, Splitwise's CSV)"))</label>
        <input id="import-file" type="file" accept=".json,.csv,application/json,text/csv" hidden data-fills="import-export">
        <label for="import-export">\(HTML.sentence("Export contents {0}", HTML("<span class=\"help\">\(t("(paste the file's text)"))</span>")))</label>
        <textarea id="import-export" name="export" rows="4" required spellcheck="false"></textarea>
        <p class="help">\(t("Members are matched or added by name; IHateMoney's Reimbursements and Splitwise's payments become payments. Importing the same export again adds nothing twice."))</p>
        <button type="submit">\(t("Import"))</button>
        </form>
        """
    }

    /// What the link's code opens, in a sentence, before the person joins.
    private var invited: HTML {
        guard let invitation else { return "" }
        guard let details = invitation else {
            return "<p class=\"help\" id=\"invitation\">\(t("This invite is not valid any more; ask for a new one."))</p>"
        }
        let names = details.members.map(\.name).joined(separator: ", ")
        let sentence = HTML.sentence("You are invited to {0} ({1}), kept by {2}.", "<strong>\(details.ledger.name)</strong>",
                                     "\(details.ledger.currency.code)", "\(names)")
        return "<p id=\"invitation\">\(sentence)</p>"
    }

    /// For a valid invite, who the person will be: a member nobody has joined as, or someone
    /// new (S1); otherwise the code to type.
    private func joinForm(_ context: PageContext) -> HTML {
        guard case let details?? = invitation, let code else {
            return """
            <form method="post" action="\(SitePath.joinLedger.link)" class="stack">
            \(Layout.csrfField(context))
            <label for="code">\(t("Invite code or link"))</label>
            <input id="code" name="code" required autocomplete="off" autocapitalize="characters" value="\(code ?? "")" placeholder="ABCD-EFGH-JKMN">
            <button type="submit"\(HTML.flag(" class=\"primary\"", code != nil))>\(t("Join"))</button>
            </form>
            """
        }
        if ledgers.contains(where: { $0.ledger.id == details.ledger.id }) {
            let open: HTML = "<a href=\"\(SitePath.ledger.link(details.ledger.id))\">\(t("open \(details.ledger.name)"))</a>"
            return "<p>\(HTML.sentence("You are already a member: {0}.", open))</p>"
        }
        let free = details.members.filter { $0.userID == nil }
        // Nothing to weigh up with one choice: it is ticked.
        let options = free.map { member -> HTML in
            """
            <li><input type="radio" name="member" id="join-as-\(member.id)" value="\(member.id)" required\(HTML.flag("checked", free.count == 1))>\
            <label for="join-as-\(member.id)">\(member.name)</label></li>
            """
        }
        return """
        <form method="post" action="\(SitePath.joinLedger.link)" class="stack">
        \(Layout.csrfField(context))
        <input type="hidden" name="code" value="\(InviteCode.normalize(code))">
        <fieldset><legend>\(t("Who are you in \(details.ledger.name)?"))</legend>
        <ul class="among join-as">\(options)
        <li><input type="radio" name="member" id="join-as-new" value="new" required\(HTML.flag("checked", free.isEmpty))>\
        <label for="join-as-new">\(t("Someone new"))</label></li>
        </ul>
        </fieldset>
        <label for="join-name">\(t("Your name, if you are someone new"))</label>
        <input id="join-name" name="name" maxlength="\(LedgerRules.memberNameLength.upperBound)" autocomplete="off">
        <button type="submit" class="primary">\(t("Join"))</button>
        </form>
        """
    }

    private var list: HTML {
        guard !ledgers.isEmpty else {
            return "<p class=\"empty\">\(t("No ledgers yet. Create one to split costs with someone, or join theirs with the code they send you."))</p>"
        }
        let items = ledgers.map { details -> HTML in
            let names = details.members.map(\.name).joined(separator: ", ")
            let standing = standings[details.ledger.id]
            return """
            <li><a href="\(SitePath.ledger.link(details.ledger.id))">\(details.ledger.name)</a> \
            \(standing.map { HTML("<strong class=\"standing \(Self.state($0))\">\(Self.standing($0))</strong>") } ?? "")
            <span class="help">\(names)</span></li>
            """
        }
        // A total per currency: amounts in two currencies are never added up.
        let totals = Dictionary(grouping: standings.values, by: \.currency.code).sorted { $0.key < $1.key }.map { _, balances -> HTML in
            let total = Money(minorUnits: balances.reduce(0) { $0 + $1.minorUnits }, currency: balances[0].currency)
            return "<li>\(Self.standing(total))</li>"
        }
        let overall: HTML = ledgers.count > 1 && !totals.isEmpty
            ? "<h3 id=\"totals-title\">\(t("In all"))</h3><ul class=\"totals\" aria-labelledby=\"totals-title\">\(totals)</ul>" : ""
        return """
        <section aria-labelledby="ledgers-title">
        <h2 id="ledgers-title">\(t("Your ledgers"))</h2>
        <ul class="ledgers">\(items)</ul>
        \(overall)
        </section>
        """
    }
}
