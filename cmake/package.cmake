# The Debian package: `cpack -G DEB` in the build directory writes
# alignbench_<version>_<arch>.deb with the binary, the cases, the JSON Schema,
# the loop-device rig, the manual page and the README; scripts/package runs it.
# Dependencies come from dpkg-shlibdeps, so a host needs no compiler and no -dev
# package.
include(GNUInstallDirs)
# Debian wants a mail address with a real domain (lintian: bogus-mail-host);
# the project has none yet, so a reserved one stands in until it does.
set(ALIGNBENCH_PACKAGE_CONTACT "alignbench maintainers <alignbench@example.org>"
    CACHE STRING "Maintainer of the Debian package")
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

install(TARGETS alignbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# lib/config/case_search.cc finds cases by name here, relative to the binary.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/cases/ DESTINATION ${CMAKE_INSTALL_DATADIR}/alignbench/cases
        FILES_MATCHING PATTERN "*.json")
install(FILES ${CMAKE_SOURCE_DIR}/results/schema/alignbench-result.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/alignbench/schema)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/scripts/loop-rig
        DESTINATION ${CMAKE_INSTALL_DATADIR}/alignbench/scripts)
# What loop-rig sources from beside it (shown, descendants).
install(FILES ${CMAKE_SOURCE_DIR}/scripts/lib/common.sh
        DESTINATION ${CMAKE_INSTALL_DATADIR}/alignbench/scripts/lib)

# Debian policy wants a copyright file and a compressed changelog in the doc
# directory (lintian: no-copyright-file, no-changelog).
set(doc_dir ${CMAKE_INSTALL_DATADIR}/doc/alignbench)
configure_file(${CMAKE_SOURCE_DIR}/packaging/changelog.in
               ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
execute_process(COMMAND gzip -n -9 -f ${CMAKE_BINARY_DIR}/packaging/changelog)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright DESTINATION ${doc_dir})
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz DESTINATION ${doc_dir})
# The README with every page it links to, so that its links hold where it is installed.
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/ARCHITECTURE.md
              ${CMAKE_SOURCE_DIR}/CONTRIBUTING.md DESTINATION ${doc_dir})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${doc_dir}/docs
        FILES_MATCHING PATTERN "*.md")

# The manual page, written from the command table by alignbench_man_page at every
# build where that changed, compressed as Debian wants (gzip -9n: no name, no time, so
# two builds of one source give the same bytes). Its date is the changelog entry's, the
# release's, not the build's.
file(STRINGS ${CMAKE_SOURCE_DIR}/packaging/changelog.in trailer REGEX "^ -- ")
string(REGEX MATCH ", ([0-9]+) ([A-Z][a-z][a-z]) ([0-9]+) " date_match "${trailer}")
set(months Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)
list(FIND months "${CMAKE_MATCH_2}" month)
if(NOT date_match OR month EQUAL -1)
  message(FATAL_ERROR "packaging/changelog.in: no date in its ' -- ' line")
endif()
math(EXPR month "${month} + 1")
string(LENGTH "${month}" month_digits)
string(LENGTH "${CMAKE_MATCH_1}" day_digits)
set(day "${CMAKE_MATCH_1}")
if(month_digits EQUAL 1)
  set(month "0${month}")
endif()
if(day_digits EQUAL 1)
  set(day "0${day}")
endif()
set(ALIGNBENCH_RELEASE_DATE "${CMAKE_MATCH_3}-${month}-${day}")
set(man_page ${CMAKE_BINARY_DIR}/packaging/alignbench.1)
add_custom_command(
  OUTPUT ${man_page} ${man_page}.gz
  COMMAND alignbench_man_page ${ALIGNBENCH_RELEASE_DATE}
          /usr/${CMAKE_INSTALL_DATADIR}/alignbench ${man_page}
  COMMAND gzip -9 -n -k -f ${man_page}
  DEPENDS alignbench_man_page
  COMMENT "Writing the manual page alignbench.1"
  VERBATIM)
add_custom_target(alignbench_man ALL DEPENDS ${man_page}.gz)
install(FILES ${man_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME alignbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${ALIGNBENCH_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "cost of unaligned synchronous writes on a disk")
set(CPACK_PACKAGE_DESCRIPTION
    "alignbench measures what unaligned synchronous writes cost on one disk,\n\
filesystem and write-cache setting: pairs of aligned and unaligned write+sync\n\
runs, a gain with its interval and a verdict, the device I/O behind it, and\n\
a JSON result with the probed environment.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
