#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: sqlite copies the bytes before returning.
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int count) {
    return sqlite3_bind_text(statement, index, text, count, SQLITE_TRANSIENT);
}
