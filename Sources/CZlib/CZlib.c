// SwiftPM builds a C target only with a source file; everything CZlib adds is `static inline`
// in include/CZlib.h.
#include "CZlib.h"
