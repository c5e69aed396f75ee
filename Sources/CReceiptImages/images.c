// Receipt photos made safe with libvips (Debian's libvips42): decoded by the format's own
// loader (every other loader is blocked, so a file that claims to be a photo cannot reach
// ImageMagick, the SVG or PDF readers), turned upright, scaled down, converted to sRGB and
// written again with no metadata at all: no EXIF, no GPS position, no camera.
//
// libvips is opened on first use, not linked: with ImageMagick, poppler and a hundred other
// libraries behind it, linking it costs every start of `tally` about 30 ms, and only a server
// taking a receipt uses it. Its headers give the types; dlsym gives the functions.
#include "CReceiptImages.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

static struct {
    int (*init)(const char *);
    void (*cache_set_max)(int);
    void (*concurrency_set)(int);
    void (*block_set)(const char *, gboolean);
    VipsImage *(*new_from_buffer)(const void *, size_t, const char *, ...);
    int (*get_width)(const VipsImage *);
    int (*get_height)(const VipsImage *);
    int (*get_bands)(const VipsImage *);
    VipsBandFormat (*get_format)(const VipsImage *);
    guint64 (*format_sizeof)(VipsBandFormat);
    GType (*get_typeof)(const VipsImage *, const char *);
    int (*get_int)(VipsImage *, const char *, int *);
    int (*get_string)(const VipsImage *, const char *, const char **);
    gboolean (*hasalpha)(VipsImage *);
    VipsImage *(*copy_memory)(VipsImage *);
    int (*thumbnail_buffer)(void *, size_t, VipsImage **, int, ...);
    int (*flatten)(VipsImage *, VipsImage **, ...);
    VipsArrayDouble *(*array_double_newv)(int, ...);
    void (*area_unref)(VipsArea *);
    int (*jpegsave_buffer)(VipsImage *, void **, size_t *, ...);
    int (*pngsave_buffer)(VipsImage *, void **, size_t *, ...);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(gpointer);
    void (*free)(gpointer);
} vips;
static int opened_well;
static pthread_once_t opened = PTHREAD_ONCE_INIT;

#define FIND(field, name) if ((*(void **)&vips.field = dlsym(library, name)) == NULL) return

static void open_vips(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    FIND(init, "vips_init");
    FIND(cache_set_max, "vips_cache_set_max");
    FIND(concurrency_set, "vips_concurrency_set");
    FIND(block_set, "vips_operation_block_set");
    FIND(new_from_buffer, "vips_image_new_from_buffer");
    FIND(get_width, "vips_image_get_width");
    FIND(get_height, "vips_image_get_height");
    FIND(get_bands, "vips_image_get_bands");
    FIND(get_format, "vips_image_get_format");
    FIND(format_sizeof, "vips_format_sizeof");
    FIND(get_typeof, "vips_image_get_typeof");
    FIND(get_int, "vips_image_get_int");
    FIND(get_string, "vips_image_get_string");
    FIND(hasalpha, "vips_image_hasalpha");
    FIND(copy_memory, "vips_image_copy_memory");
    FIND(thumbnail_buffer, "vips_thumbnail_buffer");
    FIND(flatten, "vips_flatten");
    FIND(array_double_newv, "vips_array_double_newv");
    FIND(area_unref, "vips_area_unref");
    FIND(jpegsave_buffer, "vips_jpegsave_buffer");
    FIND(pngsave_buffer, "vips_pngsave_buffer");
    FIND(error_buffer, "vips_error_buffer");
    FIND(error_clear, "vips_error_clear");
    FIND(object_unref, "g_object_unref");
    FIND(free, "g_free");
    // Its warnings would go to the server's standard error as they please.
    setenv("VIPS_WARNING", "0", 0);
    if (vips.init("tally") != 0) return;
    // One receipt at a time per thread, nothing kept between receipts.
    vips.cache_set_max(0);
    vips.concurrency_set(1);
    vips.block_set("VipsForeignLoad", TRUE);
    vips.block_set("VipsForeignLoadJpeg", FALSE);
    vips.block_set("VipsForeignLoadPng", FALSE);
    vips.block_set("VipsForeignLoadWebp", FALSE);
    vips.block_set("VipsForeignLoadHeif", FALSE);
    opened_well = 1;
}

static void take_error(char *message, size_t capacity) {
    if (capacity == 0) return;
    const char *text = vips.error_buffer();
    strncpy(message, text ? text : "", capacity - 1);
    message[capacity - 1] = 0;
    vips.error_clear();
}

/// On white, as paper is: a receipt with a transparent background would turn black in a JPEG.
static VipsImage *opaque(VipsImage *image) {
    if (!vips.hasalpha(image)) return image;
    VipsArrayDouble *white = vips.array_double_newv(1, 255.0);
    VipsImage *flat = NULL;
    int failed = vips.flatten(image, &flat, "background", white, NULL);
    vips.area_unref((VipsArea *)white);
    vips.object_unref(image);
    return failed ? NULL : flat;
}

/// A whole number the loader put in the header, 0 when it put none.
static int header_int(VipsImage *header, const char *name) {
    int value = 0;
    if (vips.get_typeof(header, name) == 0 || vips.get_int(header, name, &value) != 0) return 0;
    return value;
}

/// The memory the loader needs at once for the image `header` describes, when it must hold all
/// of it before it can shrink it: an interlaced PNG (all seven passes), a progressive JPEG (its
/// coefficients, two bytes each, for every scan) and HEIF (decoded whole, planes and pixels);
/// 0 for a file read a few lines at a time (a baseline JPEG, a plain PNG, WebP).
static long long whole_decode_bytes(VipsImage *header, long long pixels) {
    const char *loader = "";
    if (vips.get_string(header, "vips-loader", &loader) != 0 || loader == NULL) loader = "";
    long long sample = (long long)vips.format_sizeof(vips.get_format(header));
    long long bands = vips.get_bands(header);
    if (strncmp(loader, "heifload", 8) == 0) return pixels * (bands * sample + 2);
    if (strncmp(loader, "jpegload", 8) == 0) return header_int(header, "jpeg-multiscan") ? pixels * bands * 2 : 0;
    if (strncmp(loader, "pngload", 7) == 0) return header_int(header, "interlaced") ? pixels * bands * sample : 0;
    return 0;
}

/// The most a PNG kept as a PNG may be.
#define TALLY_LARGEST_PNG (1536 * 1024)

static int save_jpeg(VipsImage *image, int quality, void **bytes, size_t *length) {
    return vips.jpegsave_buffer(image, bytes, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
}

int tally_receipt_image_clean(const void *bytes, size_t length, int long_side, int thumbnail_side, long long max_pixels,
                              long long max_whole_bytes, tally_receipt_image *out, char *message, size_t capacity) {
    pthread_once(&opened, open_vips);
    memset(out, 0, sizeof *out);
    if (!opened_well) return TALLY_IMAGE_NO_LIBRARY;
    // The header only, to refuse a small file that would open as a huge image.
    VipsImage *header = vips.new_from_buffer(bytes, length, "", NULL);
    if (header == NULL) {
        take_error(message, capacity);
        return TALLY_IMAGE_UNREADABLE;
    }
    long long pixels = (long long)vips.get_width(header) * vips.get_height(header);
    long long whole = whole_decode_bytes(header, pixels);
    vips.object_unref(header);
    if (pixels > max_pixels) return TALLY_IMAGE_TOO_LARGE;
    if (whole > max_whole_bytes) return TALLY_IMAGE_TOO_LARGE_WHOLE;

    // Upright (its orientation applied), in sRGB, shrunk while it is read where the format allows;
    // a file cut short is refused (the loader's own options: thumbnail's fail_on does not reach it).
    VipsImage *image = NULL;
    if (vips.thumbnail_buffer((void *)bytes, length, &image, long_side, "height", long_side, "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=error", NULL) != 0) {
        take_error(message, capacity);
        return TALLY_IMAGE_UNREADABLE;
    }
    const unsigned char *magic = bytes;
    out->is_png = length > 4 && magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G';
    int failed = 0;
    if (out->is_png) {
        // A screenshot stays a sharp PNG; a photo that came as a PNG (megabytes) becomes a JPEG,
        // written from the pixels in memory (a second pass over a streamed PNG is not possible).
        VipsImage *decoded = vips.copy_memory(image);
        vips.object_unref(image);
        if ((image = decoded) == NULL) {
            take_error(message, capacity);
            return TALLY_IMAGE_UNREADABLE;
        }
        failed = vips.pngsave_buffer(image, &out->image, &out->image_length, "strip", TRUE, "compression", 6, NULL);
        if (!failed && out->image_length > TALLY_LARGEST_PNG) {
            vips.free(out->image);
            out->image = NULL;
            out->is_png = 0;
        }
    }
    if (!out->is_png && !failed) {
        image = opaque(image);
        failed = image == NULL || save_jpeg(image, 85, &out->image, &out->image_length);
    }
    if (image != NULL) {
        out->width = vips.get_width(image);
        out->height = vips.get_height(image);
        vips.object_unref(image);
    }
    if (failed) {
        take_error(message, capacity);
        tally_receipt_image_free(out);
        return TALLY_IMAGE_UNREADABLE;
    }
    // The small copy is made from the clean one.
    VipsImage *small = NULL;
    if (vips.thumbnail_buffer(out->image, out->image_length, &small, thumbnail_side, "height", thumbnail_side,
                              "size", VIPS_SIZE_DOWN, NULL) != 0
        || (small = opaque(small)) == NULL
        || save_jpeg(small, 75, &out->thumbnail, &out->thumbnail_length) != 0) {
        if (small != NULL) vips.object_unref(small);
        take_error(message, capacity);
        tally_receipt_image_free(out);
        return TALLY_IMAGE_UNREADABLE;
    }
    vips.object_unref(small);
    return TALLY_IMAGE_DONE;
}

void tally_receipt_image_free(tally_receipt_image *image) {
    if (image->image != NULL) vips.free(image->image);
    if (image->thumbnail != NULL) vips.free(image->thumbnail);
    image->image = image->thumbnail = NULL;
}
