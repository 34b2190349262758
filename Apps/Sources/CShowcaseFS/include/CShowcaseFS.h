#ifndef CSHOWCASEFS_H
#define CSHOWCASEFS_H

/// Renames `oldpath` (relative to `olddirfd`) to `newpath` (relative to `newdirfd`) atomically,
/// failing with EEXIST instead of replacing an existing `newpath` (a file, a directory or a
/// symbolic link, which is never followed). Returns 0, or -1 with errno set; ENOSYS or EINVAL
/// when the system or file system cannot rename without replacing.
int showcase_renameat_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

#endif
