#define _GNU_SOURCE
#include "CShowcaseFS.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

int showcase_renameat_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
#if defined(__APPLE__)
    return renameatx_np(olddirfd, oldpath, newdirfd, newpath, RENAME_EXCL);
#elif defined(RENAME_NOREPLACE)
    return renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE);
#else
    errno = ENOSYS;
    return -1;
#endif
}
