import HTTPServer

extension HTTPError {
    /// 422 `VALIDATION_FAILED`: the body is JSON but not a valid item; `errors` has one entry
    /// per failing field.
    public static func validationFailed(_ errors: [FieldError]) -> HTTPError {
        HTTPError(
            status: 422, code: "VALIDATION_FAILED", detail: "The item is not valid; each entry of errors names a field and why.",
            errors: errors)
    }
}
