// ICU's word break iterator for DragDropGTK (L4: a double click selects a word as a reader of
// the text's language expects, Japanese included, which has no spaces: ICU finds its words in a
// dictionary). Called from C: ICU's headers rename every function by version (ubrk_open is
// ubrk_open_72 here), and Foundation's own ICU headers clash with the system's in Swift.
#include <unicode/ubrk.h>

#include "CDragDropGTKSupport.h"

int32_t dd_icu_word_segment(
    const uint16_t *text, int32_t length, int32_t offset, const char *locale, int32_t *start, int32_t *end)
{
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_WORD, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status) || iterator == NULL) return -1;
    int32_t from = ubrk_preceding(iterator, offset + 1);
    if (from == UBRK_DONE) from = 0;
    int32_t to = ubrk_following(iterator, from);
    if (to == UBRK_DONE) to = length;
    int32_t rule = ubrk_getRuleStatus(iterator);
    ubrk_close(iterator);
    *start = from;
    *end = to;
    return rule;
}

int32_t dd_icu_word_none_limit(void) { return UBRK_WORD_NONE_LIMIT; }
