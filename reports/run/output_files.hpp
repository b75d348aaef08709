// The files the commands write (traces, the gate's JUnit XML and Markdown report): every output
// path checked before any work, and each file written atomically, so that a reader never sees a
// partial file and a killed run leaves nothing behind that the next run does not clean up.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace interleave::run {

/// Writes `content` to `path` atomically: the bytes go to a file with no name (O_TMPFILE) in the
/// same directory, flushed to disk, which is then named ".NAME.interleave-tmp-PID-N" and renamed
/// over `path`; readers never see a partial file, and a process killed while writing leaves
/// nothing (the file has no name yet). Where the file system cannot do that, the temporary is
/// named from the start. Creates missing parent directories. Throws OutputError on failure (and
/// leaves no temporary file behind).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

/// Before any work: `dir` (given with `option`, e.g. "--out") can hold the files a command will
/// write: it is a directory, or it does not exist yet and its nearest existing ancestor is a
/// directory in which this process can create files (tried, not guessed from permission bits).
/// Removes the stale temporaries of killed runs from it (remove_stale_temporaries). Throws
/// UsageError: "--out: 'x' exists and is not a directory", "--out: cannot create 'd/out': cannot
/// create files in 'd': Permission denied".
void check_output_directory(std::string_view option, const std::filesystem::path& dir);

/// Before any work: `file` (given with `option`, e.g. "--junit") can be written: it is a regular
/// file or does not exist, and the nearest existing ancestor of its directory is a directory in
/// which this process can create files (the stale temporaries of its directory are removed).
/// Throws UsageError: "--junit: 'x' is a directory, expected a file", "--junit: cannot create
/// 'f/gate.xml': 'f' is not a directory".
void check_output_file(std::string_view option, const std::filesystem::path& file);

/// Removes from `dir` the temporaries that write_file_atomically left there when its process was
/// killed between naming and renaming them: regular files named ".NAME.interleave-tmp-PID-N"
/// (or ".NAME.tmp-PID", the name the versions before this one gave them) whose process PID no
/// longer runs. Files of running processes, directories and any other file are kept. Returns how
/// many were removed; never throws.
std::size_t remove_stale_temporaries(const std::filesystem::path& dir);

/// The name write_file_atomically gives the temporary of `target` ("." + filename +
/// ".interleave-tmp-" + PID + "-" + N): the pattern remove_stale_temporaries matches.
std::string temporary_name(const std::filesystem::path& target, long pid, unsigned long n);

}  // namespace interleave::run
