import Foundation
import TallyCore

/// Who paid, as big toggles: a radio button per member, for the quick entry, the edit page and
/// a recurring expense's form.
struct PayerToggles {
    var members: [LedgerMember]
    var chosen: MemberID?
    /// The user's own member, marked "(you)"; nil marks no one.
    var you: MemberID? = nil

    func render() -> HTML {
        let toggles = members.map { member -> HTML in
            """
            <input type="radio" name="payer" id="payer-\(member.id)" value="\(member.id)"\(HTML.flag("checked", member.id == chosen))>\
            <label for="payer-\(member.id)">\(member.name)\(member.id == you ? " (you)" : "")</label>
            """
        }
        return "<fieldset class=\"payers\"><legend>Paid by</legend><div class=\"toggles\">\(toggles)</div></fieldset>"
    }
}
