/* `ldsan-cc --emulate -fgpu-rdc`: where a translation unit's device bitcode
 * travels between `-c` and the link. The compile adds it to the host object as
 * section LDSAN_EMU_RDC_SECTION (flag SHF_EXCLUDE, so no linked file keeps it);
 * the link takes it back out of every object and static-library member, links
 * all of it into one device module (one image, as one code object on a GPU)
 * and retargets that. */
#ifndef LDSAN_EMU_RDC_BITCODE_H
#define LDSAN_EMU_RDC_BITCODE_H

#define LDSAN_EMU_RDC_SECTION ".ldsan_emu_rdc_bitcode"

/* Called with the path of each extracted bitcode file. */
typedef void (*ldsan_emu_rdc_found)(const char *bitcode_path, void *ctx);

/* Writes the LDSAN_EMU_RDC_SECTION contents of `path` (an ELF relocatable
 * object, or an ar archive of them) to files `<out_prefix><n>.bc`, n counting
 * up from *counter, calling found for each. Files that are neither (shared
 * libraries, linker scripts, other archive members) hold none.
 * Returns 0, or -1 with a message in err (what failed, for which file). */
int ldsan_emu_rdc_extract(const char *path, const char *out_prefix, int *counter, ldsan_emu_rdc_found found,
                          void *ctx, char *err, unsigned errlen);

#endif /* LDSAN_EMU_RDC_BITCODE_H */
