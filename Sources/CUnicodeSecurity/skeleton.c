// The confusable skeleton of UTS #39 from ICU's spoof checker (Debian's libicu): the same
// confusables data the browsers use, kept up to date by the system's Unicode library. A C file,
// because ICU renames its functions per version (uspoof_open_72) with macros only C sees.
#include "CUnicodeSecurity.h"

#include <pthread.h>
#include <unicode/uspoof.h>

static USpoofChecker *checker;
static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void open_checker(void) {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *made = uspoof_open(&status);
    checker = U_SUCCESS(status) ? made : NULL;
}

int32_t tally_confusable_skeleton(const uint16_t *text, int32_t length, uint16_t *skeleton, int32_t capacity) {
    pthread_once(&opened, open_checker);
    if (checker == NULL) return -1;
    // A checker that is not reconfigured may be used by several threads at once (ICU's docs).
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = uspoof_getSkeleton(checker, 0, (const UChar *)text, length, (UChar *)skeleton, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(status) ? written : -1;
}
