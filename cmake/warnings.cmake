# The one place the project's warning set and sanitizer flags are declared.
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Wno-format-nonliteral
                    $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes$<SEMICOLON>-Wmissing-prototypes>)
# Library code asks for POSIX.1-2008 plus the BSD/SVID extras (strdup, timegm);
# never _GNU_SOURCE, so strerror_r is the XSI one.
add_compile_definitions(_DEFAULT_SOURCE)
if(PMKIT_WERROR)
  add_compile_options(-Werror)
endif()
if(PMKIT_SANITIZE)
  set(PMKIT_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_compile_options(${PMKIT_SAN_FLAGS})
  add_link_options(${PMKIT_SAN_FLAGS})
endif()
if(PMKIT_FUZZ)
  # coverage feedback for libFuzzer in every object, sanitizers everywhere
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
