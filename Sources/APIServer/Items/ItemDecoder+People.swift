import Domain
import Storage

extension ItemDecoder {
    static func person(
        _ document: JSONValue, _ mode: Mode, _ reader: inout FieldReader, _ references: inout [Reference]
    ) -> StoredItem? {
        guard
            let fields = reader.object(
                document, at: "",
                fields: ["id", "givenName", "familyName", "emailAddress", "phoneNumber", "departmentID"],
                readOnly: ["fullName", "department", "links"])
        else { return nil }
        checkID(fields["id"], mode, &reader)
        let givenName = reader.text(fields["givenName"], at: "/givenName", ValidationLimits.personName)
        let familyName = reader.text(fields["familyName"], at: "/familyName", ValidationLimits.personName)
        var email = reader.text(fields["emailAddress"], at: "/emailAddress", ValidationLimits.emailAddress)
        if !email.isEmpty, let problem = emailProblem(email) {
            reader.fail("/emailAddress", problem)
            email = ""
        }
        var phone = reader.text(fields["phoneNumber"], at: "/phoneNumber", ValidationLimits.phoneNumber)
        if !phone.isEmpty, let problem = phoneProblem(phone) {
            reader.fail("/phoneNumber", problem)
            phone = ""
        }
        var departmentID = EntityID(kind: .department, timestampMilliseconds: 0, randomBits: 0)
        if let raw = reader.string(fields["departmentID"], at: "/departmentID", required: true) {
            if let id = EntityID(parsing: raw, kind: .department) {
                departmentID = id
                references.append(Reference(pointer: "/departmentID", collection: .departments, id: id))
            } else {
                reader.fail("/departmentID", "Must be a department id (dep_ and 16 characters).")
            }
        }
        return .person(
            Person(
                id: mode.id, givenName: givenName, familyName: familyName, emailAddress: email, phoneNumber: phone,
                departmentID: departmentID))
    }

    /// Deliberately loose (addresses are checked by sending mail, not by patterns): one `@`
    /// with text on both sides, no whitespace.
    static func emailProblem(_ address: String) -> String? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "Must contain exactly one @." }
        guard !parts[0].isEmpty, !parts[1].isEmpty else { return "Needs text before and after the @." }
        guard !address.contains(where: \.isWhitespace) else { return "Must not contain whitespace." }
        return nil
    }

    /// Kept as entered (the directory shows it verbatim), so only the characters are checked.
    static func phoneProblem(_ number: String) -> String? {
        var hasDigit = false
        for scalar in number.unicodeScalars {
            switch scalar {
            case "0"..."9": hasDigit = true
            case " ", "(", ")", "+", "-", ".": continue
            default: return "May contain only digits, spaces and ( ) + - ."
            }
        }
        return hasDigit ? nil : "Must contain at least one digit."
    }
}
