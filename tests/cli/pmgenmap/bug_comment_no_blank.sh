# expected: Debian's output for the same input with "# " in place of "#"
export PACKAGE_BUILD_DATE=today
printf "#comment\n\t#glued words\ng {\n#in group\n a.b A\n#\n}\n##twice\n" | pmgenmap
