// ICU (libicu-dev, through pkg-config's icu-uc) for DragDropGTK's word selection (L4). Nothing
// of ICU is declared here: Foundation brings its own copy of ICU's headers, whose types clash
// with the system's in one Swift module. CDragDropGTKSupport's WordBreak.c calls ICU from C.
#include <stdint.h>
