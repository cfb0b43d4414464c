# Script mode: writes OUTPUT, a C++ file defining `const std::vector<Migration>& FUNCTION()`
# with every numbered SQL file in DIR (NNNN_name.sql) embedded as a raw string.
file(GLOB sql_files LIST_DIRECTORIES false "${DIR}/*.sql")
list(SORT sql_files)
set(body "")
foreach(f IN LISTS sql_files)
  get_filename_component(name ${f} NAME)
  string(REGEX MATCH "^([0-9]+)_" m ${name})
  if(NOT m)
    message(FATAL_ERROR "migration ${name} does not start with a number")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  file(READ ${f} sql)
  string(APPEND body "      {${version}, \"${name}\", R\"arena_sql(${sql})arena_sql\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp
"// Generated from ${DIR} by cmake/EmbedSql.cmake. Do not edit.
#include \"services/common/migrate.h\"

namespace arena::migrations {

const std::vector<arena::common::Migration>& ${FUNCTION}() {
  static const auto* migrations = new std::vector<arena::common::Migration>{
${body}  };
  return *migrations;
}

}  // namespace arena::migrations
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
