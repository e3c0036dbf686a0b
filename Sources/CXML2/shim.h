// libxml2's ICU support clashes with Foundation's bundled ICU module: switch it off
// before the other headers see it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

/// `xmlFree` is a global function pointer that Swift 6 rejects as not concurrency-safe.
static inline void cxml_free(void *p) { xmlFree(p); }
