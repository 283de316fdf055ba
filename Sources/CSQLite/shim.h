#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro over a cast Swift cannot import: it tells sqlite3_bind_* to
// copy the bytes before the call returns.
static inline sqlite3_destructor_type glimt_sqlite_transient(void) { return SQLITE_TRANSIENT; }
