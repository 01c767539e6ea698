# Writes OUTPUT, a C++ source that holds the text of INPUT (the result schema) as
# kResultSchemaText: the binary checks result files against the schema the tree ships,
# with no file to find at run time.
file(READ ${INPUT} content)
string(FIND "${content}" ")ab_schema\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string's delimiter")
endif()
file(WRITE ${OUTPUT}.new
  "// Generated from ${INPUT} by cmake/embed_schema.cmake; do not edit.\n"
  "namespace alignbench {\n"
  "extern const char kResultSchemaText[];\n"
  "const char kResultSchemaText[] = R\"ab_schema(${content})ab_schema\";\n"
  "}  // namespace alignbench\n")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
