// CSQLite: process-wide SQLite settings, which Swift cannot make: sqlite3_config is variadic, and
// Swift does not import variadic C functions. Only the Storage module imports this module. It can
// go when Swift imports variadic C functions or SQLite offers the settings another way.
#ifndef CSQLITE_H
#define CSQLITE_H

/// The result code of turning SQLite's memory statistics off, done before `main` (shim.c):
/// `SQLITE_OK` (0) when they are off for the whole process.
int CSQLite_memory_statistics_off_result(void);

#endif
