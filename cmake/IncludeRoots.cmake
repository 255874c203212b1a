# Layers the build enforces (docs/architecture.md "Layers"). No target sees the
# repository root: each library gets an include root in the build tree holding
# symbolic links to its own folders only, spelled as the sources include them
# ("analysis/ir/ir.h"). A target therefore finds the headers of the libraries it
# links and no others: an include across layers that the design does not allow
# is "No such file or directory" at compile time.

# tilesight_include_root(<target> <PUBLIC|PRIVATE|INTERFACE> <path>...): links
# each <path> (a folder or file, relative to the repository root) into
# <target>'s include root and adds that root to its include directories.
function(tilesight_include_root target scope)
  set(root ${PROJECT_BINARY_DIR}/include_roots/${target})
  file(REMOVE_RECURSE ${root})
  foreach(path ${ARGN})
    get_filename_component(parent ${root}/${path} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${path} ${root}/${path} SYMBOLIC)
  endforeach()
  target_include_directories(${target} ${scope} ${root})
endfunction()

# tilesight_layer(<target> <folder> [PUBLIC <lib>...] [PRIVATE <lib>...]): one
# static library of <folder>'s sources (not its subfolders), whose include root
# holds <folder>; PUBLIC are the libraries its headers include, PRIVATE those
# only its sources do.
function(tilesight_layer target folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "PUBLIC;PRIVATE")
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*.cpp)
  add_library(${target} STATIC ${sources})
  tilesight_include_root(${target} PUBLIC ${folder})
  target_link_libraries(${target} PUBLIC ${arg_PUBLIC} PRIVATE ${arg_PRIVATE})
endfunction()
