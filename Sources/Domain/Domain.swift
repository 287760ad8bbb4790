// Domain: pure models, the Named contract and row mapping. Foundation at most:
// no HTTP, no SQLite. Everything here is tested as data.
