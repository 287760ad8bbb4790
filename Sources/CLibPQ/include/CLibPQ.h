// CLibPQ: libpq, PostgreSQL's C client library (Debian libpq-dev), for Swift.
//
// Swift calls libpq's functions directly. What it cannot import are the PG_DIAG_* field codes:
// they are character-literal macros ('C'), and Swift imports only integer and string literal
// macros. Each CLibPQ_DIAG_* constant below is one of them as an `extern const`; they can go
// when Swift imports character literal macros. Only the PostgresStore module imports this module.
#ifndef CLIBPQ_H
#define CLIBPQ_H

#include <postgresql/libpq-fe.h>

/// Why: `PG_DIAG_SQLSTATE` is a character literal macro. The five-character SQLSTATE of an error
/// the server reported (absent when libpq made the error itself: a lost connection, say).
extern const int CLibPQ_DIAG_SQLSTATE;

/// Why: `PG_DIAG_MESSAGE_PRIMARY` is a character literal macro. The error's one-line message,
/// without the "ERROR:" prefix and the DETAIL and HINT lines of `PQresultErrorMessage`.
extern const int CLibPQ_DIAG_MESSAGE_PRIMARY;

/// Why: `PG_DIAG_MESSAGE_DETAIL` is a character literal macro. The error's second line, when
/// there is one (for a unique violation, the key and value that already exist).
extern const int CLibPQ_DIAG_MESSAGE_DETAIL;

#endif
