# Run at every build (not only at configure time), so a result never names a
# stale revision. configure_file rewrites version.h only when it changes.
# safe.directory: a clone owned by another user (root building a user's clone,
# the README's path on a fresh machine) is one git otherwise refuses to read,
# and the result would name no revision.
set(git git -c safe.directory=${SOURCE_DIR} -C ${SOURCE_DIR})
execute_process(COMMAND ${git} rev-parse --short=12 HEAD
                OUTPUT_VARIABLE ALIGNBENCH_GIT_REVISION
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(ALIGNBENCH_GIT_REVISION)
  execute_process(COMMAND ${git} diff --quiet HEAD --
                  RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty)
    set(ALIGNBENCH_GIT_REVISION "${ALIGNBENCH_GIT_REVISION}-dirty")
  endif()
endif()
configure_file(${SOURCE_DIR}/lib/version.h.in ${OUTPUT} @ONLY)
