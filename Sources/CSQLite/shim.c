#include <sqlite3.h>

#include "CSQLite.h"

static int memory_statistics_off_result = -1;

// SQLite's memory statistics (on in Debian's build) make every SQLite allocation take one
// process-wide mutex. A page read allocates ~90 times (cursors, text buffers), and with two request
// threads reading pages that mutex was contended: about one futex call a request, with its context
// switches (perf, issue #16). sqlite3_config works only before SQLite initializes, which the first
// connection opened does, so it runs here, as the process loads, before anything can open one.
// Nothing in rowserver reads the statistics or sets a heap limit (which needs them).
__attribute__((constructor)) static void CSQLite_turn_memory_statistics_off(void) {
    memory_statistics_off_result = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int CSQLite_memory_statistics_off_result(void) {
    return memory_statistics_off_result;
}
