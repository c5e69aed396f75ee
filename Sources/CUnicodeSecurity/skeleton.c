// The confusable skeleton of UTS #39 from ICU's spoof checker (Debian's libicu): the same
// confusables data the browsers use, kept up to date by the system's Unicode library.
//
// ICU is opened on first use, not linked: its libraries cost every start of a process about
// 1.4 ms, and most `tally` commands never compare two names. Its headers give the library's
// version and the versioned names of its functions (uspoof_open_72), which only C sees.
#include "CUnicodeSecurity.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unicode/uspoof.h>

#define TALLY_STRING(x) #x
#define TALLY_EXPANDED(x) TALLY_STRING(x)

static USpoofChecker *checker;
static int32_t (*skeleton_of)(const USpoofChecker *, uint32_t, const UChar *, int32_t, UChar *, int32_t, UErrorCode *);
static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void open_checker(void) {
    void *library = dlopen("libicui18n.so." TALLY_EXPANDED(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    USpoofChecker *(*open)(UErrorCode *) = (USpoofChecker *(*)(UErrorCode *))dlsym(library, TALLY_EXPANDED(uspoof_open));
    skeleton_of = (int32_t (*)(const USpoofChecker *, uint32_t, const UChar *, int32_t, UChar *, int32_t, UErrorCode *))
        dlsym(library, TALLY_EXPANDED(uspoof_getSkeleton));
    if (open == NULL || skeleton_of == NULL) return;
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *made = open(&status);
    checker = U_SUCCESS(status) ? made : NULL;
}

int32_t tally_confusable_skeleton(const uint16_t *text, int32_t length, uint16_t *skeleton, int32_t capacity) {
    pthread_once(&opened, open_checker);
    if (checker == NULL) return -1;
    // A checker that is not reconfigured may be used by several threads at once (ICU's docs).
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = skeleton_of(checker, 0, (const UChar *)text, length, (UChar *)skeleton, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(status) ? written : -1;
}
