// The module is its header (an inline function); SwiftPM wants a C target to have a source file.
#include "CPrefetch.h"
