// Domain: pure models and row mapping for any collection definition. Foundation at most:
// no HTTP, no SQLite. Everything here is tested as data.
