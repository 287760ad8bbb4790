import ServerTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// A suite that runs once, in the plain run, and skips itself when the suites run again for
    /// PostgreSQL (`ROWSERVER_TEST_STORE=postgres`, the second pass of `scripts/test.sh`); `why`
    /// says what it would not gain there. Every other suite is part of that pass, each of its
    /// live servers on a new PostgreSQL database (`TestStore`): one conformance suite for both
    /// stores. A condition rather than a tag: this toolchain's `swift test` does not select by tag.
    static func runsOnce(_ why: Comment) -> Self {
        .disabled(if: TestStore.postgresURL != nil, why)
    }
}
