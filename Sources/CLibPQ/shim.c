#include "CLibPQ.h"

// The character literal macros of libpq-fe.h (by way of postgres_ext.h), as values Swift can read.
const int CLibPQ_DIAG_SQLSTATE = PG_DIAG_SQLSTATE;
const int CLibPQ_DIAG_MESSAGE_PRIMARY = PG_DIAG_MESSAGE_PRIMARY;
const int CLibPQ_DIAG_MESSAGE_DETAIL = PG_DIAG_MESSAGE_DETAIL;
