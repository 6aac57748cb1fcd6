export PACKAGE_BUILD_DATE=today
printf "#\n# one\n\n  #   spaced \t words  here\n#\n# after a bare line\ng {\n # inside\n  a.b  A\n#\n#\n  c.d C\n # before close\n}\n# at the end\n#   of the file\n" | pmgenmap
